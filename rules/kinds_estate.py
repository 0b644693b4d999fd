"""The leaf kinds of the contract's fields for the estates SAS runs on now: shared and
cloud storage, volume managers, file-system settings, virtual servers, the Windows Server
release and the SAS maintenance release. All optional; `rules.inventory` declares them.

Names that may reach a generated script (a volume, mount options) are held to strict
character sets, as `rules.kinds` holds device names.
"""

from __future__ import annotations

from rules.fields import Choice, Int, Num, Pattern, PowerOfTwo

# How other servers reach the same files: "none" is local to this server.
SHARED_CHOICE = Choice(("none", "nfs", "gpfs", "lustre", "cifs", "other"))
# The layer between a mount and its devices: Linux md (mdadm), LVM (Linux LVM2, AIX and
# HP-UX LVM), another device-mapper target (multipath, dm-crypt), Veritas VxVM.
VOLUME_KIND_CHOICE = Choice(("md", "lvm", "dm", "vxvm", "other"))
# What the server runs on: bare metal ("none"), a hypervisor (lpar: IBM PowerVM; ldom:
# Oracle VM Server for SPARC) or a cloud's VM.
VIRTUAL_CHOICE = Choice(
    ("none", "lpar", "ldom", "vmware", "kvm", "hyperv", "xen", "aws", "azure", "gcp", "oci",
     "other")
)  # fmt: skip
# Windows Server's releases that share OS version 10.0 (10.0.14393 is 2016, 10.0.17763
# 2019, 10.0.20348 2022, 10.0.26100 2025); earlier releases have versions of their own.
WINDOWS_RELEASE_CHOICE = Choice(("2016", "2019", "2022", "2025"))
WINDOWS_RELEASE_VERSION = (10, 0)
MAINTENANCE_CHOICE = Choice(tuple(f"M{n}" for n in range(10)))
# The maintenance releases each SAS version had (9.1.3 is itself 9.1 TS1M3; 9.2 ended at
# TS2M3, 9.3 at TS1M2; 9.4 runs to M9).
MAINTENANCE_BY_VERSION: dict[str, tuple[str, ...]] = {
    "9.1.3": ("M3",),
    "9.2": ("M0", "M1", "M2", "M3"),
    "9.3": ("M0", "M1", "M2"),
    "9.4": MAINTENANCE_CHOICE.options,
}

_NAME = r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}"
VOLUME = Pattern(
    rf"{_NAME}(?:/{_NAME})?",
    "must be a volume name such as 'md0' or 'vg_sas/lv_work': 1-64 characters of "
    "[A-Za-z0-9_.-], not starting with '-', at most one '/' between two such names",
)
_OPTION = r"[A-Za-z0-9_][A-Za-z0-9_.:/@+=-]*"
MOUNT_OPTIONS = Pattern(
    rf"{_OPTION}(?:,{_OPTION})*",
    "must be mount options as mount lists them: comma-separated words of "
    "[A-Za-z0-9_.:/@+=-] such as 'rw,hard,rsize=1048576', none starting with '-'",
    max_len=1024,
)
MB_S = Num(0, 1e7, exclusive_lo=True)
# What measured a file system and when, as the tool printed it: "fio-3.33", "DiskSpd 2.2",
# "Tue Jul 27 15:09:05 EDT 2021", "2026-11-27T17:44:12Z".
MEASURED_TEXT = Pattern(
    r"[A-Za-z0-9][A-Za-z0-9 _.:/+,()-]{0,63}",
    "must be 1-64 characters of letters, digits, spaces and _ . : / + , ( ) -, starting "
    "with a letter or digit, as the tool printed it",
)
STREAMS = Int(1, 4096)
GB = Num(0, 65536, exclusive_lo=True)
NUMA_NODES = Int(1, 1024)
# ZFS records run from 512 bytes to 16 MB (1 MB without the large_blocks feature); a
# Storage Scale file system's block from 64 KB to 16 MB (16 KB on older releases).
ZFS_RECORDSIZE_KB = PowerOfTwo(1, 16384)
GPFS_BLOCK_KB = PowerOfTwo(16, 16384)
NFS_IO_KB = Int(1, 16384)  # rsize/wsize: Linux and Solaris clients go to 1 MB
READ_AHEAD_KB = Int(0, 1048576)  # 0 turns read-ahead off
NCONNECT = Int(1, 16)  # Linux 5.3+ takes up to 16 connections per NFS server

# The file system this server mounts for a shared one the contract names as both.
SHARED_AS_FILESYSTEM = {"nfs": "nfs", "gpfs": "gpfs"}
