"""The checks across fields, in the one validation every entry point runs: the largest
table within the total data, stripes a RAID can have, file systems the OS mounts; device
names of another system warned about, not refused; the command line refusing alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.inventory import FILESYSTEMS as CONTRACT_FILESYSTEMS
from rules.inventory import OS_NAMES, RAID_LEVELS
from rules.inventory_fit import ANY_OS, FILESYSTEMS, fit_problems
from rules.kinds import MAX_KB
from rules.validate import parse, parse_stored
from tests.conftest import EXAMPLES, ROOT, example
from tests.rules.refused import REFUSED, WARNED, slipped
from tests.rules.test_properties import inventory

GOLDEN_INVENTORIES = sorted((ROOT / "tests" / "golden" / "inventories").glob("*.json"))
ALL_EXAMPLES = sorted(EXAMPLES.glob("*.json")) + GOLDEN_INVENTORIES


def problems(doc: Any) -> list[tuple[str, str]]:
    try:
        parse(doc)
    except rules.InventoryError as exc:
        return [(p.path, p.message) for p in exc.problems]
    return []


def device_warnings(doc: Any) -> list[str]:
    result = rules.advise(doc)
    return [w["message"] for w in result["warnings"] if w["rule"] == "storage.device_names"]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_each_slip_is_refused_naming_its_field_and_what_fits(name: str) -> None:
    slip = REFUSED[name]
    assert problems(slipped(slip)) == [(slip.path, slip.says)]


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.stem)
def test_every_example_passes_and_names_its_own_devices(path: Path) -> None:
    doc = json.loads(path.read_text())
    assert problems(doc) == []
    assert device_warnings(doc) == []


def test_the_checks_come_with_the_contracts_own_problems() -> None:
    doc = slipped(REFUSED["stripe"])
    REFUSED["filesystem"].change(doc)
    REFUSED["largest_table"].change(doc)
    del doc["server"]["hostname"]
    assert [path for path, _ in problems(doc)] == [
        "server.hostname", "workload.largest_table_gb", "storage[1].stripe_kb",
        "storage[1].filesystem",
    ]  # fmt: skip


def test_a_path_the_contract_faults_is_not_faulted_twice() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0] |= {"stripe_kb": 0, "filesystem": "btrfs"}
    assert problems(doc) == [
        ("storage[0].stripe_kb", "must be between 1 and 1048576"),
        ("storage[0].filesystem", "must be one of " + ", ".join(map(repr, CONTRACT_FILESYSTEMS))),
    ]


@pytest.mark.parametrize(
    ("os_name", "raid", "stripe", "fits"),
    [
        ("aix", "5", 64, True), ("aix", "0", 131072, True), ("aix", "0", 262144, False),
        ("aix", "5", 2, False), ("aix", "0", 12, True), ("aix", "5", 96, True),
        ("linux", "0", 12, True), ("linux", "0", 6, False), ("linux", "5", 12, True),
        ("linux", "10", 4, True), ("windows", "jbod", 4, True), ("aix", "5", 98, False),
    ],
)  # fmt: skip
def test_stripes_a_raid_can_have(os_name: str, raid: str, stripe: int, fits: bool) -> None:
    # Any multiple of 4 KB up to 128 MB, on every OS and RAID since rules 2026.11.9: md RAID
    # 0 chunks and array full stripes (3 data disks × 32 KB = 96 KB) need not be powers of two.
    doc = moved(os_name)
    doc["storage"][0] |= {"raid": raid, "stripe_kb": stripe}
    found = problems(doc)
    assert found == ([] if fits else [("storage[0].stripe_kb", found[0][1])])
    if not fits:
        assert (
            "a multiple of 4 KB (… 32, 64, 96, 128, 256 …) from 4 KB to 131072 KB" in (found[0][1])
        )


@pytest.mark.parametrize(
    ("os_name", "filesystem", "fits"),
    [
        ("linux", "jfs", True), ("linux", "jfs2", False), ("linux", "ntfs", True),
        ("aix", "xfs", False), ("aix", "vxfs", True), ("solaris", "ufs", True),
        ("solaris", "gpfs", False), ("hpux", "vxfs", True), ("hpux", "ext4", False),
        ("windows", "gpfs", True), ("windows", "jfs2", False), ("windows", "nfs", True),
        ("aix", "other", True),
    ],
)  # fmt: skip
def test_file_systems_each_os_mounts(os_name: str, filesystem: str, fits: bool) -> None:
    doc = moved(os_name)
    doc["storage"][0]["filesystem"] = filesystem
    assert [p for p, _ in problems(doc)] == ([] if fits else ["storage[0].filesystem"])


def test_a_total_of_zero_is_no_data_given_not_a_smaller_total() -> None:
    doc = example("prime-spds-aix")
    doc["workload"] |= {"largest_table_gb": 280, "total_data_gb": 0}
    assert problems(doc) == []
    doc["workload"]["total_data_gb"] = 280
    assert problems(doc) == []
    doc["workload"]["total_data_gb"] = 279.5
    assert problems(doc) == [("workload.largest_table_gb", found_largest(279.5))]


def found_largest(total: float) -> str:
    return f"is larger than the total data ({total:g} GB), which holds it: at most {total:g} GB"


def test_values_of_the_wrong_type_are_left_to_the_contract() -> None:
    junk: dict[str, Any] = {
        "workload": {"largest_table_gb": "x", "total_data_gb": None},
        "server": {"os": 7},
        "storage": [{"stripe_kb": "64", "filesystem": "xfs"}, None, 5, {"stripe_kb": True}],
    }
    assert fit_problems(junk) == []
    assert fit_problems({"storage": {"a": 1}, "workload": []}) == []
    assert fit_problems([1, 2]) == []
    assert fit_problems({"server": {"os": "beos"}, "storage": [{"filesystem": "bfs"}]}) == []


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_stored_document_is_read_as_it_was_accepted(name: str) -> None:
    # An assessment stored before a check refused its values is advised again as it was.
    doc = slipped(REFUSED[name])
    assert parse_stored(doc).server.hostname == "lemans"


def test_names_of_another_system_are_a_warning_with_how_this_os_names_them() -> None:
    assert problems(slipped(WARNED)) == []
    assert device_warnings(slipped(WARNED)) == [WARNED.says]
    linux = example("linux-rhel9-sas94")
    linux["storage"][0] |= {"devices": ["nvme0n1", "hdisk4"], "adapters": ["host0", "fscsi1"]}
    assert device_warnings(linux) == [
        "storage[0].adapters[1]: fscsi1 is an AIX name, not one Linux gives; Linux names them "
        "like host0 (lsscsi -H).",
        "storage[0].devices[1]: hdisk4 is an AIX name, not one Linux gives; Linux names them "
        "like sdb, nvme0n1, dm-3 (lsblk).",
    ]  # fmt: skip
    aix = example("lemans-aix53-etl")
    aix["storage"][1]["adapters"] = ["fscsi0", "host1", "qla0"]
    assert device_warnings(aix) == [
        "storage[1].adapters[1]: host1 is a Linux name, not one AIX gives; AIX names them like "
        "fscsi0, vscsi0 (lsdev -Cc adapter)."
    ]
    windows = example("windows-sas94")
    windows["storage"][0]["devices"] = ["PhysicalDrive2", "c0t1d0", "lun7"]
    assert device_warnings(windows) == [
        "storage[0].devices[1]: c0t1d0 is a Solaris or HP-UX name, not one Windows gives; "
        "Windows names them like PhysicalDrive1 (Get-Disk)."
    ]


def moved(os_name: str) -> dict[str, Any]:
    """lemans on another OS: the mounts and file systems that OS takes."""
    doc = example("lemans-aix53-etl")
    doc["server"]["os"] = os_name
    for i, entry in enumerate(doc["storage"]):
        entry["filesystem"] = FILESYSTEMS[os_name][0]
        if os_name == "windows":
            entry["mount"] = f"D:\\sas{i}"
    return doc


@settings(max_examples=80, deadline=None)
@given(inventory())
def test_valid_documents_stay_valid(document: dict[str, Any]) -> None:
    # The checks refuse, never change: an accepted document is the inventory the contract
    # alone reads, and its echo (the result's `inventory`) is accepted again.
    inv = parse(document)
    assert inv == parse_stored(document)
    assert parse(inv.to_dict()) == inv


@settings(max_examples=200, deadline=None)
@given(
    os_name=st.sampled_from(OS_NAMES), raid=st.sampled_from(RAID_LEVELS),
    stripe=st.one_of(st.integers(1, MAX_KB), st.integers(2, 20).map(lambda n: 2**n)),
    filesystem=st.sampled_from(CONTRACT_FILESYSTEMS),
)  # fmt: skip
def test_a_stripe_or_file_system_is_refused_exactly_when_no_system_takes_it(
    os_name: str, raid: str, stripe: int, filesystem: str
) -> None:
    doc = moved(os_name)
    doc["storage"][1] |= {"raid": raid, "stripe_kb": stripe, "filesystem": filesystem}
    stripe_fits = 4 <= stripe <= 131072 and stripe % 4 == 0
    mounts = filesystem in FILESYSTEMS[os_name] + ANY_OS
    expected = [path for path, ok in (("storage[1].stripe_kb", stripe_fits),
                                      ("storage[1].filesystem", mounts)) if not ok]  # fmt: skip
    assert [p for p, _ in problems(doc)] == expected


def run_cli(doc: Any, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    source = tmp_path / "inventory.json"
    source.write_text(json.dumps(doc))
    return subprocess.run(
        [sys.executable, "-m", "rules", "advise", str(source), "--out", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip


def test_the_command_line_refuses_each_slip_naming_its_field(tmp_path: Path) -> None:
    for name, slip in REFUSED.items():
        done = run_cli(slipped(slip), tmp_path)
        assert (done.returncode, done.stderr) == (2, f"{slip.path}: {slip.says}\n"), name
        assert not (tmp_path / "out").exists()
    done = run_cli(slipped(WARNED), tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"warning [storage.device_names]: {WARNED.says}" in done.stderr.splitlines()
    written = json.loads((tmp_path / "out" / "recommendations.json").read_text())
    assert [w["message"] for w in written["warnings"] if w["rule"] == "storage.device_names"] == [
        WARNED.says
    ]
