"""What the Linux and AIX storage combiners share: which mounts count, names, guesses."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from rules.inventory import MAX_STORAGE
from rules.kinds import DEVICE, MOUNT
from rules.kinds_estate import MB_S, MEASURED_TEXT, STREAMS
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.paths import holder
from rules.parse.throughput import THROUGHPUT_PARSERS
from rules.parse.wiring import reads

# File systems a SAS library or WORK can live on, mapped to the contract's names.
FILESYSTEMS = {
    "jfs2": "jfs2", "jfs": "jfs", "xfs": "xfs", "ext4": "ext4", "ext3": "other",
    "ext2": "other", "btrfs": "other", "zfs": "zfs", "ufs": "ufs", "vxfs": "vxfs",
    "gpfs": "gpfs", "mmfs": "gpfs", "ntfs": "ntfs",
}  # fmt: skip
# Mount points that are never a SAS file system; none today: /boot and /boot/efi are
# listed like any other (role "other"), so the draft shows every disk's file system.
SYSTEM_MOUNTS: tuple[str, ...] = ()
_UNPRINTABLE = re.compile(r"[^\x20-\x7e]")
_NOT_IN_MOUNT = re.compile(r"[^A-Za-z0-9/_.-]")  # what the contract's MOUNT refuses
_ROLE_WORDS = (
    ("spdsidx", "spds_index"), ("spdsindex", "spds_index"), ("spdsmeta", "spds_meta"),
    ("spdswork", "spds_work"), ("spdstmp", "spds_work"), ("spds", "spds_data"),
    ("utilloc", "utilloc"), ("sasutil", "utilloc"), ("work", "work"), ("data", "data"),
)  # fmt: skip
ROLE_REASON = "what SAS keeps on it is yours to say"
NFS_REASON = "an NFS mount: its disks, layout and media are the NFS server's"
# File systems a draft considers before it keeps the contract's MAX_STORAGE of them.
MAX_CANDIDATES = 4 * MAX_STORAGE
Row = TypeVar("Row")


def swap_note(b: Builder, found: Found, what: str, kind: str = "swap") -> None:
    """Swap (AIX: paging space) has no field in the contract: what was read is said."""
    b.notes.append(
        f"line {found.section.line}: `{printable(found.section.command)}` shows {what}; the "
        f"inventory holds no {kind} size"
    )


def printable(text: str) -> str:
    """Text safe to show in a note: printable ASCII, at most 80 characters."""
    return _UNPRINTABLE.sub("?", text)[:80]


def guess_role(mount: str) -> str:
    """A role from the mount point's words (/saswork → work); 'other' when none fits."""
    lowered = mount.lower()
    return next((role for word, role in _ROLE_WORDS if word in lowered), "other")


def storage_name(source: str, index: int) -> str:
    """The entry's name from its device path: /dev/mapper/vg-lv → vg-lv, /dev/sdb1 → sdb1."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    return name if DEVICE.accepts(name) else f"fs{index}"


def refused_mount(target: str) -> str:
    """Why the contract refuses a mount point, in words for the note that leaves it out."""
    chars = sorted(set(_NOT_IN_MOUNT.findall(target)))[:8]
    if chars:
        shown = ", ".join(repr(printable(c)) for c in chars)
        return (
            f"a mount point with characters the contract refuses ({shown}; a storage "
            "entry's mount holds letters, digits and / _ . - only)"
        )
    return "a mount point the contract refuses (an empty, '.' or '..' part, or too long)"


def usable_mount(target: str, b: Builder) -> bool:
    """A mount point the contract accepts and that is not the system's own."""
    if target in SYSTEM_MOUNTS:
        b.notes.append(f"left out {target}: a system file system")
        return False
    if not MOUNT.accepts(target):
        b.notes.append(f"left out {printable(target)!r}: {refused_mount(target)}")
        return False
    return True


def within_reach(rows: list[Row], b: Builder, mount_of: Callable[[Row], str]) -> list[Row]:
    """At most MAX_CANDIDATES file systems, in the order read, so that a paste of tens of
    thousands of mounts costs what a large server's does; the rest named in a note."""
    if len(rows) <= MAX_CANDIDATES:
        return rows
    left = [mount_of(row) for row in rows[MAX_CANDIDATES:]]
    b.notes.append(
        f"{len(rows)} file systems read: the first {MAX_CANDIDATES} are considered, "
        f"{len(left)} left out ({', '.join(printable(m) for m in left[:5])}"
        f"{', …' if len(left) > 5 else ''})"
    )
    return rows[:MAX_CANDIDATES]


def safe_devices(names: list[str], b: Builder) -> list[str]:
    """Device names the contract accepts; any other (a hostile lsattr, say) is refused."""
    kept = []
    for name in names:
        if DEVICE.accepts(name):
            kept.append(name)
        else:
            b.notes.append(f"refused device name {printable(name)!r}")
    return kept


def common_fields(b: Builder, i: int, *, role_from: str) -> None:
    """The guesses every storage entry needs: its role, confirmed by the admin."""
    b.guess(f"storage[{i}].role", guess_role(role_from), ROLE_REASON)


