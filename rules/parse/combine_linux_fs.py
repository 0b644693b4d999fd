"""Which file systems a Linux server has, from whichever output tells it.

A mount table (findmnt, /proc/mounts, `mount`) is read first: the fullest one when the
paste holds several (a `mount | grep` beside the whole `mount`), the others named in a
note. Without one, `df` gives the mounted devices (with their type under `df -T`), and
without df, lsblk's MOUNTPOINT column does. A device mounted at several places (a bind
mount, btrfs subvolumes, findmnt's `dev[/subdir]`) is one file system: one storage entry,
at its shortest mount point, the others named in a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.kinds import MOUNT
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import printable, refused_mount

MOUNT_TABLES = ("findmnt", "proc_mounts", "mount")
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
        if row.filesystem.startswith("/dev/") and not loop:
            rows.append(FsRow(row.mount, row.filesystem, row.fstype, size, found))
    return rows


def from_lsblk(parsed: Parsed) -> list[FsRow]:
    rows = []
    for found in parsed.all("lsblk"):
        for dev in found.value:
            if dev.mountpoint and dev.mountpoint.startswith("/"):
                path = dev.path or device_path(dev.name, dev.type)
                rows.append(FsRow(dev.mountpoint, path, dev.fstype, dev.size_bytes, found))
    return rows


def device_path(name: str, kind: str | None) -> str:
    """lsblk names a logical volume by its device-mapper name: centos-root."""
    return f"/dev/mapper/{name}" if kind in ("lvm", "crypt", "mpath", "dm") else f"/dev/{name}"


def file_systems(parsed: Parsed, b: Builder) -> list[FsRow]:
    """The file systems on block devices, one a device, at its shortest mount point."""
    rows = mount_table(parsed, b)
    if rows is None:
        rows = from_df(parsed) or from_lsblk(parsed)
        if rows:
            command = rows[0].found.section.command
            b.notes.append(f"no mount table read: file systems from `{printable(command)}`")
    on_disk = [
        r for r in rows if r.source.startswith("/dev/") and (r.fstype or "").lower() not in PSEUDO
    ]
    by_source: dict[str, list[FsRow]] = {}
    for row in sorted(on_disk, key=lambda r: (len(r.target), r.target)):
        by_source.setdefault(row.source, []).append(row)
    kept = [_one_entry(source, same, b) for source, same in by_source.items()]
    order = {id(r): i for i, r in enumerate(on_disk)}
    return sorted(kept, key=lambda r: order[id(r)])


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
