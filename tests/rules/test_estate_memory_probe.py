"""Memory findings of the estate probe (issue 24): S5, S8, S4, S6 and S10, each named after
what the advice got wrong, with the source it now rests on.

Sources: SAS 9.3 Companion for UNIX, MEMSIZE "Default: 512M" and "If MEMSIZE is set too low,
your jobs will fail" and SAS 9.4 Companion for Windows, MEMSIZE "Default: 2G", SORTSIZE
"Default: 1G" (sas-memsize-defaults); bartucca2005 l.269 (MEMSIZE 8G, SORTSIZE 4G);
chew l.63-69; Oracle zfs_arc_max / user_reserve_hint_pct (oracle-zfs-arc); SAS KB0039548
rhel_iotest.sh (sas-ram-per-core); kernel numa_balancing and Red Hat's tuning guide
(kernel-numa-balancing, rhel-numa); IBM "Values for minfree and maxfree parameters"
(ibm-aix-minfree); IBM vmo lru_file_repage (ibm-aix-lru-file-repage)."""

from __future__ import annotations

from typing import Any

import rules
from rules.sources import SOURCES


def _server(**kw: Any) -> dict[str, Any]:
    base = {"hostname": "h", "os": "linux", "os_version": "9.4", "cpus": 8, "ram_gb": 64}
    return {**base, **kw}


def _doc(
    server: dict[str, Any], sessions: int, storage: list[dict[str, Any]], **kw: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "schema_version": 1,
        "name": "memory probe",
        "server": server,
        "sas": {"version": "9.4", "connect_licensed": False, "spds": None},
        "storage": storage,
        "workload": {"concurrent_sessions": sessions, "mix": {"etl": 0.5, "summary": 0.5},
                     "largest_table_gb": 50, "total_data_gb": 5000, "growth_gb_per_week": 1},
    }  # fmt: skip
    doc.update(kw)
    return doc


def _disk(
    fs: str = "xfs", mount: str = "/saswork", role: str = "work", **kw: Any
) -> dict[str, Any]:
    return {"name": mount.strip("/"), "mount": mount, "role": role, "raid": "0", "disks": 4,
            "size_gb": 2000, "media": "ssd", "filesystem": fs, **kw}  # fmt: skip


def _current(**options: str) -> dict[str, Any]:
    return {"sas_options": options, "source": "manual"}


def _recs(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["setting"]: r for r in result["recommendations"]}


def _warnings(result: dict[str, Any], rule_id: str) -> list[dict[str, Any]]:
    return [w for w in result["warnings"] if w["rule"] == rule_id]


def s5() -> dict[str, Any]:
    server = _server(os_version="22.04", distribution="ubuntu", cpus=2, ram_gb=16,
                     virtual="vmware")  # fmt: skip
    return _doc(server, 30, [_disk("ext4")], current=_current(MEMSIZE="2G"))


def s8(**current: str) -> dict[str, Any]:
    server = _server(os="solaris", os_version="11.4", cpus=64, cores=8, smt_threads=8,
                     ram_gb=512, zfs_arc_max_gb=400)  # fmt: skip
    storage = [_disk("zfs"), _disk("zfs", "/sasdata", "data")]
    return _doc(server, 20, storage, current=_current(**current) if current else None)


def test_memsize_never_lowered_below_current_on_memory_pressure() -> None:
    """S5: 2G (SAS's shipped value) was cut to 512M; it is kept, and the high over-commit
    warning says to cut sessions or add RAM (sas-memsize-defaults: too low a MEMSIZE makes
    jobs fail)."""
    result = rules.advise(s5())
    recs = _recs(result)
    assert recs["MEMSIZE"]["value"] == "2G"
    assert "kept" in recs["MEMSIZE"]["rationale"]
    assert "insufficient memory" in recs["MEMSIZE"]["rationale"]
    assert "sas-memsize-defaults" in recs["MEMSIZE"]["sources"]
    assert recs["SORTSIZE"]["value"] == "1G"  # SAS 9.4's shipped SORTSIZE, never below
    (warning,) = _warnings(result, "memory.memsize")
    assert warning["severity"] == "high"
    assert "cut peak sessions to 4" in warning["action"]
    assert "30 sessions × MEMSIZE 2G" in warning["message"]


