"""Throughput on the estates SAS runs on now: provider caps, a cluster's measured total,
shared file systems, wording by media, Windows measurement, device rules on NFS, NFS
read-ahead that only raises.

Sources: SAS's 100–150 MB/s per core in use (sas-io-throughput: Crevar et al.; SAS
Communities "Contemplating I/O for SAS"); the Azure SAS guide (azure-sas-guide,
https://learn.microsoft.com/en-us/azure/architecture/guide/sas/sas-overview: 150 MB/s per
physical core, one Spectrum Scale node per 8 cores); bartucca2005 Listing 2 and l.244 (dd);
the SAS 9.4 Companion for Windows, Sasiotest utility (sas-win-iotest,
http://support.sas.com/documentation/cdl/en/hostwin/69955/HTML/default/n0wn9kvgb1zjzln1ny9mghen66n7.htm);
Microsoft's DiskSpd (ms-diskspd,
https://learn.microsoft.com/en-us/azure-stack/hci/manage/diskspd-overview); Azure NetApp
Files "Linux NFS read-ahead best practices" (anf-nfs-readahead: 15,360 KiB, set through
/sys/class/bdi/MAJOR:MINOR/read_ahead_kb and a udev rule).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rules
from tests.conftest import example
from tests.rules.conftest import recs


def _warnings(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [w for w in result["warnings"] if w["rule"] == "throughput.estimate"]


def _target(result: dict[str, Any]) -> str:
    return str(recs(result, "throughput.estimate")["I/O throughput target"]["rationale"])


def aws_capped(cap: float) -> dict[str, Any]:
    """The audit's S1: r6id.8xlarge, 16 cores, WORK on instance NVMe, data on an EBS gp3
    volume (a SAN LUN to the host) capped by AWS."""
    doc = example("aws-i4i-rhel9-sas94m8")
    doc["storage"][2]["throughput_cap_mb_s"] = cap
    return doc


def test_throughput_cap_is_ignored() -> None:
    """S1: a 200 MB/s cap (and a 1,000 MB/s one) under a 1,600 MB/s need gave no warning.
    The cap bounds the file system's rate, min(estimate or measured, cap)."""
    for cap, share in ((200, "12%"), (1000, "62%")):
        result = rules.advise(aws_capped(cap))
        (short,) = [w for w in _warnings(result) if "for data" in w["message"]]
        assert f"at most its cap {cap} MB/s (its Throughput cap)" in short["message"]
        assert (
            f"= at most {cap} MB/s for data vs 16 cores × 100 MB/s = 1600 MB/s"
            in (short["message"])
        )
        assert f"({share} of the need)" in short["message"]
        assert "cannot meet the need" in short["message"]
        assert "provisioned throughput" in short["action"]
        assert "min(estimate or measured, cap)" in _target(result)
    # A cap below a measured or estimated rate is the rate; above it, the rate stands.
    doc = aws_capped(500)
    doc["storage"][2].update(san=False, measured_mb_s=900)
    assert "min(sasdata measured 900 MB/s, cap 500 MB/s (its Throughput cap)) = " \
        "at most 500 MB/s for data" in _target(rules.advise(doc))  # fmt: skip
    doc["storage"][2].update(throughput_cap_mb_s=4000, measured_mb_s=1700)
    result = rules.advise(doc)
    assert "= 1700 MB/s for data" in _target(result)
    assert not [w for w in _warnings(result) if "for data" in w["message"]]


def grid_node(measured: float) -> dict[str, Any]:
    """The audit's S2 shape: a SAS Grid node whose SASDATA is Spectrum Scale, measured as the
    cluster's total."""
    doc = example("sasgrid-gpfs-rhel8")
    doc["storage"][2]["measured_mb_s"] = measured
    return doc


def test_measured_cluster_total_is_ignored() -> None:
    """S2: the cluster's 6,000 MB/s passed against this node's need. A cluster's total is not
    this node's rate: its share is unknown (the contract gives no node count), so the total
    is never a pass; it is only a bound, and below the need it is a sure shortfall."""
    result = rules.advise(grid_node(6000))
    target = _target(result)
    assert "for the whole gpfs cluster, shared by every node: not this node's rate" in target
    assert "this node's share is unknown" in target
    assert "a bound, not this host's rate, so it is not judged" in target
    assert not [w for w in _warnings(result) if "for data" in w["message"]]
    short = rules.advise(grid_node(2000))
    (warning,) = [w for w in _warnings(short) if "for data" in w["message"]]
    assert "at most 2000 MB/s for data" in warning["message"]
    assert "ask the cluster's admin" in warning["action"]


