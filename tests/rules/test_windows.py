"""Windows done right: drive and UNC paths for os windows only, -SGIO where direct I/O fits,
the configuration file Windows SAS reads, Windows advice with its sources, and no POSIX path
or "upgrade to 9.2" text for a Windows SAS 9.4 user."""

from __future__ import annotations

import re
from typing import Any

import pytest

import rules
from rules.kinds import MOUNT
from tests.conftest import example

POSIX_PATH = re.compile(r"(?<![\w\\/:.])/[A-Za-z][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_.-]+)*")
WINDOWS_EXAMPLES = ("windows-sas94", "windows2022-refs-sas94m8")
PAPER_PATHS = {"/raid0", "/raid5"}  # bartucca2005's file systems, cited as evidence


def result(doc: dict[str, Any]) -> rules.Result:
    return rules.advise_inventory(rules.inventory_from(doc))


def problems(doc: dict[str, Any]) -> dict[str, str]:
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    return {p.path: p.message for p in caught.value.problems}


def test_drive_and_unc_paths_are_accepted_for_windows() -> None:
    doc = example("windows-sas94")
    doc["storage"][2]["mount"] = "\\\\fs01\\sas$\\data"
    inv = rules.inventory_from(doc)
    assert [s.mount for s in inv.storage] == ["D:\\saswork", "F:\\sasutil", "\\\\fs01\\sas$\\data"]


def test_posix_paths_are_refused_for_windows_and_windows_paths_elsewhere() -> None:
    doc = example("windows-sas94")
    doc["storage"][0]["mount"] = "/saswork"
    assert problems(doc) == {
        "storage[0].mount": "must be a Windows path (D:\\saswork or \\\\server\\share) for "
        "server.os windows"
    }
    linux = example("linux-rhel9-sas94")
    linux["storage"][0]["mount"] = "D:\\saswork"
    assert problems(linux) == {
        "storage[0].mount": "must be an absolute POSIX path (/saswork) for server.os linux"
    }


@pytest.mark.parametrize(
    "mount", ["D:\\..\\etc", "D:\\a\\.\\b", "D:\\sas work", "D:saswork", "\\\\srv", "D:\\a;b"]
)
def test_hostile_or_malformed_windows_paths_are_refused(mount: str) -> None:
    assert not MOUNT.accepts(mount)


def test_windows_mounts_differ_by_more_than_case() -> None:
    doc = example("windows-sas94")
    doc["storage"][1]["mount"] = "d:\\SASWORK\\"
    assert problems(doc) == {"storage[1].mount": "duplicates storage[0].mount"}


def test_sgio_where_direct_io_fits_and_never_an_upgrade_text() -> None:
    done = result(example("windows-sas94"))
    (cfg_name,) = [n for n in done.artifacts if n.endswith(".cfg")]
    cfg = done.artifacts[cfg_name]
    assert cfg_name == "sasv9_append.cfg"
    # SGIO is started with the big sort jobs beside their BUFNO (sas-win-sgio: tune BUFNO
    # for each job), not site-wide at BUFNO 1 (issue 24).
    assert "\n-SGIO\n" not in cfg
    (sgio,) = [r for r in done.recommendations if r.setting == "SGIO"]
    assert (sgio.rule, sgio.target) == ("io.direct_io", "program")
    assert '\n-WORK "D:\\saswork"\n' in cfg and '\n-UTILLOC "F:\\sasutil"\n' in cfg
    assert "!SASROOT\\nls\\en\\sasv9.cfg" in cfg  # the file Windows SAS reads
    text = rules.result_json(done.to_dict())
    assert "upgrade" not in text.lower() and "9.2+" not in text


@pytest.mark.parametrize("name", WINDOWS_EXAMPLES)
def test_no_posix_path_in_the_outputs(name: str) -> None:
    """Every Windows example, windows2022-refs-sas94m8 included (its MP CONNECT example once
    had libname savedata '/path/to/data')."""
    done = result(example(name))
    for name, text in done.artifacts.items():
        if name.endswith(".cfg"):
            assert POSIX_PATH.findall(text) == [], name
    for rec in done.to_dict()["recommendations"]:
        found = set(POSIX_PATH.findall(f"{rec['value']} {rec['rationale']}"))
        assert found <= {"/setactive", "/getactivescheme", "/FS", "/A"}, (rec["rule"], found)
        assert set(POSIX_PATH.findall(rec["evidence"] + rec["effect"])) <= PAPER_PATHS


def test_windows_advice_names_its_sources() -> None:
    recs = {r.rule: r for r in result(example("windows-sas94")).recommendations}
    assert recs["windows.processor_scheduling"].value == "Background services"
    assert recs["windows.processor_scheduling"].sources == ("sas-win-performance",)
    assert recs["windows.power_plan"].value == "High performance"
    assert "unconfirmed" in recs["windows.work_volumes"].rationale
    scans = [r for r in result(example("windows-sas94")).recommendations
             if r.setting == "antivirus exclusions"]  # fmt: skip
    assert scans[0].value == "D:\\saswork, F:\\sasutil"


def test_the_windows_rules_stay_off_other_systems() -> None:
    done = result(example("linux-rhel9-sas94")).decisions
    assert not any(r.rule.startswith("windows.") for r in done.recommendations)
    reasons = {n.rule: n.reason for n in done.not_applicable}
    assert reasons["windows.power_plan"] == "server.os is linux; this rule is for Windows"