@reads("measure", *THROUGHPUT_PARSERS)
def measured(parsed: Parsed, b: Builder) -> None:
    """A measured rate → the measured_mb_s of the file system holding where it measured:
    an old collector's timed dd write and read-back (the lower of the two), or the
    collector's --measure streams, fio's JSON, SAS's rhel_iotest.sh/iotest.sh (the lower of
    read and write, all streams together; read and write apart, the tool, date and streams
    in their own fields, measured_read_mb_s … measured_streams, and in the note)."""
    runs: dict[str, list[Found]] = {}
    for found in parsed.all("measure"):
        if found.value.mb_s:
            runs.setdefault(found.value.directory, []).append(found)
    mounts = [str(e.get("mount", "")) for e in b.doc.get("storage", [])]
    for directory, timed in runs.items():
        i = holder(directory, mounts)
        if i is None:
            b.notes.append(f"measured {printable(directory)}: no file system read holds it")
            continue
        low = min(timed, key=_rate)
        rates = ", ".join(f"{f.value.direction} {_rate(f):.1f} MB/s" for f in timed)
        note = f"the lower of {rates}" if len(timed) > 1 else f"{rates} only"
        b.put(f"storage[{i}].measured_mb_s", round(_rate(low), 1), low, note=note)
    for name in THROUGHPUT_PARSERS:  # the collector's own last: it wins
        for found in parsed.all(name):
            for one in found.value:
                _throughput(b, found, one, mounts)


def _throughput(b: Builder, found: Found, one: Any, mounts: list[str]) -> None:
    one = _weighed_against_ram(b, one)
    where, low = printable(one.directory or "?"), _judged(one)
    i = holder(one.directory, mounts) if one.directory else None
    if one.lower() is None or i is None:
        why = (
            "no rate for all streams together"
            if one.lower() is None
            else "no file system read holds it"
        )
        b.notes.append(f"line {found.section.line}: {one.tool} measured {where}: {why}")
        return
    parts = [f"{w} {r:.1f} MB/s" for w, r in (("read", one.read_mb_s), ("write", one.write_mb_s))
             if r is not None]  # fmt: skip
    kept = "; the write is kept, the read may be the page cache's" if _cached(one) else ""
    note = (
        f"{one.tool} on {where}{f' ({printable(one.date)})' if one.date else ''}: "
        f"{', '.join(parts)} over {one.streams} streams"
        f"{f' of {one.block_kb:g} KB blocks' if one.block_kb else ''}"
        f"{kept or '; the lower is kept'}{f'; {printable(one.caveat)}' if one.caveat else ''}"
    )
    if mounts[i] != one.directory and mounts[i].startswith("/"):  # a drive root is no mount point
        b.notes.append(
            f"line {found.section.line}: {one.tool} measured {where}, which no file system read "
            f"has as its mount point: its figures go to {printable(mounts[i])}, the mount "
            "holding it; paste the df line of its own file system if it has one"
        )
    _forget_measurement(b, i)
    if low is not None:
        b.put(f"storage[{i}].measured_mb_s", round(low, 1), found, note=note[:400])
    for name, value in _details(one):
        b.put(f"storage[{i}].{name}", value, found, note=note[:400])


GIB = 1024**3  # ram_gb counts binary gigabytes, as /proc/meminfo and prtconf give them


def _weighed_against_ram(b: Builder, one: Any) -> Any:
    """A buffered read (fio without direct=1, iotest.sh's files) of less than the RAM read
    may be the page cache's: marked so, as the collector marks its own, when the RAM was read."""
    ram_gb = b.doc.get("server", {}).get("ram_gb")
    buffered = getattr(one, "buffered_read_bytes", None)
    if one.read_cached or not buffered or "server.ram_gb" not in b.provenance:
        return one
    if not isinstance(ram_gb, int | float) or buffered >= ram_gb * GIB:
        return one
    remedy = "use --direct=1" if one.tool.startswith("fio") else "use files larger than the RAM"
    caveat = f"{buffered / 1e6:,.0f} MB read buffered, under the {ram_gb:g} GB of RAM; {remedy}"
    return replace(one, read_cached=True, caveat="; ".join(c for c in (one.caveat, caveat) if c))


def _cached(one: Any) -> bool:
    """A read figure that may be the page cache's (Throughput.read_cached)."""
    return bool(one.read_cached) and one.read_mb_s is not None


def _judged(one: Any) -> float | None:
    """The measured_mb_s a measurement gives: the lower of read and write, or the write
    alone where the read may be the page cache's (none where nothing else was measured)."""
    judged: float | None = one.write_mb_s if _cached(one) else one.lower()
    return judged


# What a measurement gives besides its lower rate: each replaced whole by a later one.
MEASURED_DETAILS = (
    "measured_read_mb_s", "measured_write_mb_s", "measured_by", "measured_at", "measured_streams",
    "measured_read_cached",
)  # fmt: skip


def _details(one: Any) -> list[tuple[str, Any]]:
    """The read and write rates, the tool, date and streams, where the contract takes them,
    and whether the read may be the page cache's."""
    values = {
        "measured_read_mb_s": None if one.read_mb_s is None else round(one.read_mb_s, 1),
        "measured_write_mb_s": None if one.write_mb_s is None else round(one.write_mb_s, 1),
        "measured_by": one.tool.strip(),
        "measured_at": " ".join(one.date.split()),
        "measured_streams": one.streams,
        "measured_read_cached": True if _cached(one) else None,
    }
    kept = {name: v for name, v in values.items() if v is not None and _fits(name, v)}
    if "measured_read_mb_s" not in kept:
        kept.pop("measured_read_cached", None)  # the contract takes it only with the read
    return list(kept.items())


def _fits(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return True
    kind = STREAMS if name == "measured_streams" else MB_S if name.endswith("_mb_s") else None
    return (kind or MEASURED_TEXT).accepts(value)


def _forget_measurement(b: Builder, i: int) -> None:
    """An earlier measurement's rate and details on entry i: gone, so none outlives it."""
    entry = b.doc["storage"][i]
    for name in ("measured_mb_s", *MEASURED_DETAILS):
        entry.pop(name, None)
        b.provenance.pop(f"storage[{i}].{name}", None)


def _rate(found: Any) -> float:
    return float(found.value.mb_s)
