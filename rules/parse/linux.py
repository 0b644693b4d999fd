"""Parsers of Linux command output, and (through rules.parse.unix) of the commands whose
output differs per Unix. Importing this module registers them all; the values' types
are re-exported here for the combiner.
"""

from __future__ import annotations

from rules.parse.linux_lvm import LogicalVolume, MdArray, lvs, mdstat
from rules.parse.linux_storage import BlockDevice, findmnt, lsblk, proc_mounts
from rules.parse.linux_system import (
    Lscpu,
    MemInfo,
    OsRelease,
    RedhatRelease,
    lscpu,
    meminfo,
    nproc,
    os_release,
    redhat_release,
)
from rules.parse.linux_tuning import Thp, TunedActive, block_queue, sysctl, thp, tuned_active
from rules.parse.unix import DfRow, Hostname, Mount, Uname, df, hostname, mount, uname

__all__ = [
    "BlockDevice",
    "DfRow",
    "Hostname",
    "LogicalVolume",
    "Lscpu",
    "MdArray",
    "MemInfo",
    "Mount",
    "OsRelease",
    "RedhatRelease",
    "Thp",
    "TunedActive",
    "Uname",
    "block_queue",
    "df",
    "findmnt",
    "hostname",
    "lsblk",
    "lscpu",
    "lvs",
    "mdstat",
    "meminfo",
    "mount",
    "nproc",
    "os_release",
    "proc_mounts",
    "redhat_release",
    "sysctl",
    "thp",
    "tuned_active",
    "uname",
]
