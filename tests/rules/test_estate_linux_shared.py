"""Shared and cluster file systems seen from a SAS client: no local-file-system or RAID advice
for storage the host cannot see, NFS client read-ahead, Spectrum Scale client checks.

Sources: SAS Users blog "When to use NFS with SAS" (sas-nfs-work); SGF 484-2013 (SAS Grid
needs a clustered file system); Azure NetApp Files "Linux NFS read-ahead best practices"
(https://learn.microsoft.com/en-us/azure/azure-netapp-files/performance-linux-nfs-read-ahead:
kernels from 5.4 and RHEL 8.3 set an NFS mount's read-ahead to 128 KiB; SAS GRID tests found
15,360 KiB best; /sys/class/bdi/<major:minor>/read_ahead_kb and a udev rule); kernel commit
c128e575 (Linux 5.4, NFS read-ahead to 128 KiB); nfsrahead(5); the Azure SAS architecture
guide (one Spectrum Scale node per 8 cores at 150 MB/s per core).
"""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example


def grid_node(filesystem: str = "gpfs", distribution: str = "rhel") -> dict[str, Any]:
    """A SAS Grid node: data and WORK on a shared file system, RAID recorded from a
    spec sheet (RAID 6 behind the export, which the client cannot see)."""
    doc = example("linux-rhel8-sas94")
    doc["server"].update(distribution=distribution)
    for entry in doc["storage"]:
        entry.update(filesystem=filesystem, raid="6", devices=[])
        entry.pop("san", None)
    return doc


def test_xfs_advised_on_gpfs_and_nfs_mounts() -> None:
    """The audit's GPFS and NFS mounts were told "xfs advised": a shared file system's type
    is its server's or cluster's choice, so no local type is advised for it."""
    for fs in ("gpfs", "nfs"):
        result = rules.advise(grid_node(fs))
        check = next(r for r in result["recommendations"] if r["rule"] == "linux.mount_checks")
        assert "xfs advised" not in check["extra"]["expect"]
        assert f"/saswork {fs}" in check["extra"]["expect"]
        assert not [w for w in result["warnings"] if w["rule"] == "linux.filesystems"
                    and "XFS" in w["message"]]  # fmt: skip


def test_xfs_still_advised_for_the_local_mounts_beside_a_shared_one() -> None:
    doc = grid_node("nfs")
    doc["storage"][0].update(filesystem="ext4", raid="0")
    result = rules.advise(doc)
    check = next(r for r in result["recommendations"] if r["rule"] == "linux.mount_checks")
    assert "xfs advised for the local /saswork" in check["extra"]["expect"]
    assert "/sasdata nfs" in check["extra"]["expect"]


def test_raid6_parity_warning_on_an_nfs_export() -> None:
    """The audit's NFS WORK was warned of RAID 6 parity writes the host cannot see: a shared
    file system gets no RAID advice from the client, and the advice says what to ask the
    storage admin instead."""
    result = rules.advise(grid_node("nfs", "ol"))
    assert not [w for w in result["warnings"] if w["rule"] == "work.raid5"]
    (ask,) = [r for r in result["recommendations"] if r["rule"] == "linux.shared_storage"]
    assert "/saswork (nfs, recorded as RAID 6" in ask["rationale"]
    assert "gives no RAID, stripe or parity advice" in ask["rationale"]
    assert "Ask the storage admin" in ask["rationale"]
    local = example("linux-rhel8-sas94")
    local["storage"][0].update(raid="6", media="hdd")
    assert [w for w in rules.advise(local)["warnings"] if w["rule"] == "work.raid5"]


def test_nothing_for_nfs_client_read_ahead() -> None:
    """Kernels from 5.4 (commit c128e575) and RHEL 8.3 give an NFS mount 128 KiB of
    read-ahead; SAS GRID tests found 15,360 KiB best (Azure NetApp Files, Linux NFS
    read-ahead). The script sets it through the mount's bdi and keeps it with a udev rule."""
    rhel = rules.advise(grid_node("nfs", "rhel"))
    (rec,) = [r for r in rhel["recommendations"] if r["setting"] == "read_ahead_kb:nfs"]
    assert rec["value"] == ">15360" and rec["target"] == "linux_tuning.sh"  # raise only
    assert rec["extra"]["directories"] == "/saswork /sasdata"
    assert "RHEL 8.3 and later" in rec["rationale"]
    assert {"anf-nfs-readahead", "kernel-nfs-readahead", "nfsrahead"} <= set(rec["sources"])
    script = rhel["artifacts"]["linux_tuning.sh"]
    assert "  mount_item '/sasdata' '15360' 'at-least' 'nfs'" in script.splitlines()
    assert "/proc/fs/nfsfs/volumes" in script
    assert "[disk" not in rhel["artifacts"]["tuned.conf"]  # no readahead on the export's disks
    ubuntu = rules.advise(grid_node("nfs", "ubuntu"))
    (rec,) = [r for r in ubuntu["recommendations"] if r["setting"] == "read_ahead_kb:nfs"]
    assert "Linux 5.4 and later" in rec["rationale"] and "RHEL" not in rec["rationale"]
    options = [r for r in rhel["recommendations"] if r["setting"] == "check:nfs mount options"]
    assert "No value is advised for rsize, wsize or nconnect" in options[0]["rationale"]


def test_spectrum_scale_client_settings() -> None:
    """One Spectrum Scale node per 8 cores at 150 MB/s per core (Azure SAS guide); pagepool
    and block size are read with mmlsconfig and mmlsfs, no value advised (unconfirmed)."""
    result = rules.advise(grid_node("gpfs"))
    recs = {r["setting"]: r for r in result["recommendations"] if r["rule"] == "linux.gpfs"}
    # 16 cores in use × 100 MB/s, the band's lower end, as throughput.estimate states it
    assert recs["gpfs: cluster throughput"]["value"] == "1600 MB/s"
    assert "2 node(s)" in recs["gpfs: cluster throughput"]["rationale"]
    assert recs["check:mmlsconfig pagepool"]["extra"]["argv"].endswith("mmlsconfig pagepool")
    assert "unconfirmed" in recs["check:mmlsfs -B"]["rationale"]
    assert "azure-sas-guide" in recs["gpfs: cluster throughput"]["sources"]
    script = result["artifacts"]["linux_tuning.sh"]
    assert "/usr/lpp/mmfs/bin/mmlsfs all -B" in script
