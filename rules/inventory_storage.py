"""A storage entry of the inventory contract (v1): `storage[]`, declared once.

Declared as `rules.inventory` declares the rest of the contract (each field's kind, label
and help in `rules.fields.spec`) and re-exported there; kept apart so each module stays
short. The fields after `measured_mb_s` describe the estates SAS runs on now: shared and
cloud storage, the volume layer and each file system's own settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.fields import Bool, Int, ListOf, Num, internal, spec
from rules.kinds import DEVICE, FS_CHOICE, KB, MEDIA_CHOICE, MOUNT, RAID_CHOICE, ROLE_CHOICE
from rules.kinds_estate import (
    GPFS_BLOCK_KB,
    MB_S,
    MEASURED_TEXT,
    MOUNT_OPTIONS,
    NCONNECT,
    NFS_IO_KB,
    READ_AHEAD_KB,
    SHARED_AS_FILESYSTEM,
    SHARED_CHOICE,
    STREAMS,
    VOLUME,
    VOLUME_KIND_CHOICE,
    ZFS_RECORDSIZE_KB,
)

Role = Literal[
    "data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other"
]
Raid = Literal["0", "1", "5", "6", "10", "jbod"]
Media = Literal["hdd", "ssd", "nvme", "ram"]
Filesystem = Literal[
    "jfs2",
    "jfs",
    "xfs",
    "ext4",
    "zfs",
    "ufs",
    "vxfs",
    "gpfs",
    "ntfs",
    "refs",
    "nfs",
    "other",
]
Shared = Literal["none", "nfs", "gpfs", "lustre", "cifs", "other"]
VolumeKind = Literal["md", "lvm", "dm", "vxvm", "other"]


@dataclass(frozen=True, kw_only=True)
class Storage:
    name: str = spec(DEVICE, label="Name", example="raid0lv01", help="LV, LUN or file system")
    mount: str = spec(
        MOUNT, label="Mount point", example="/saswork",
        help="absolute path without empty, '.' or '..' components; unique across storage",
    )  # fmt: skip
    role: Role = spec(ROLE_CHOICE, label="Role")
    raid: Raid = spec(RAID_CHOICE, label="RAID")
    disks: int = spec(Int(1, 100000), label="Disks", help="physical spindles or SSDs behind it")
    stripe_kb: int | None = spec(
        KB, default=None, nullable=True, label="Stripe (KB)",
        help="stripe unit: a multiple of 4 KB up to 128 MB (a power of two on most "
        "controllers and LVMs; md RAID 0 chunks and array full stripes may be any)",
    )  # fmt: skip
    max_transfer_kb: int | None = spec(
        KB, default=None, nullable=True, label="Max transfer (KB)",
        help="largest single transfer the device takes (AIX: lsattr -El hdiskN -a "
        "max_transfer, 0x40000 = 256)",
    )  # fmt: skip
    size_gb: float = spec(Num(0, 1e9, exclusive_lo=True), label="Size (GB)")
    media: Media = spec(MEDIA_CHOICE, label="Media")
    filesystem: Filesystem = spec(
        FS_CHOICE, label="File system", help="one the server's OS mounts; NFS and other on any"
    )
    adapters: tuple[str, ...] = spec(
        ListOf(DEVICE, 64, "must be a list of at most 64 adapter names"),
        default=(), nullable=True, label="Adapters", example=["fscsi0", "fscsi1"],
    )  # fmt: skip
    devices: tuple[str, ...] = spec(
        ListOf(DEVICE, 1024, "must be a list of at most 1024 device names"),
        default=(), nullable=True, label="Devices", example=["hdisk4", "hdisk5"],
        help="the disks or LUNs behind it (AIX: lslv -l; Linux: lsblk)",
    )  # fmt: skip
    san: bool | None = spec(
        Bool(), default=None, nullable=True, label="SAN LUN",
        help="on array LUNs (Fibre Channel, multipath): their spindles are out of sight",
    )  # fmt: skip
    measured_mb_s: float | None = spec(
        Num(0, 1e7, exclusive_lo=True), default=None, nullable=True,
        label="Measured MB/s",
        help="sequential 1 MiB-block rate measured on it, the lower of write and read",
    )  # fmt: skip
    # Added to contract v1 later: echoed only when set (echo_default=False).
    volume: str | None = spec(
        VOLUME, default=None, nullable=True, echo_default=False, label="Volume",
        example="vg_sas/lv_work",
        help="the md, LVM or device-mapper volume between the mount and its devices "
        "(lsblk; findmnt)",
    )  # fmt: skip
    volume_kind: VolumeKind | None = spec(
        VOLUME_KIND_CHOICE, default=None, nullable=True, echo_default=False,
        label="Volume kind", help="md (mdadm RAID), lvm, dm (multipath, dm-crypt) or vxvm",
    )  # fmt: skip
    shared: Shared | None = spec(
        SHARED_CHOICE, default=None, nullable=True, echo_default=False,
        label="Shared file system",
        help="none for a local disk, LUN or array; else the network or cluster file system "
        "it is served by: nfs, gpfs (IBM Storage Scale), lustre, cifs (SMB)",
    )  # fmt: skip
    mount_options: str | None = spec(
        MOUNT_OPTIONS, default=None, nullable=True, echo_default=False,
        label="Mount options", example="rw,hard,rsize=1048576,wsize=1048576,nconnect=8",
        help="as findmnt or /proc/mounts lists them",
    )  # fmt: skip
    measured_is_cluster_total: bool | None = spec(
        Bool(), default=None, nullable=True, echo_default=False,
        label="Measured MB/s is the cluster's",
        help="the measured rate is the whole cluster's, shared by every node, not this server's",
    )  # fmt: skip
    ephemeral: bool | None = spec(
        Bool(), default=None, nullable=True, echo_default=False,
        label="Instance storage (wiped)",
        help="cloud instance storage (AWS instance store, Azure temporary disk, GCP local "
        "SSD): emptied when the VM stops or moves",
    )  # fmt: skip
    throughput_cap_mb_s: float | None = spec(
        MB_S, default=None, nullable=True, echo_default=False,
        label="Throughput cap (MB/s)", example=1000,
        help="the most its provider lets the volume deliver (an EBS volume's or Azure "
        "disk's MB/s limit)",
    )  # fmt: skip
    zfs_recordsize_kb: int | None = spec(
        ZFS_RECORDSIZE_KB, default=None, nullable=True, echo_default=False,
        label="ZFS recordsize (KB)", example=128,
        help="the dataset's record size, its I/O size (zfs get recordsize; default 128K)",
    )  # fmt: skip
    gpfs_block_size_kb: int | None = spec(
        GPFS_BLOCK_KB, default=None, nullable=True, echo_default=False,
        label="GPFS block size (KB)", example=1024,
        help="the Storage Scale file system's block size (mmlsfs DEVICE -B)",
    )  # fmt: skip
    nfs_rsize_kb: int | None = spec(
        NFS_IO_KB, default=None, nullable=True, echo_default=False,
        label="NFS rsize (KB)", example=1024, help="rsize in KB (rsize=1048576 is 1024)",
    )  # fmt: skip
    nfs_wsize_kb: int | None = spec(
        NFS_IO_KB, default=None, nullable=True, echo_default=False,
        label="NFS wsize (KB)", example=1024, help="wsize in KB (wsize=1048576 is 1024)",
    )  # fmt: skip
    nfs_read_ahead_kb: int | None = spec(
        READ_AHEAD_KB, default=None, nullable=True, echo_default=False,
        label="NFS read-ahead (KB)", example=15360,
        help="the mount's read-ahead (/sys/class/bdi/MAJOR:MINOR/read_ahead_kb; RHEL 8.3+ "
        "sets 128)",
    )  # fmt: skip
    nfs_nconnect: int | None = spec(
        NCONNECT, default=None, nullable=True, echo_default=False,
        label="NFS connections", example=8,
        help="TCP connections to the NFS server (nconnect=, Linux 5.3+; 1 when not set)",
    )  # fmt: skip
    measured_read_mb_s: float | None = spec(
        MB_S, default=None, nullable=True, echo_default=False,
        label="Measured read MB/s", example=1600,
        help="sequential read rate measured on it, all streams together, decimal MB/s",
    )  # fmt: skip
    measured_write_mb_s: float | None = spec(
        MB_S, default=None, nullable=True, echo_default=False,
        label="Measured write MB/s", example=1200,
        help="sequential write rate measured on it, all streams together, decimal MB/s",
    )  # fmt: skip
    measured_by: str | None = spec(
        MEASURED_TEXT, default=None, nullable=True, echo_default=False,
        label="Measured with", example="rhel_iotest.sh",
        help="the tool that measured it, as it printed its name (dd, fio-3.33, DiskSpd 2.2)",
    )  # fmt: skip
    measured_at: str | None = spec(
        MEASURED_TEXT, default=None, nullable=True, echo_default=False,
        label="Measured at", example="2026-11-27T17:44:12Z",
        help="when it was measured, as the tool printed the date",
    )  # fmt: skip
    measured_streams: int | None = spec(
        STREAMS, default=None, nullable=True, echo_default=False,
        label="Measured streams", example=16,
        help="the parallel streams the measurement ran (one per core in use is SAS's way)",
    )  # fmt: skip
    measured_read_cached: bool | None = spec(
        Bool(), default=None, nullable=True, echo_default=False,
        label="Read may be the page cache",
        help="the read figure may include the page cache (files smaller than the RAM "
        "without direct I/O), so it is not judged as the storage's",
    )  # fmt: skip
    index: int = internal(0)  # the entry's position in inventory.storage

    @property
    def path(self) -> str:
        """This entry's JSON path, for skips and problems: 'storage[3]'."""
        return f"storage[{self.index}]"

    @property
    def striped(self) -> bool:
        """Data spread over several spindles (RAID 0, 5, 6, 10 on two or more disks)."""
        return self.raid in ("0", "5", "6", "10") and self.disks >= 2

    @property
    def shared_kind(self) -> str | None:
        """'nfs', 'gpfs' … where other servers mount this file system too: storage[].shared,
        or, where that is not given, a file system that always is (nfs, gpfs); else None."""
        if self.shared is not None:
            return None if self.shared == "none" else self.shared
        return self.filesystem if self.filesystem in SHARED_AS_FILESYSTEM.values() else None

    @property
    def measured_lower(self) -> float | None:
        """The measured rate the rules judge: measured_mb_s, or where only read and write
        are given, the lower of them; None where nothing was measured. A read that may be
        the page cache's (measured_read_cached) stands for nothing: then only the write
        counts (`_cached_lower`)."""
        if self.measured_read_cached:
            return self._cached_lower()
        if self.measured_mb_s is not None:
            return self.measured_mb_s
        given = [r for r in (self.measured_read_mb_s, self.measured_write_mb_s) if r is not None]
        return min(given) if given else None

    def _cached_lower(self) -> float | None:
        """The write alone, where the read may be the page cache's: measured_write_mb_s
        (measured_mb_s, at most it, where given too), or a measured_mb_s below the read,
        which, as the lower of the two, is the write; else None."""
        write, low, read = self.measured_write_mb_s, self.measured_mb_s, self.measured_read_mb_s
        if write is not None:
            return write if low is None else min(low, write)
        return low if low is not None and read is not None and low < read else None

    @property
    def measured_read_storage(self) -> float | None:
        """The read figure as the storage's: None where it may be the page cache's."""
        return None if self.measured_read_cached else self.measured_read_mb_s

    @property
    def measured_given(self) -> bool:
        """Some rate was measured on it, whether or not the rules can judge it."""
        rates = (self.measured_mb_s, self.measured_read_mb_s, self.measured_write_mb_s)
        return any(r is not None for r in rates)

    @property
    def solid_state(self) -> bool:
        return self.media in ("ssd", "nvme", "ram")
