"""Issue 24's Solaris, AIX, storage-placement and Ansible findings, one test each, named
after the finding, each naming the paper line or vendor page it rests on (rules/sources.py
holds the vendor pages: oracle-zfs-recordsize, oracle-large-pages-oob, oracle-zfs-arc,
ibm-sas-aix71, ibm-aix-minfree, sas569-2017, cloud-instance-storage)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

import rules
from rules.sources import SOURCES
from tests.conftest import example
from tests.rules.aix_script import SHELLS, FakeAix


def advised(doc: dict[str, Any]) -> rules.Result:
    return rules.advise_inventory(rules.inventory_from(doc))


def by_setting(result: rules.Result) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for r in result.recommendations:
        found.setdefault(r.setting, []).append(r)
    return found


def solaris_zfs(version: str, recordsize_kb: int | None = 32) -> dict[str, Any]:
    """A Solaris box on ZFS: 960 GB RAM, 30 sessions (MEMSIZE 16G each: 480 GB)."""
    doc = example("lemans-aix53-etl")
    doc["sas"]["version"] = "9.4"
    doc["server"] = {"hostname": "solzfs", "os": "solaris", "os_version": version,
                     "cpus": 64, "ram_gb": 960}  # fmt: skip
    for entry in doc["storage"]:
        entry.update(filesystem="zfs", zfs_recordsize_kb=recordsize_kb)
        entry.pop("adapters", None)
    doc["workload"].update(concurrent_sessions=30, mix={"etl": 0.7, "analytics": 0.3})
    return doc


def test_zfs_block_size_check_uses_recordsize_not_fstyp() -> None:
    """oracle-zfs-recordsize: a dataset's I/O size is its recordsize (zfs get recordsize),
    changed for files written afterwards; bartucca2005 l.486-495 sized SAS pages to the
    256 KB transfer, so 32K records under 256K pages are raised, per dataset."""
    result = advised(solaris_zfs("11.4"))
    found = by_setting(result)
    (check,) = found["check:zfs get recordsize"]
    assert check.value == "zfs get -o name,value recordsize /raid0 /raid5"
    assert "recordsize 32K (small)" in check.rationale
    assert [r.value for r in found["ZFS recordsize"]] == [
        "zfs set recordsize=256K <dataset of /raid0>",
        "zfs set recordsize=256K <dataset of /raid5>",
    ]
    assert "fstyp" not in " ".join(r.value for r in result.recommendations)
    skipped = {s.rule: s.reason for s in result.skipped}
    assert "recordsize" in skipped["work.block_size"]
    assert "ZFS recordsize" not in by_setting(advised(solaris_zfs("11.4", 256)))


@pytest.mark.parametrize("version", ["10", "11.4"])
def test_mpss_preload_not_advised_on_solaris_10_and_later(version: str) -> None:
    """MPSS's mpss.so.1 preload is Solaris 9's (oracle-mpss); Solaris 10 has an out-of-box
    large-page policy (oracle-large-pages-oob): no LD_PRELOAD, a pmap -xs check instead;
    chew l.482's trapstat check stays."""
    found = by_setting(advised(solaris_zfs(version)))
    assert "MPSS for SAS" not in found
    assert "check:trapstat -t" in found
    (pmap,) = found["check:pmap -xs"]
    assert "No LD_PRELOAD of mpss.so.1" in pmap.rationale and "unconfirmed" in pmap.rationale
    assert not SOURCES["oracle-large-pages-oob"].confirmed


def test_zfs_arc_bound_beside_a_480_gb_sas_memory_budget() -> None:
    """oracle-zfs-arc: user_reserve_hint_pct (Solaris 11.2+) set to the applications'
    footprint, else zfs_arc_max capped at memory less that footprint. 30 × 16G = 480 GB of
    960 GB: 50 %; on Solaris 10, an ARC of 480G."""
    (on_114,) = by_setting(advised(solaris_zfs("11.4")))["ZFS ARC bound"]
    assert on_114.value == "user_reserve_hint_pct=50"
    assert "30 sessions × MEMSIZE 16 GB = 480 GB of 960 GB RAM" in on_114.rationale
    assert "set_user_reserve.sh (Doc 1663862.1)" in on_114.rationale
    (on_10,) = by_setting(advised(solaris_zfs("10")))["ZFS ARC bound"]
    assert on_10.value == "zfs_arc_max=480G"


