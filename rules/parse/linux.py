"""Parsers of Linux command output, and (through rules.parse.unix) of the commands whose
output differs per Unix. Importing this module registers them all; the values' types
are re-exported here for the combiner.
"""

from __future__ import annotations

from rules.parse.linux_btrfs import BtrfsShow, BtrfsSubvolumes, btrfs_fi_show, btrfs_subvolume_list
from rules.parse.linux_devices import (
    MultipathMap,
    NvmeNamespace,
    XfsInfo,
    multipath,
    nvme_list,
    xfs_info,
)
from rules.parse.linux_host import Free, Hostnamectl, SuseRelease, free, hostnamectl, suse_release
from rules.parse.linux_lvm import LogicalVolume, MdArray, lvs, mdstat
from rules.parse.linux_raid import MdDetail, mdadm_detail
from rules.parse.linux_storage import BlockDevice, findmnt, lsblk, proc_mounts
from rules.parse.linux_swap import LinuxSwap, linux_swap
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
    "BtrfsShow",
    "BtrfsSubvolumes",
    "DfRow",
    "Free",
    "Hostname",
    "Hostnamectl",
    "LinuxSwap",
    "LogicalVolume",
    "Lscpu",
    "MdArray",
    "MdDetail",
    "MemInfo",
    "Mount",
    "MultipathMap",
    "NvmeNamespace",
    "OsRelease",
    "RedhatRelease",
    "SuseRelease",
    "Thp",
    "TunedActive",
    "Uname",
    "XfsInfo",
    "block_queue",
    "btrfs_fi_show",
    "btrfs_subvolume_list",
    "df",
    "findmnt",
    "free",
    "hostname",
    "hostnamectl",
    "linux_swap",
    "lsblk",
    "lscpu",
    "lvs",
    "mdadm_detail",
    "mdstat",
    "meminfo",
    "mount",
    "multipath",
    "nproc",
    "nvme_list",
    "os_release",
    "proc_mounts",
    "redhat_release",
    "suse_release",
    "sysctl",
    "thp",
    "tuned_active",
    "uname",
    "xfs_info",
]
