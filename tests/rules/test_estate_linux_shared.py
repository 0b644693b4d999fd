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