def aix96(current: bool = True) -> dict[str, Any]:
    doc = example("aix73-sas94-1mb")
    doc["server"] = {**doc["server"], "cpus": 96, "cores": 24}
    if current:
        doc["current"] = {
            "aix_vmo": {"minfree": "960", "maxfree": "1088"},
            "aix_ioo": {"j2_maxPageReadAhead": "128", "j2_nBufferPerPagerDevice": "512"},
            "source": "collector bundle, vmo -a and ioo -F -a",
        }
    return doc


def test_minfree_maxfree_scaled_for_96_logical_cpus() -> None:
    """ibm-aix-minfree: minfree = max(960, 120 × logical CPUs / memory pools), maxfree =
    minfree + j2_maxPageReadAhead × logical CPUs / pools, maxfree − minfree ≥
    j2_maxPageReadAhead. 960/1088 on 96 logical CPUs become 11520/36096 (read-ahead 256,
    one pool)."""
    found = by_setting(advised(aix96()))
    minfree, maxfree = int(found["minfree"][0].value), int(found["maxfree"][0].value)
    read_ahead = int(found["j2_maxPageReadAhead"][0].value)
    assert (minfree, maxfree, read_ahead) == (11520, 36096, 256)
    assert maxfree - minfree >= read_ahead
    assert "ibm-aix-minfree" in found["minfree"][0].rationale


@pytest.mark.parametrize("shell", SHELLS)
def test_minfree_maxfree_script_raises_maxfree_first(tmp_path: Path, shell: str) -> None:
    """The script checks minfree < maxfree at every step (vmo -L DEPENDENCIES): maxfree is
    raised before minfree, so 11520 never meets the old maxfree 1088."""
    aix = FakeAix(tmp_path / "aix", oslevel="7.3.0.0", restricted=("sync_release_ilock",))
    done = aix.run(rules.advise(aix96(current=False))["artifacts"]["aix_tuning.sh"], shell=shell)
    assert done.returncode == 0, done.stdout + done.stderr
    order = [c["argv"][-1].split("=")[0] for c in aix.changes() if c["prog"] == "vmo"]
    assert order.index("maxfree") < order.index("minfree")
    assert aix.values()["vmo"]["minfree"] == "11520"


def test_ibm_later_aix_read_ahead_and_write_behind_figures_used() -> None:
    """ibm-sas-aix71 on AIX 7.1+: write-behind 64 pages (the paper's 128 scaled to 512 for
    1 MB transfers, bartucca2005 l.246-257), j2_dynamicBufferPreallocation 256, read-ahead
    towards 1024 but at half of j2_nBufferPerPagerDevice (technote swg21640392). AIX 5.3
    keeps the paper's figures."""
    found = by_setting(advised(aix96()))
    assert found["j2_nPagesPerWriteBehindCluster"][0].value == "64"
    assert found["j2_dynamicBufferPreallocation"][0].value == "256"
    assert found["j2_minPageReadAhead"][0].value == "16"
    assert "ibm-sas-aix71" in found["j2_nPagesPerWriteBehindCluster"][0].sources
    assert "half of them (technote swg21640392): 256" in found["j2_maxPageReadAhead"][0].rationale
    paper = by_setting(advised(example("lemans-aix53-etl")))
    assert paper["j2_nPagesPerWriteBehindCluster"][0].value == "128"
    assert "j2_dynamicBufferPreallocation" not in paper