def test_memsize_unknown_never_below_sas_shipped_default() -> None:
    """No current value: SAS 9.4 ships -MEMSIZE 2G (Windows documentation; on UNIX the
    installed sasv9.cfg, sas94-unix-shipped, unconfirmed); 9.3 and older keep 512M."""
    doc = s5()
    doc["current"] = None
    recs = _recs(rules.advise(doc))
    assert recs["MEMSIZE"]["value"] == "2G"
    assert "unconfirmed" in recs["MEMSIZE"]["rationale"]
    assert not SOURCES["sas94-unix-shipped"].confirmed
    doc["sas"]["version"] = "9.3"
    assert _recs(rules.advise(doc))["MEMSIZE"]["value"] == "512M"


def test_zfs_arc_counted_once_in_the_memory_budget() -> None:
    """S8: the recorded ARC bound (400 GB) comes off the RAM and no half is kept for a file
    cache besides; today's 20 × 16G = 320 GB plus the ARC's 400 GB is over 512 GB and is
    warned; zfs.arc sizes user_reserve_hint_pct from the same 320 GB (oracle-zfs-arc)."""
    result = rules.advise(s8(MEMSIZE="16G", SORTSIZE="8G"))
    recs = _recs(result)
    assert recs["MEMSIZE"]["value"] == "16G"
    assert recs["SORTSIZE"]["value"] == "8G"
    assert "ZFS ARC bound 400 GB" in recs["MEMSIZE"]["rationale"]
    assert "× 0.5" not in recs["MEMSIZE"]["rationale"]
    (warning,) = _warnings(result, "memory.memsize")
    assert "ZFS ARC bound 400 GB + 20 sessions × MEMSIZE 16G = 320 GB" in warning["message"]
    assert "oracle-zfs-arc" in warning["sources"]
    arc = recs["ZFS ARC bound"]
    assert arc["value"] == "user_reserve_hint_pct=63"  # ceil(320 / 512 × 100)
    assert "MEMSIZE 16 GB = 320 GB" in arc["rationale"]
    assert "more than the RAM" in arc["rationale"]


def test_zfs_arc_unrecorded_keeps_the_half_for_os_and_arc() -> None:
    """Solaris ZFS without a recorded bound: the half SAS does not get is the OS and the
    ARC that zfs.arc bounds from the same SAS figure (one account, bartucca2005 l.269)."""
    doc = s8()
    doc["server"].pop("zfs_arc_max_gb")
    recs = _recs(rules.advise(doc))
    assert "OS and ZFS ARC (bounded by zfs.arc)" in recs["MEMSIZE"]["rationale"]
    assert recs["MEMSIZE"]["value"] == "8G"
    assert recs["ZFS ARC bound"]["value"] == "user_reserve_hint_pct=32"


def test_ram_per_physical_core_below_sas_minimum_warns() -> None:
    """SAS KB0039548 rhel_iotest.sh warns below 8 GB of RAM per physical core (SAS's
    minimum); vCPU are threads, two to a core (azure-sas-guide)."""
    doc = _doc(_server(cpus=32, cores=16, ram_gb=64), 4, [_disk()])
    (warning,) = _warnings(rules.advise(doc), "memory.ram_per_core")
    assert "4.0 GB per physical core" in warning["message"]
    assert "KB0039548" in warning["message"] and "sas-ram-per-core" in warning["sources"]
    vm = _doc(_server(cpus=16, ram_gb=32, virtual="aws"), 4, [_disk()])
    (warning,) = _warnings(rules.advise(vm), "memory.ram_per_core")
    assert "8 cores (16 vCPU" in warning["message"]
    assert not _warnings(rules.advise(_doc(_server(), 4, [_disk()])), "memory.ram_per_core")


