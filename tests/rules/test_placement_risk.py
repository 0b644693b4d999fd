"""Warnings before risky placements (issue 27, item 3): WORK or UTILLOC on /, on another of
the OS's own file systems (or its disks, AIX's rootvg), on the file system holding SAS's
installation (sas.install_path), or sharing a file system with SAS or SPD Server data.

Each warning names the file system, says what goes wrong and what to do for the OS in
hand, in words for people: no contract path, no raw field name, no line citation."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

import rules
from rules.problems import InventoryError
from tests.conftest import example

Doc = dict[str, Any]
MINE = ("placement.system_file_system", "placement.scratch_with_data")
PLACEMENT = (*MINE, "placement.work_in_data", "work.placement")
RAW = re.compile(r"storage\[|install_path|sas\.|\bl\.\d|role_|spds_")


def fs(name: str, mount: str, role: str, **extra: Any) -> Doc:
    entry = {"name": name, "mount": mount, "role": role, "raid": "0", "disks": 2,
             "size_gb": 500, "media": "ssd", "filesystem": "xfs"}  # fmt: skip
    return entry | extra


def warnings(doc: Doc, rules_: tuple[str, ...] = MINE) -> list[dict[str, Any]]:
    return [w for w in rules.advise(doc)["warnings"] if w["rule"] in rules_]


def only(doc: Doc, rule: str) -> dict[str, Any]:
    (found,) = warnings(doc, (rule,))
    return found


def linux(*storage: Doc, install: str | None = None) -> Doc:
    doc = example("linux-rhel9-sas94")
    doc["storage"] = list(storage)
    if install:
        doc["sas"]["install_path"] = install
    return doc


def for_people(w: dict[str, Any]) -> None:
    text = w["message"] + " " + w["action"]
    assert not RAW.search(text), text


def test_a_root_only_server_is_warned_and_sas_too_where_it_is_installed_there() -> None:
    doc = linux(fs("root", "/", "work", devices=["sda"]), install="/opt/sas/SASHome")
    w = only(doc, "work.placement")
    assert w["severity"] == "high" and "root file system /" in w["message"]
    assert "SAS itself, installed at /opt/sas/SASHome on /" in w["message"]
    assert "unconfirmed" in w["message"] and "XFS" in w["action"]
    for_people(w)
    # With /opt a file system of its own, SAS's installation is not on /.
    doc["storage"].append(fs("opt", "/opt", "other", devices=["sdb"]))
    assert "SAS itself" not in only(doc, "work.placement")["message"]


@pytest.mark.parametrize("mount", ["/var", "/usr", "/tmp", "/opt"])
def test_work_on_another_system_file_system_is_a_high_warning(mount: str) -> None:
    doc = linux(fs("w", mount, "work", devices=["sdb"]), fs("d", "/sasdata", "data"))
    w = only(doc, "placement.system_file_system")
    assert w["severity"] == "high" and f"the {mount} file system" in w["message"]
    assert "stops those writes" in w["message"] and "unconfirmed" in w["message"]
    assert "XFS" in w["action"] and "rootvg" not in w["action"]
    for_people(w)


def test_utilloc_on_the_installation_file_system_is_named_as_such() -> None:
    doc = linux(
        fs("w", "/saswork", "work", devices=["nvme0n1"]),
        fs("u", "/sas", "utilloc", devices=["sdc"]),
        install="/sas/SASHome",
    )
    w = only(doc, "placement.system_file_system")
    assert w["message"].startswith("UTILLOC, where SAS writes its sort utility files, at /sas")
    assert "SAS's own installation (/sas/SASHome)" in w["message"]
    assert "sessions can fail to start" in w["message"]
    # The installation below a file system of its own is not WORK's business.
    doc["storage"].append(fs("home", "/sas/SASHome", "other", devices=["sdd"]))
    assert warnings(doc) == []


def test_work_on_the_os_disks_is_a_medium_warning() -> None:
    doc = linux(fs("root", "/", "other", devices=["sda"]), fs("w", "/saswork", "work",
                devices=["sda"]))  # fmt: skip
    w = only(doc, "placement.system_file_system")
    assert w["severity"] == "medium" and "the same disks as the root file system /" in w["message"]


def test_aix_work_in_rootvg_gets_aix_words() -> None:
    doc = example("aix73-sas94-1mb")
    doc["storage"][0]["volume"] = "rootvg/saswork_lv"
    w = only(doc, "placement.system_file_system")
    assert w["severity"] == "medium" and "rootvg" in w["message"]
    assert "volume group other than rootvg" in w["action"] and "mklv" in w["action"]
    assert "XFS" not in w["action"]
    doc["storage"][0].pop("volume")
    doc["storage"][0]["mount"] = "/var"
    assert "JFS2" in only(doc, "placement.system_file_system")["action"]


def test_windows_work_on_the_system_drive_with_sas_installed_there() -> None:
    doc = example("windows-sas94")
    doc["storage"][0]["mount"] = "C:\\saswork"
    doc["sas"]["install_path"] = "C:\\Program Files\\SASHome"
    w = only(doc, "placement.system_file_system")
    assert "the system drive C:" in w["message"] and "C:\\Program Files\\SASHome" in w["message"]
    assert "a drive of its own, neither C: nor a data drive" in w["action"]
    assert "/saswork" not in w["action"] and "XFS" not in w["action"]
    for_people(w)
    # On D: with SAS on C:, nothing is said.
    doc["storage"][0]["mount"] = "D:\\saswork"
    assert warnings(doc) == []


def test_windows_work_and_data_on_one_drive() -> None:
    doc = example("windows-sas94")
    doc["storage"][2]["mount"] = "d:\\SASdata"
    w = only(doc, "placement.scratch_with_data")
    assert (
        w["severity"] == "medium" and "on drive D:, as is SAS data at d:\\SASdata" in w["message"]
    )
    assert "about half" in w["message"] and "unconfirmed" in w["message"]
    for_people(w)


def test_work_inside_an_spds_file_system() -> None:
    doc = example("prime-spds-aix")
    doc["storage"][-1]["mount"] = "/spds01/saswork"
    w = only(doc, "placement.scratch_with_data")
    assert "inside SPD Server data at /spds01" in w["message"]
    assert "SPD Server's data, indexes, metadata and work file systems" in w["message"]
    for_people(w)


def test_work_on_the_data_disks_is_said_once() -> None:
    """placement.work_in_data says it for SAS data on UNIX: this rule does not repeat it."""
    doc = linux(fs("w", "/saswork", "work", devices=["sdb"]), fs("d", "/sasdata", "data",
                devices=["sdb"]))  # fmt: skip
    assert warnings(doc) == []
    assert len(warnings(doc, ("placement.work_in_data",))) == 1


@pytest.mark.parametrize(
    "value", ["opt/sas", "/opt/../sas", "/opt//sas", "C:\\a\\..\\b", "C:\\ lead", "x" * 5]
)
def test_a_bad_install_path_is_refused_by_its_path(value: str) -> None:
    doc = linux(fs("w", "/saswork", "work"), install=value)
    with pytest.raises(InventoryError) as raised:
        rules.advise(doc)
    assert "sas.install_path" in str(raised.value)


def test_the_install_path_is_echoed_only_when_given() -> None:
    doc = linux(fs("w", "/saswork", "work"))
    assert "install_path" not in rules.advise(copy.deepcopy(doc))["inventory"]["sas"]
    doc["sas"]["install_path"] = "C:\\Program Files (x86)\\SASHome"
    assert rules.advise(doc)["inventory"]["sas"]["install_path"] == doc["sas"]["install_path"]


def test_a_warning_names_a_few_shared_file_systems_and_counts_the_rest() -> None:
    doc = example("windows-sas94")
    work = doc["storage"][0]
    doc["storage"] = [work] + [
        {**work, "name": f"data{i}", "mount": f"D:\\data{i}", "role": "data"} for i in range(8)
    ]
    w = only(doc, "placement.scratch_with_data")
    assert w["message"].count("as is SAS data at") == 5 and "and 3 more like these" in w["message"]


def test_work_in_the_os_volume_group_is_a_medium_warning() -> None:
    """A Linux LV beside the root LV (rhel/saswork beside rhel/root) shares its disks."""
    doc = linux(
        fs("root", "/", "other", volume="rhel/root", volume_kind="lvm"),
        fs("w", "/saswork", "work", volume="rhel/saswork", volume_kind="lvm"),
    )
    w = only(doc, "placement.system_file_system")
    assert "the volume group rhel, with the root file system /" in w["message"]
    doc["storage"][1]["volume"] = "vg_sas/saswork"
    assert warnings(doc) == []