def test_stripe_unit_of_96k_under_256k_transfers_is_flagged() -> None:
    """sas569-2017 aligns stripe unit and BUFSIZE at 64K, 128K or 256K; bogacz2012 l.32
    striped at 64K: a 96 KB unit under 256 KB pages leaves pages straddling units."""
    doc = example("linux-rhel9-sas94")
    doc["storage"][1].update(raid="0", stripe_kb=96, max_transfer_kb=256)  # md RAID 0 chunk
    warned = [w.message for w in advised(doc).warnings if "stripe unit of 96K" in w.message]
    assert warned and "2.67 stripe units" in warned[0] and "sas569-2017" in warned[0]
    assert not [w for w in advised(example("linux-rhel9-sas94")).warnings
                if "stripe unit of" in w.message]  # fmt: skip


def nested() -> dict[str, Any]:
    doc = example("linux-rhel9-sas94")
    data = doc["storage"][1]
    doc["storage"][0] = {**data, "name": "sasdata_lv", "mount": "/sasdata/saswork",
                         "role": "work", "size_gb": 500}  # fmt: skip
    return doc


def test_work_nested_inside_data_on_the_same_lun_is_warned_and_counted_once() -> None:
    """xu gave WORK its own controller and disks (l.36-42, l.96): /sasdata/saswork inside
    /sasdata on the same devices is said plainly, not as a shared adapter, and the
    throughput estimate counts those disks once (no separate WORK estimate)."""
    result = advised(nested())
    messages = [w.message for w in result.warnings]
    assert any("/sasdata/saswork is inside /sasdata on the same disks" in m for m in messages)
    assert not any("shares adapters" in m for m in messages)
    (target,) = by_setting(result)["I/O throughput target"]
    assert "for WORK" not in target.rationale
    assert "WORK on the data disks is counted once, with data" in target.rationale


def test_instance_storage_takes_work_only_and_is_made_again_at_boot() -> None:
    """cloud-instance-storage: EC2 instance store and Azure's temporary disk are emptied at
    stop/deallocation; azure-sas-guide puts SASWORK on local disks. WORK there: advice to
    mkfs and mount at boot; data there: a high warning."""
    doc = example("linux-rhel9-sas94")
    doc["storage"][0]["ephemeral"] = True
    (boot,) = by_setting(advised(doc))["instance storage at boot"]
    assert boot.value.startswith("mkfs and mount /saswork at every boot")
    doc["storage"][1]["ephemeral"] = True
    high = [w for w in advised(doc).warnings if w.severity == "high" and "/sasdata" in w.message]
    assert high and "never keep SAS data, SPD Server data" in high[0].message


def test_ansible_playbook_sets_the_mount_read_ahead_linux_tuning_sets() -> None:
    """kernel-sysfs-block: read-ahead belongs to the device a file system is mounted from;
    linux_tuning.sh finds it per mount (mount_item) and keeps it with udev. The playbook
    now runs the same per-mount step, with the same mounts and values, and writes the same
    udev rules file (ansible-core's syntax check: tests/rules/test_ansible.py)."""
    artifacts = rules.advise(example("linux-rhel9-sas94"))["artifacts"]
    (play,) = yaml.safe_load(artifacts["ansible_linux.yml"])
    step, keep = play["tasks"]
    items = [(i["mount"], i["kb"], i["mode"], i["kind"]) for i in step["loop"]]
    script_items = [
        tuple(line.split("'")[1::2])
        for line in artifacts["linux_tuning.sh"].splitlines()
        if line.strip().startswith("mount_item '")
    ]
    assert items == script_items == [("/saswork", "16384", "at-least", "block"),
                                     ("/sasdata", "16384", "at-least", "block")]  # fmt: skip
    assert keep["ansible.builtin.copy"]["dest"] == "/etc/udev/rules.d/99-sas-readahead.rules"
    body = step["ansible.builtin.shell"]["cmd"].replace("{% raw %}", "").replace("{% endraw %}", "")
    assert subprocess.run(["sh", "-n"], input=body, text=True).returncode == 0