def test_sortsize_cap_explained_beside_huge_memsize() -> None:
    """S4: SORTSIZE 4G beside MEMSIZE 512G: SAS allows up to MEMSIZE (sas94-config), the
    1.5 TB sort is external whatever SORTSIZE is, and the papers ran at most 4G (chew l.63)."""
    server = _server(cpus=384, cores=192, smt_threads=2, ram_gb=4096, numa_nodes=8)
    doc = _doc(server, 3, [_disk()])
    doc["workload"]["largest_table_gb"] = 1500
    rec = _recs(rules.advise(doc))["SORTSIZE"]
    assert rec["value"] == "4G"
    assert "up to MEMSIZE" in rec["rationale"] and "1500 GB" in rec["rationale"]
    assert "sas94-config" in rec["sources"]


def test_numa_sessions_spanning_nodes_get_advice() -> None:
    """S4: 512G sessions on 8 nodes of 512 GB: numactl --hardware and kernel.numa_balancing
    (kernel-numa-balancing, rhel-numa), advice only."""
    server = _server(cpus=384, cores=192, smt_threads=2, ram_gb=4096, numa_nodes=8)
    rec = _recs(rules.advise(_doc(server, 3, [_disk()])))["NUMA: sessions span nodes"]
    assert rec["kind"] == "advice"
    assert "numactl --hardware" in rec["value"] and "numa_balancing" in rec["rationale"]
    assert "rhel-numa" in rec["sources"]
    one = _server(cpus=384, cores=192, ram_gb=4096, numa_nodes=1)
    assert "NUMA: sessions span nodes" not in _recs(rules.advise(_doc(one, 3, [_disk()])))


def _aix(cpus: int, version: str = "7.3", vmo: dict[str, str] | None = None) -> dict[str, Any]:
    server = _server(os="aix", os_version=version, cpus=cpus, ram_gb=1024)
    current = {"aix_vmo": vmo, "source": "manual"} if vmo else None
    return _doc(server, 20, [_disk("jfs2", devices=["hdisk2"])], current=current)


def test_minfree_maxfree_per_memory_pool_ibm_formula() -> None:
    """S6: IBM 'Values for minfree and maxfree parameters': minfree = max(960, 120 × lcpus /
    mempools), maxfree = minfree + (j2_maxPageReadAhead × lcpus) / mempools."""
    recs = _recs(rules.advise(_aix(256)))
    assert recs["minfree"]["value"] == str(120 * 256)
    assert recs["maxfree"]["value"] == str(120 * 256 + 128 * 256)
    assert "taken as 1" in recs["minfree"]["rationale"]
    pooled = _recs(rules.advise(_aix(256, vmo={"mempools": "4"})))
    assert pooled["minfree"]["value"] == str(120 * 256 // 4)
    assert pooled["maxfree"]["value"] == str(120 * 256 // 4 + 128 * 256 // 4)


def test_aix53_gets_lru_file_repage_as_later_guidance() -> None:
    """S10: AIX 5.3 keeps the paper's maxperm% 60 and strict_maxperm 1 (bartucca2005
    l.279-285) and gets lru_file_repage 0 as IBM's later guidance, with how the two meet."""
    doc = _aix(8, "5.3")
    doc["server"]["ram_gb"] = 32
    doc["workload"]["mix"] = {"etl": 0.8, "summary": 0.2}
    doc["workload"]["largest_table_gb"] = 80
    recs = _recs(rules.advise(doc))
    assert recs["maxperm%"]["value"] == "60" and recs["strict_maxperm"]["value"] == "1"
    lru = recs["lru_file_repage"]
    assert lru["value"] == "0"
    assert "Later guidance, not the paper's" in lru["rationale"]
    assert "strict_maxperm" in lru["rationale"] and "page stealing" in lru["rationale"]
    assert "unconfirmed" in lru["rationale"]
    assert "ibm-aix-lru-file-repage" in lru["sources"]
