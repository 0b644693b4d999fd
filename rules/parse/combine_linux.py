"""Linux facts → storage (the server's own facts: `combine_linux_host`).

A storage entry is a file system on a block device (`combine_linux_fs` says which, from a
mount table, df or lsblk); `combine_linux_tree` walks it down to the disks behind it
(lsblk, md, LVM, multipath); /sys/block/*/queue (every device's `cat`) and lsblk's ROTA
give each disk's rotational flag and max_sectors_kb; xfs_info's sunit its stripe where no
RAID layout tells it; the collector's `--measure` its measured rate.
"""

from __future__ import annotations

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_linux_fs import DfTable, FsRow, df_table, file_systems
from rules.parse.combine_linux_host import DISTRIBUTIONS, linux_server
from rules.parse.combine_linux_tree import BlockTree, Queues
from rules.parse.combine_storage import (
    FILESYSTEMS,
    NFS_REASON,
    common_fields,
    measured,
    printable,
    safe_devices,
    storage_name,
    usable_mount,
    within_reach,
)
from rules.parse.wiring import reads

__all__ = ["DISTRIBUTIONS", "linux_server", "linux_storage"]

GIB = 1024**3
MAX_TRANSFER_KB = 1048576  # beyond any block device's max_sectors_kb
# 1 EiB: no disk is so large; df's 8.0E (2^63 bytes) is an NFS server saying "no limit".
NO_SIZE_KB = 1024**5
GPFS_REASON = "a GPFS file system: its disks are NSDs the cluster serves (mmlsdisk shows them)"


@reads(
    "findmnt", "proc_mounts", "mount", "df", "lsblk", "mdstat", "mdadm_detail", "lvs",
    "multipath", "nvme_list", "block_queue", "xfs_info", "btrfs_fi_show", "btrfs_subvolume_list",
)  # fmt: skip
def linux_storage(parsed: Parsed, b: Builder) -> None:
    _subvolumes(parsed, b)
    _degraded_btrfs(parsed, b)
    rows = file_systems(parsed, b)
    if not rows:
        b.notes.append("no findmnt, /proc/mounts, mount, df or lsblk output: no file systems read")
        measured(parsed, b)  # each measurement then says it has no file system to land on
        return
    tree = BlockTree(parsed)
    queue = tree.queue
    kept = within_reach([row for row in rows if usable_mount(row.target, b)], b, _target)
    df = df_table(parsed)  # once: each entry looks its mount point up in it
    for i, row in enumerate(kept):
        _entry(parsed, b, i, row, tree, queue, df)
    measured(parsed, b)


def _subvolumes(parsed: Parsed, b: Builder) -> None:
    """A btrfs subvolume is a directory of its file system, not a storage entry of its own."""
    for found in parsed.all("btrfs_subvolume_list"):
        count = len(found.value.subvolumes)
        b.notes.append(
            f"line {found.section.line}: `{found.section.command}` lists {count} subvolume(s); "
            "a subvolume shares its btrfs file system's storage entry"
        )


def _degraded_btrfs(parsed: Parsed, b: Builder) -> None:
    """A btrfs pool printed with a device missing (a `MISSING` row, or `*** Some devices
    missing`): its file system runs degraded on the devices still there."""
    for found in parsed.all("btrfs_fi_show"):
        for uuid in found.value.missing:
            mine = [d for d in found.value.devices if d.uuid == uuid]
            gone = [f"devid {d.devid}" + ("" if d.path == "MISSING" else f" ({printable(d.path)})")
                    for d in mine if d.missing]  # fmt: skip
            what = (
                ", ".join(gone)
                or "`*** Some devices missing`, "
                + ", ".join(printable(d.path) for d in mine)
                + " still there"
            )
            name = printable(mine[0].label or uuid) if mine else printable(uuid)
            b.notes.append(
                f"line {found.section.line}: btrfs pool {name} is missing a device: {what} "
                f"(`{printable(found.section.command)}`)"
            )


def _target(row: FsRow) -> str:
    return row.target


def _entry(
    parsed: Parsed, b: Builder, i: int, row: FsRow, tree: BlockTree, queue: Queues, df: DfTable
) -> None:
    at, found = f"storage[{i}]", row.found
    b.put(f"{at}.name", storage_name(row.source, i), found, raw=row.source)
    b.put(f"{at}.mount", row.target, found)
    _filesystem(df, b, at, row, tree)
    _size(df, b, at, row, tree)
    common_fields(b, i, role_from=row.target)
    if row.shared is not None:
        why = NFS_REASON if row.shared == "nfs" else GPFS_REASON
        for name, value in (("raid", "jbod"), ("disks", 1), ("media", "hdd")):
            b.guess(f"{at}.{name}", value, why)
        return
    names, told = tree.disks(row.source)
    disks = safe_devices(names, b)
    _devices(b, at, disks, told, tree, queue)
    _layout(parsed, b, at, row, tree)


def _filesystem(df: DfTable, b: Builder, at: str, row: FsRow, tree: BlockTree) -> None:
    fstype, found = row.fstype, row.found
    if not fstype:
        held = df.get(row.target)
        if held is not None and held[0].fstype:
            fstype, found = held[0].fstype, held[1]
    if not fstype:
        node = tree.nodes.get(row.source.rsplit("/", 1)[-1])
        if node is not None and node.fstype and tree.found is not None:
            fstype, found = node.fstype, tree.found
    if not fstype and row.shared == "nfs":
        note = "an NFS export (server:/path)"
        b.put(f"{at}.filesystem", "nfs", found, raw=row.source, note=note)
        return
    if not fstype:
        b.guess(f"{at}.filesystem", "other", _untyped(row.found))
        return
    if row.shared == "nfs":
        b.put(f"{at}.filesystem", "nfs", found, raw=fstype)
        return
    b.put(f"{at}.filesystem", FILESYSTEMS.get(fstype.lower(), "other"), found, raw=fstype)