def test_gpfs_and_throughput_use_one_per_core_figure() -> None:
    """S2: linux.gpfs said this node needs 7,200 MB/s (150 per core) while throughput.estimate
    said 4,800 (100 per core). Both now state the need at the lower end of the 100–150 band
    (sas-io-throughput), per core in use, and gpfs names the Azure guide's 150 as the upper
    end it sizes with."""
    result = rules.advise(grid_node(6000))
    target = recs(result, "throughput.estimate")["I/O throughput target"]
    (gpfs,) = [r for r in result["recommendations"] if r["setting"] == "gpfs: cluster throughput"]
    assert gpfs["value"] == target["value"]
    band = "SAS's 100–150 MB/s per core in use (sas-io-throughput)"
    assert band in gpfs["rationale"] and band in target["rationale"]
    assert "its lower end" in gpfs["rationale"] and "its lower end" in target["rationale"]
    assert "at the upper end, 150 MB/s per physical core" in gpfs["rationale"]
    # Per core in use: three sessions on a big node need less than the node's every core.
    doc = grid_node(6000)
    doc["workload"]["concurrent_sessions"] = 1
    result = rules.advise(doc)
    (gpfs,) = [r for r in result["recommendations"] if r["setting"] == "gpfs: cluster throughput"]
    assert gpfs["value"] == recs(result, "throughput.estimate")["I/O throughput target"]["value"]
    assert gpfs["value"] != "3200 MB/s"  # 32 cores × 100: not every core is in use


def nfs_host() -> dict[str, Any]:
    """The audit's S3: WORK and data on NFS exports recorded as RAID 6 of 24 SSDs."""
    doc = example("linux-rhel8-sas94")
    for entry in doc["storage"]:
        entry.update(filesystem="nfs", shared="nfs", raid="6", disks=24, media="ssd")
        entry.pop("san", None)
        entry.pop("devices", None)
    return doc


def test_shared_filesystem_estimated_from_filer_disks() -> None:
    """S3: "22 SSDs × 200 = 4400 MB/s" from the filer's RAID 6: a shared file system's disks
    are its server's, so nothing is estimated from them; a measurement from this host and
    the network link are asked for instead."""
    result = rules.advise(nfs_host())
    target = _target(result)
    assert "22 SSDs" not in target and "4400" not in target
    assert "WORK: not estimated, saswork is on nfs, a shared file system" in target
    assert "the collector's --measure DIR" in target
    assert "network link's speed" in target
    assert _warnings(result) == []


def test_spindle_wording_on_solid_state() -> None:
    """The warning said "assumes each listed disk is a spindle … 15–20 MB/s (20 used)" on NVMe
    and SSDs, and the rationale printed "sasdata ()" for a SAN LUN with no adapters."""
    result = rules.advise(example("linux-rhel8-sas94"))
    text = _target(result) + " ".join(w["message"] for w in _warnings(result))
    assert "()" not in text
    assert "sasdata are SAN LUNs" in text
    doc = example("linux-rhel8-sas94")
    doc["server"].update(cpus=128, cores=64)
    doc["workload"]["concurrent_sessions"] = 64
    (work,) = [w for w in _warnings(rules.advise(doc)) if "for WORK" in w["message"]]
    assert "2 NVMe devices × 1000 MB/s (assumed)" in work["message"]
    assert (
        "each listed NVMe device gives 1000 MB/s (a conservative project figure"
        in (work["message"])
    )
    assert "spindle" not in work["message"] and "15–20" not in work["message"]
    assert "move to solid state" not in work["action"]
    doc["storage"][0].update(media="hdd", disks=8)
    (work,) = [w for w in _warnings(rules.advise(doc)) if "for WORK" in w["message"]]
    assert "each listed disk is a spindle the host drives directly, 20 MB/s" in work["message"]
    assert "15–20 MB/s of SAS mixed I/O per spindle (20 used)" in work["message"]


