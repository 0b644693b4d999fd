"""Which file systems a Linux server has, from whichever output tells it.

A mount table (findmnt, /proc/mounts, `mount`) is read first: the fullest one when the
paste holds several (a `mount | grep` beside the whole `mount`), the others named in a
note. Without one, `df` gives the mounted devices (with their type under `df -T`), and
without df, lsblk's MOUNTPOINT(S) column does; where every df pasted was asked about a
few file systems only (`df -h /sasdata`), lsblk adds the others. A device mounted at
several places (a bind mount, btrfs subvolumes, findmnt's `dev[/subdir]`) is one file
system: one storage entry, at its shortest mount point, the others named in a note. An NFS
export (`server:/path`, type nfs/nfs4) and GPFS are file systems too, with no local disk
below them; another network file system (cifs, glusterfs …) is left out with a note.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.kinds import MOUNT
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import printable, refused_mount
from rules.parse.duplicates import filtered

MOUNT_TABLES = ("findmnt", "proc_mounts", "mount")
NFS_TYPES = frozenset(("nfs", "nfs3", "nfs4"))
# Network file systems the contract has no name for: left out, each named in a note.
OTHER_NETWORK = frozenset((
    "cifs", "smb3", "smbfs", "glusterfs", "fuse.glusterfs", "lustre", "ceph", "fuse.sshfs",
    "beegfs", "9p", "fuse.s3fs", "afs",
))  # fmt: skip
# An NFS export as df and mount name it: server:/path ([v6 address]:/path).
_NFS_SOURCE = re.compile(r"(?:\[[0-9A-Fa-f:.]{2,45}\]|[^\s/:\[\]]{1,255}):/\S*")
# Types that are never a disk's file system, whatever their source says.
PSEUDO = frozenset((
    "tmpfs", "devtmpfs", "squashfs", "proc", "sysfs", "devpts", "cgroup", "cgroup2", "autofs",
    "overlay", "swap", "nsfs", "fusectl", "debugfs", "tracefs", "securityfs", "configfs",
))  # fmt: skip


@dataclass(frozen=True)
class FsRow:
    target: str
    source: str  # /dev/mapper/vg-lv, without findmnt's [/subdir]
    fstype: str | None  # None where the output does not say (df without -T, lsblk -o)
    size_bytes: int | None
    found: Found

    @property
    def shared(self) -> str | None:
        """'nfs' for an NFS export, 'gpfs' for a GPFS file system: no local disk below it."""
        kind = (self.fstype or "").lower()
        if kind in NFS_TYPES or (not kind and _NFS_SOURCE.fullmatch(self.source)):
            return "nfs"
        return "gpfs" if kind == "gpfs" else None


def _rows(found: Found) -> int:
    return len(found.value)


def mount_table(parsed: Parsed, b: Builder) -> list[FsRow] | None:
    tables = [f for name in MOUNT_TABLES for f in parsed.all(name)]
    if not tables:
        return None
    best = max(tables, key=_rows)  # the first of the fullest, in MOUNT_TABLES order
    for other in tables:
        if other is not best:
            b.notes.append(
                f"line {other.section.line}: `{printable(other.section.command)}` not used for "
                f"file systems: `{printable(best.section.command)}` lists {_rows(best)} mounts, "
                f"it {_rows(other)}"
            )
    return [
        FsRow(r.target, r.source.split("[", 1)[0], r.fstype, r.size_bytes, best) for r in best.value
    ]


DfTable = dict[str, tuple[Any, Found]]


def df_table(parsed: Parsed) -> DfTable:
    """Every df row by mount point, the fullest df first (a filtered one adds nothing)."""
    out: dict[str, tuple[Any, Found]] = {}
    for found in sorted(parsed.all("df"), key=_rows, reverse=True):
        for row in found.value:
            out.setdefault(row.mount, (row, found))
    return out


def from_df(parsed: Parsed) -> list[FsRow]:
    rows = []
    for row, found in df_table(parsed).values():
        loop = row.filesystem.startswith("/dev/loop") and row.fstype is None  # snaps
        size = None if row.size_kb is None else row.size_kb * 1024
        fs = FsRow(row.mount, row.filesystem, row.fstype, size, found)
        if (row.filesystem.startswith("/dev/") and not loop) or fs.shared:
            rows.append(fs)
    return rows


def from_lsblk(parsed: Parsed) -> list[FsRow]:
    rows = []
    for found in parsed.all("lsblk"):
        for dev in found.value:
            if dev.type == "loop" and dev.fstype is None:
                continue  # a snap or a live ISO's image, as df's /dev/loop rows
            path = dev.path or device_path(dev.name, dev.type)
            for target in dev.mountpoints:  # MOUNTPOINTS: one line each (btrfs subvolumes)
                if target.startswith("/"):
                    rows.append(FsRow(target, path, dev.fstype, dev.size_bytes, found))
    return rows


def device_path(name: str, kind: str | None) -> str:
    """lsblk names a logical volume by its device-mapper name: centos-root."""
    return f"/dev/mapper/{name}" if kind in ("lvm", "crypt", "mpath", "dm") else f"/dev/{name}"


def file_systems(parsed: Parsed, b: Builder) -> list[FsRow]:
    """The file systems on block devices, one a device, at its shortest mount point."""
    rows = mount_table(parsed, b)
    if rows is None:
        rows = _without_mount_table(parsed, b)
    on_disk = [r for r in rows if _on_storage(r, b)]
    by_source: dict[str, list[FsRow]] = {}
    for row in sorted(on_disk, key=lambda r: len(r.target)):  # the first read of a length
        same = by_source.setdefault(row.source, [])
        if all(r.target != row.target for r in same):  # lsblk lists md126p1 under each disk
            same.append(row)
    kept = [_one_entry(source, same, b) for source, same in by_source.items()]
    order = {id(r): i for i, r in enumerate(on_disk)}
    return sorted(kept, key=lambda r: order[id(r)])


def _without_mount_table(parsed: Parsed, b: Builder) -> list[FsRow]:
    """df's file systems, else lsblk's mount points; both where every df pasted names
    only some file systems (`df -h /sasdata`): lsblk adds those df does not name."""
    df, blk = from_df(parsed), from_lsblk(parsed)
    rows = df or blk
    if not rows:
        return rows
    if df and blk and not any(not filtered(f.section) for f in parsed.all("df")):
        named = {r.target for r in df}
        rows = df + [r for r in blk if r.target not in named]
        command = (
            f"{_commands(df)} and `{printable(blk[0].found.section.command)}`'s mount points "
            "(df was asked about some file systems only)"
        )
    else:
        command = _commands(rows)
    b.notes.append(f"no mount table read: file systems from {command}")
    return rows


def _commands(rows: list[FsRow]) -> str:
    """`df -h /data`, `df -h /sas` — each command the rows were read from, once."""
    seen = dict.fromkeys(f"`{printable(r.found.section.command)}`" for r in rows)
    return ", ".join(list(seen)[:3]) + (", …" if len(seen) > 3 else "")


def _on_storage(row: FsRow, b: Builder) -> bool:
    """A disk's file system, an NFS export or GPFS; another network file system is left
    out with a note (the contract has no name for it), a pseudo file system silently."""
    kind = (row.fstype or "").lower()
    if kind in OTHER_NETWORK:
        b.notes.append(
            f"left out {printable(row.target)} ({printable(kind)} from "
            f"{printable(row.source)}): a network file system the inventory has no type for"
        )
        return False
    return kind not in PSEUDO and (row.source.startswith("/dev/") or row.shared is not None)


def _one_entry(source: str, same: list[FsRow], b: Builder) -> FsRow:
    """The mount point a device's one storage entry takes: its shortest the contract
    accepts (btrfs subvolumes at /@data beside /recive are /recive's file system), the
    others named in a note; the shortest of all where the contract accepts none."""
    first = next((r for r in same if MOUNT.accepts(r.target)), same[0])
    others = [r for r in same if r is not first]
    refused = [r for r in others if not MOUNT.accepts(r.target)]
    if MOUNT.accepts(first.target):
        for row in refused:
            b.notes.append(
                f"left out {printable(row.target)!r}: {refused_mount(row.target)}; it is "
                f"{printable(source)}, the file system of the entry at {printable(first.target)}"
            )
        others = [r for r in others if r not in refused]
    if others:
        also = ", ".join(printable(r.target) for r in others[:3])
        also += ", …" if len(others) > 3 else ""
        b.notes.append(
            f"{printable(source)} is mounted at {printable(first.target)} and also at "
            f"{also}: one file system (bind mounts or btrfs subvolumes), one storage entry"
        )
    return first