def _untyped(found: Found) -> str:
    """Why a file system's type is unknown, naming what was read instead."""
    command = found.section.command
    program = found.section.argv[0].rsplit("/", 1)[-1] if found.section.argv else ""
    asks = {"df": "df -T", "lsblk": "lsblk -f"}.get(program, "findmnt")
    return f"its type was not read: `{printable(command)}` does not print it ({asks} does)"


def _size(df: DfTable, b: Builder, at: str, row: FsRow, tree: BlockTree) -> None:
    held = df.get(row.target)
    if held is not None and held[0].size_kb and held[0].size_kb >= NO_SIZE_KB:
        b.guess(f"{at}.size_gb", 1, _no_size(held[1]))
        return
    if held is not None and held[0].size_kb:
        kb = held[0].size_kb
        b.put(f"{at}.size_gb", round(kb / 1024**2, 2), held[1], raw=f"{kb} KB")
        return
    if row.size_bytes:
        b.put(f"{at}.size_gb", round(row.size_bytes / GIB, 2), row.found, raw=f"{row.size_bytes} B")
        return
    node = tree.nodes.get(row.source.rsplit("/", 1)[-1])
    if node is not None and node.size_bytes and tree.found is not None:
        size = node.size_bytes
        note = "the size of its block device"
        b.put(f"{at}.size_gb", round(size / GIB, 2), tree.found, raw=f"{size} B", note=note)
        return
    b.guess(f"{at}.size_gb", 1, "no size was read for this file system")


def _no_size(found: Found) -> str:
    return (
        f"`{printable(found.section.command)}` (line {found.section.line}) shows 8.0E or "
        "more, the size an NFS server gives when it reports none (a cloud file service "
        "grows as it is filled): give the size SAS may use"
    )


def _devices(
    b: Builder, at: str, disks: list[str], told: Found | None, tree: BlockTree, queue: Queues
) -> None:
    if not disks or told is None:
        b.guess(f"{at}.disks", 1, "the devices behind it were not read (lsblk)")
        b.guess(f"{at}.media", "hdd", "the devices behind it were not read (lsblk)")
        return
    b.put(f"{at}.devices", disks, told)
    b.put(f"{at}.disks", len(disks), told, note="disks below it")
    san = tree.san(disks)
    if san is not None:
        b.put(f"{at}.san", True, san, note="a multipath LUN")
    _media(b, at, disks, tree)
    _max_transfer(b, at, disks, queue)


def _media(b: Builder, at: str, disks: list[str], tree: BlockTree) -> None:
    nvme = [d for d in disks if d.startswith("nvme")]
    if len(nvme) == len(disks):  # an NVMe namespace is solid state, whatever else is read
        found = tree.shows(nvme[0])
        if found is not None:
            b.put(f"{at}.media", "nvme", found, note="NVMe: " + ", ".join(disks))
            return
    read = [tree.rotational(d) for d in disks]
    flags = [r for r in read if r is not None]
    if len(flags) < len(disks):
        b.guess(f"{at}.media", "hdd", "whether its disks spin was not read")
        return
    spins = [r for r in flags if r[0]]
    media, told = ("hdd", spins[0][1]) if spins else ("ssd", flags[0][1])
    b.put(f"{at}.media", media, told, note="rotational flag of " + ", ".join(disks))


def _max_transfer(b: Builder, at: str, disks: list[str], queue: Queues) -> None:
    values = [queue.get(d, {}).get("max_sectors_kb") for d in disks]
    numbers = [(int(v[0]), v[1]) for v in values if v and _whole_number(v[0])]
    if numbers and len(numbers) == len(disks):
        lowest, found = min(numbers, key=lambda n: n[0])
        if 1 <= lowest <= MAX_TRANSFER_KB:
            note = "max_sectors_kb, lowest of its disks"
            b.put(f"{at}.max_transfer_kb", lowest, found, note=note)


def _whole_number(text: str) -> bool:
    return text.strip().isascii() and text.strip().isdigit()


def _layout(parsed: Parsed, b: Builder, at: str, row: FsRow, tree: BlockTree) -> None:
    raid, stripe, found = tree.layout(row.source)
    xfs = _xfs(parsed, row)
    if raid is None or found is None:
        b.guess(f"{at}.raid", "jbod", "the host sees no RAID; an array LUN's RAID is in the array")
    else:
        b.put(f"{at}.raid", raid, found)
    if stripe and found is not None:
        b.put(f"{at}.stripe_kb", stripe, found)
    elif xfs is not None and xfs.value.stripe_kb:
        sunit = f"sunit={xfs.value.sunit_blocks} × bsize={xfs.value.block_bytes}"
        b.put(f"{at}.stripe_kb", xfs.value.stripe_kb, xfs, raw=sunit, note="xfs stripe unit")


def _xfs(parsed: Parsed, row: FsRow) -> Found | None:
    """The xfs_info of this file system: asked by mount point or device, or naming it."""
    for found in parsed.all("xfs_info"):
        asked = found.section.argv[1:]
        if row.target in asked or row.source in asked or found.value.device == row.source:
            return found
    return None