def test_windows_measure_with_dd() -> None:
    """S7: "dd 1 GB with bs=1024k to and from D:\\saswork" on Windows, which has no dd: SAS's
    sasiotest.exe or Microsoft's DiskSpd instead, each cited. RAID 10 of 4 SSDs counts 2 ×
    200 MB/s: no source gives a per-SSD figure for SAS, so it is called conservative."""
    doc = example("windows2022-refs-sas94m8")
    doc["storage"][0].update(raid="10", disks=4, media="ssd")
    (work,) = [w for w in _warnings(rules.advise(doc)) if "for WORK" in w["message"]]
    assert "2 SSDs × 200 MB/s (assumed)" in work["message"]
    assert "a conservative project figure" in work["message"]
    assert "dd 1 GB" not in work["action"] and "bs=1024k" not in work["action"]
    assert "sasiotest" in work["action"] and "diskspd -c8G" in work["action"]
    assert {"sas-win-iotest", "ms-diskspd"} <= set(work["sources"])
    for source_id in ("sas-win-iotest", "ms-diskspd"):
        assert source_id in rules.sources.SOURCES


def test_scheduler_skipped_on_nfs() -> None:
    """S3: linux.scheduler was listed as skipped for lack of storage[0].devices on an NFS
    mount. A device rule does not apply where every SAS entry is a shared file system: it is
    recorded as not applicable, like the other rules that do not apply."""
    result = rules.advise(nfs_host())
    assert not [s for s in result["skipped"] if s["rule"].startswith("linux.")]
    reasons = {n["rule"]: n["reason"] for n in result["not_applicable"]}
    for rule_id in ("linux.scheduler", "linux.readahead"):
        assert "every SAS storage entry is on a shared file system (nfs)" in reasons[rule_id]
    # A local entry without devices beside the NFS one is still skipped, by its own path.
    doc = nfs_host()
    doc["storage"][1].update(filesystem="xfs", shared="none")
    skipped = [s for s in rules.advise(doc)["skipped"] if s["rule"] == "linux.scheduler"]
    assert [s["field"] for s in skipped] == ["storage[1].devices"]


UDEV_AWK = "/usr/bin/awk"


@pytest.mark.skipif(not shutil.which("awk"), reason="awk is needed to run the udev program")
def test_nfs_readahead_lowers_larger_value(tmp_path: Path) -> None:
    """NFS read-ahead used mode `set`, which lowers a larger value already there; it is now
    '>' (raise only), as linux.readahead, and the udev rule that keeps it at boot leaves a
    mount already at 15,360 KiB or more (anf-nfs-readahead)."""
    result = rules.advise(nfs_host())
    (rec,) = [r for r in result["recommendations"] if r["setting"] == "read_ahead_kb:nfs"]
    assert rec["value"] == ">15360"
    script = result["artifacts"]["linux_tuning.sh"]
    assert "mount_item '/saswork' '15360' 'at-least' 'nfs'" in script
    assert '"mode": "at-least", "kind": "nfs"' in result["artifacts"]["ansible_linux.yml"]
    # Run the udev rule's program as udev would, $kernel substituted, on a fake bdi.
    lib = Path(rules.__file__).parent / "render" / "linux_tuning_lib.sh"
    line = next(x for x in lib.read_text().splitlines() if 'PROGRAM="' in x)
    program = line.split('PROGRAM="', 1)[1].split('", ATTR', 1)[0]
    volumes = tmp_path / "volumes"
    volumes.write_text("NV SERVER   PORT DEV          FSID\nv4 0a000001  801 0:52  0:0\n")
    for current, applies in (("128", True), ("15360", False), ("32768", False)):
        bdi = tmp_path / "read_ahead_kb"
        bdi.write_text(current + "\n")
        argv = (
            program.replace("'\"'\"'", "'").replace("'\"$2\"'", "15360")
            .replace("$kernel", "0:52").replace("/sys/class/bdi/0:52/read_ahead_kb", str(bdi))
            .replace("/proc/fs/nfsfs/volumes", str(volumes))
        )  # fmt: skip
        done = subprocess.run(["sh", "-c", argv], capture_output=True, timeout=30)
        assert (done.returncode == 0) is applies, (current, argv, done.stderr)
