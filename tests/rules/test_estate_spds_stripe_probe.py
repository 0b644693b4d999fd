"""Estates of today: SPD Server 5.3 on flash SAN LUNs (POWER10, AIX 7.3), SAS 9.1.3 on AIX
5.3 with a 96 KB stripe unit, and aix_tuning.sh run by a user who is not root.

bogacz2012's rules of thumb were laid out for the disks of an 8-CPU AIX server with 4 Gb
fibre channels (l.20): two data paths per CPU (l.22) and a 64K stripe, "commonly used" per
SAS documentation, to put several read/write heads to work at once (l.32); its own striped
and unstriped volume groups ran in about the same time (l.34: 5:00 against 5:09).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rules import InventoryError, Result, advise_inventory, inventory_from
from rules.model import SPDSSERV, SYSTEM, Recommendation
from tests.rules.aix_script import FakeAix, script

Doc = dict[str, Any]


def _fs(name: str, mount: str, role: str, raid: str, **more: Any) -> Doc:
    entry = {"name": name, "mount": mount, "role": role, "raid": raid, "disks": 8,
             "stripe_kb": 256, "max_transfer_kb": 1024, "size_gb": 4000, "media": "ssd",
             "filesystem": "jfs2", "san": True}  # fmt: skip
    return entry | more


S6: Doc = {
    "schema_version": 1,
    "name": "S6 POWER10 AIX 7.3 SPDS 5.3",
    "server": {"hostname": "p10spds", "os": "aix", "os_version": "7.3", "cpus": 256,
               "cores": 32, "smt_threads": 8, "ram_gb": 1024, "numa_nodes": 4,
               "virtual": "lpar"},
    "sas": {"version": "9.4", "connect_licensed": True, "spds": {"version": "5.3"},
            "maintenance": "M8"},
    "storage": [
        _fs("spdsdat01", "/spds/data01", "spds_data", "5", adapters=["fcs0", "fcs1"]),
        _fs("spdsdat02", "/spds/data02", "spds_data", "5", adapters=["fcs2", "fcs3"]),
        _fs("spdsidx", "/spds/index", "spds_index", "10", size_gb=2000),
        _fs("spdsmeta", "/spds/meta", "spds_meta", "10", disks=4, size_gb=100,
            stripe_kb=None),
        _fs("spdswork", "/spds/work", "spds_work", "0"),
        _fs("saswork", "/saswork", "work", "0"),
    ],
    "workload": {"concurrent_sessions": 60, "mix": {"etl": 0.3, "spds_query": 0.7},
                 "largest_table_gb": 1200, "total_data_gb": 7000, "growth_gb_per_week": 20},
}  # fmt: skip

S10: Doc = {
    "schema_version": 1,
    "name": "S10 SAS 9.1.3 AIX 5.3 96K stripe",
    "server": {"hostname": "oldaix", "os": "aix", "os_version": "5.3", "cpus": 8, "cores": 4,
               "smt_threads": 2, "ram_gb": 32, "virtual": "lpar"},
    "sas": {"version": "9.1.3", "connect_licensed": False, "spds": None, "maintenance": "M3"},
    "storage": [
        {"name": "worklv", "mount": "/saswork", "role": "work", "raid": "0", "disks": 3,
         "stripe_kb": 96, "max_transfer_kb": 256, "size_gb": 600, "media": "hdd",
         "filesystem": "jfs2", "adapters": ["fcs0"], "devices": ["hdisk2", "hdisk3", "hdisk4"]},
        {"name": "datalv", "mount": "/sasdata", "role": "data", "raid": "5", "disks": 7,
         "stripe_kb": 96, "max_transfer_kb": 256, "size_gb": 2000, "media": "hdd",
         "filesystem": "jfs2", "adapters": ["fcs1"], "devices": ["hdisk5"], "san": True},
    ],
    "workload": {"concurrent_sessions": 6, "mix": {"etl": 0.8, "summary": 0.2},
                 "largest_table_gb": 80, "total_data_gb": 1500, "growth_gb_per_week": 2},
}  # fmt: skip


def advised(doc: Doc) -> Result:
    return advise_inventory(inventory_from(doc))


def only(result: Result, target: str, setting: str) -> Recommendation:
    [found] = [r for r in result.recommendations if (r.target, r.setting) == (target, setting)]
    return found


def everything(result: Result) -> str:
    texts = [r.rationale for r in result.recommendations]
    texts += [f"{w.message} {w.action}" for w in result.warnings]
    return " ".join(texts)


def test_spds_stripe_on_flash_san_luns_is_advice_not_a_restripe() -> None:
    # bogacz2012 l.32: 64K "commonly used" (per SAS documentation) for read/write heads;
    # l.20: the 2012 AIX server it was laid out on; l.34: striped or not, about the same time.
    result = advised(S6)
    assert "Re-stripe" not in everything(result)
    layout = [w for w in result.warnings if w.rule == "spds.layout"]
    assert not [w for w in layout if "stripe" in w.message]
    advice = only(result, SYSTEM, "SPD Server stripe unit")
    assert advice.kind == "advice"
    assert "keep the existing stripes" in advice.value
    for cited in ("l.32", "l.20", "l.34", "new storage being laid out"):
        assert cited in advice.rationale
    assert "/spds/data01 (ssd SAN LUN)" in advice.rationale
    assert "keep the array vendor's layout" in advice.rationale


def test_spds_stripe_on_local_disks_is_a_low_warning_for_new_storage_only() -> None:
    doc = copy.deepcopy(S6)
    for entry in doc["storage"]:
        entry.update(media="hdd", san=False)
    result = advised(doc)
    [warning] = [w for w in result.warnings if w.rule == "spds.layout" and "stripe" in w.message]
    assert warning.severity == "low"
    assert "/spds/data01 256K" in warning.message
    assert "Leave the existing storage as it is" in warning.action
    advice = only(result, SYSTEM, "SPD Server stripe unit")
    assert "consider 64K" in advice.rationale and "%IOSCALE" in advice.rationale


def test_spds_data_paths_on_flash_san_luns_are_not_two_per_cpu() -> None:
    # bogacz2012 l.22: "two data paths for each available CPU", 16 on 8 CPUs, on spindles.
    result = advised(S6)
    assert not [w for w in result.warnings if w.rule == "spds.data_paths"]
    paths = only(result, SYSTEM, "SPD Server data paths")
    assert paths.kind == "advice" and paths.value == "2"
    assert "would be 64" in paths.rationale
    for cited in ("l.22", "l.20", "l.34", "measure instead", "iostat -D", "fcstat"):
        assert cited in paths.rationale
    assert "64 data file systems" not in everything(result)
    minpart = only(result, SPDSSERV, "MINPARTSIZE")
    assert "over 2 data paths (the ones listed" in minpart.rationale
    assert "two per CPU" not in minpart.rationale


def test_spds_data_paths_on_local_disks_keep_the_papers_rule() -> None:
    doc = copy.deepcopy(S6)
    for entry in doc["storage"]:
        entry.update(media="hdd", san=False)
    result = advised(doc)
    [warning] = [w for w in result.warnings if w.rule == "spds.data_paths"]
    assert "64 SPD Server data paths" in warning.message
    assert only(result, SYSTEM, "SPD Server data paths").value == "64"


@pytest.mark.parametrize("which", ["both", "array_lun_only"])
def test_stripe_of_96k_under_256k_transfers_is_flagged_not_refused(which: str) -> None:
    # 3 data disks × 32 KB = 96 KB full stripe: accepted; 256K pages straddle it
    # (sas569-2017: align stripe unit and BUFSIZE at 64K, 128K or 256K).
    doc = copy.deepcopy(S10)
    if which == "array_lun_only":
        del doc["storage"][0]["stripe_kb"]
    result = advised(doc)
    flagged = [w for w in result.warnings if w.rule == "placement.stripe_alignment"]
    mounts = ["/sasdata"] if which == "array_lun_only" else ["/saswork", "/sasdata"]
    assert [w.message.split("'")[0] for w in flagged] == mounts
    data = flagged[-1].message
    assert "stripe unit of 96K does not divide the 256K SAS pages" in data
    assert "SAS pages straddle strips" in data
    assert "on RAID 5 such a write is a partial-stripe write" in data
    if which == "both":
        assert "partial-stripe" not in flagged[0].message  # RAID 0 has no parity


def test_stripe_that_is_not_whole_4k_pages_is_still_refused() -> None:
    doc = copy.deepcopy(S10)
    doc["storage"][1]["stripe_kb"] = 98
    with pytest.raises(InventoryError) as refused:
        inventory_from(doc)
    [problem] = refused.value.problems
    assert problem.path == "storage[1].stripe_kb"
    assert "a multiple of 4 KB" in problem.message


def test_sas913_settings_cite_sas94_docs_as_unconfirmed() -> None:
    result = advised(S10)
    cpucount = only(result, "sasv9_append.cfg", "CPUCOUNT")
    assert "sas94-cpucount" in cpucount.sources
    assert cpucount.rationale.endswith(
        "(sas94-config, sas94-cpucount: SAS 9.4 documentation; 9.1.3 behaves the same: unconfirmed)"
    )
    for r in result.recommendations:
        if "sas94-config" in r.sources:
            assert "9.1.3 behaves the same: unconfirmed" in r.rationale, r.rule
    nine_four = advised(S6)
    assert "behaves the same" not in everything(nine_four)


def test_aix_tuning_refuses_a_user_who_is_not_root_before_any_backup(tmp_path: Path) -> None:
    aix = FakeAix(tmp_path, uid=1000)
    done = aix.run(script())
    assert done.returncode != 0
    assert "refusing to run as user id 1000" in done.stderr and "as root" in done.stderr
    assert [c["prog"] for c in aix.calls() if c["prog"] in ("ioo", "vmo")] == []
    assert aix.changes() == [] and not aix.root.exists()


def test_aix_tuning_dry_run_needs_no_root(tmp_path: Path) -> None:
    aix = FakeAix(tmp_path / "dry", uid=1000)
    done = aix.run(script(), "-n")
    assert done.returncode == 0, done.stderr
    assert aix.changes() == [] and not aix.root.exists()
