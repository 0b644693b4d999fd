"""Facts of a command's own reading, checked against its parser's value, not the draft.

Some expect lines name what one parser read and the draft inventory does not keep: how
many rows `df` read, a disk's size (`lspv hdisk0`, `nvme list`, lsblk), the swap `free`
or `lsps -s` shows, a multipath map's or an hdisk's paths, xfs_info's geometry, a ZFS
data set's recordsize, what lvs, lslv or mdadm read of an LV or md array. `Readings`
holds the parsers' values of a paste: for a corpus fixture the one
`registry.find(argv).fn(section)` gives for its section, for a whole transcript every
value `parse_text` kept. `check(pairs, readings)` gives None when some reading holds the
fact, else (category, what it read instead).

A reading's entries (`entries`) are the value itself when it is a sequence, a mapping's
items, or a dataclass's one field typed as a tuple of dataclasses (lspv's pvs, lsfs's
rows, lsvg -l's lvs); ROWS names the field where that is ambiguous. An entry is found by
name in NAME_FIELDS and its attributes are read through ALIASES, so one rule serves lvs
and lslv, mdadm and /proc/mdstat, multipath and lspath; what one parser says in its own
way (lspv's size in physical partitions, nvme list's decimal GB, lslv's silence on an LV
that is not striped, zfs get's one row a property) is in a small table beside the rule.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rules.parse import Parsed
from rules.parse.registry import Garbled, Section, find
from rules.parse.sections import argv_of

WRONG, MISSING, BAD = "wrong", "missing", "bad expect"
Miss = tuple[str, str]  # (category, what was read instead)

RELATIVE_SIZE = 0.05  # df -h prints 3 significant digits and rounds
ROUNDING_GB = 0.5  # the corpus writes sizes in whole GB
RAM_RELATIVE = 0.02  # memory and swap sizes
SWAP_ROUNDED_MB = 1024  # free -g / -h print whole or tenths of GB
NAME_FIELDS = ("name", "kname", "node", "device", "lv", "dm", "wwid", "dataset")
# Expect attribute → the value fields that hold it, first present wins.
ALIASES = {
    "devices": ("devices", "members", "pvs"),
    "stripes": ("stripes", "stripe_width"),
    "stripe_kb": ("stripe_size_kb", "stripe_kb", "chunk_kb"),
    "chunk_kb": ("chunk_kb",),
    "level": ("level",),
    "agcount": ("agcount",),
    "sunit_blks": ("sunit_blocks",),
    "swidth_blks": ("swidth_blocks",),
}
# The entries of a value whose main list its field types leave ambiguous.
ROWS = {"aix_lsvg_list": "names", "aix_bindprocessor": "processors"}
# What a parser leaves out because the command prints nothing: lslv prints STRIPE WIDTH
# only for a striped LV, so an LV it read without one has one stripe.
DEFAULTS = {("aix_lslv", "stripes"): 1}
# `nvme list` prints decimal GB (CORPUS.md); every other size is read in binary units.
DECIMAL_GB = frozenset({"nvme_list"})
UNITS = {"bytes": 1 / 2**20, "kb": 1 / 1024, "mb": 1.0, "gb": 1024.0}  # → MB
# A size as `zfs get` prints it: 131072 (-p), 128K, 1M.
_PRINTED = re.compile(r"([0-9]{1,15}(?:\.[0-9]{1,6})?)([KMGT]?)")
SWAP_FIELDS = ("swap_total", "swap")  # + _bytes/_kb/_mb/_gb, on the value itself
# Readings whose swap size is named otherwise (lsps -s: its Total Paging Space).
SWAP = {"aix_lsps": "total_mb"}


@dataclass(frozen=True)
class Readings:
    """The parser values of one paste, and what could not be read in it."""

    values: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # by parser name
    refused: tuple[tuple[str, str, str], ...] = ()  # (parser, command, its Garbled message)
    unread: tuple[str, ...] = ()  # commands no parser reads
    unused: tuple[str, ...] = ()  # why a repeated section's value was let go (`settle`)

    @classmethod
    def of_section(cls, section: Section) -> Readings:
        """What the parser of `section`'s command reads of it."""
        reader = find(section.argv)
        if reader is None:
            return cls(unread=(section.command,))
        try:
            return cls({reader.name: (reader.fn(section),)})
        except Garbled as exc:
            return cls(refused=((reader.name, section.command, exc.message),))

    @classmethod
    def of_parsed(cls, parsed: Parsed) -> Readings:
        """Every value a whole paste's parse kept (repeated sections settled)."""
        values = {name: tuple(f.value for f in found) for name, found in parsed.found.items()}
        refused = tuple(
            (getattr(find(argv_of(p.command)), "name", "?"), p.command, p.message)
            for p in parsed.problems
        )
        unread = tuple(command for _, command in parsed.unknown)
        return cls(values, refused, unread, tuple(why for _, _, why in parsed.unused))

    def each(self) -> list[tuple[str, Any]]:
        return [(name, value) for name, values in self.values.items() for value in values]

    def why_none(self, what: str, subject: str = "") -> str:
        """'no reading gives a swap size' and what the paste held that could have: the
        readings without one, the outputs refused or read by no parser, and a section
        naming `subject` that was let go for another."""
        out = f"no reading gives {what}"
        read = sorted(self.values)
        if read:
            out += f": {', '.join(read)} read, without one"
        out += "".join(f"; {p} refused `{c}`: {m}" for p, c, m in self.refused)
        out += "".join(f"; no parser reads `{c}`" for c in self.unread)
        if subject:
            out += "".join(f"; {why}" for why in self.unused if f" {subject}`" in why)
        return out


def check(pairs: list[tuple[str, str]], readings: Readings) -> Miss | None:
    """None when a reading holds the fact of an expect line (key, value pairs)."""
    head, subject = pairs[0]
    if head == "rows":
        return _rows(subject, readings)
    if head == "swap_mb":
        return _swap(subject, readings)
    if head == "path_count":
        name, _, count = subject.rpartition(":")
        return _entry_attrs("path_count", name, {"path_count": count}, readings)
    return _entry_attrs(head, subject, dict(pairs[1:]), readings)


# rows=N


def entries(name: str, value: Any) -> tuple[Any, ...] | None:
    """The rows a reading holds, or None where its value is one thing, not a list."""
    if name in ROWS:
        return tuple(getattr(value, ROWS[name]))
    if isinstance(value, Mapping):
        return tuple(value.items())
    if isinstance(value, list | tuple):
        return tuple(value)
    if dataclasses.is_dataclass(value):
        main = _row_fields(type(value))
        if len(main) == 1:
            return tuple(getattr(value, main[0]))
    return None


@cache
def _row_fields(cls: type) -> tuple[str, ...]:
    """The fields typed `tuple[SomeDataclass, ...]`: a value's rows."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        args = typing.get_args(hints[f.name])
        if typing.get_origin(hints[f.name]) is tuple and args and dataclasses.is_dataclass(args[0]):
            out.append(f.name)
    return tuple(out)


def _rows(want: str, readings: Readings) -> Miss | None:
    each = readings.each()
    if len(each) != 1:
        if not each:
            return MISSING, readings.why_none("rows")
        return BAD, "rows= names no command in a paste of several readings"
    name, value = each[0]
    rows = entries(name, value)
    if rows is None:
        kind = type(value).__name__
        return BAD, f"{name} reads one {kind}, not rows: give it an entry in parser_facts.ROWS"
    return None if str(len(rows)) == want else (WRONG, f"{name} read {len(rows)} rows")


# swap_mb=N


def _in_mb(value: Any, stems: Sequence[str]) -> float | None:
    """The first numeric field named stem_bytes/_kb/_mb/_gb, converted to MB."""
    for stem in stems:
        for unit, factor in UNITS.items():
            have = getattr(value, f"{stem}_{unit}", None)
            if isinstance(have, int | float) and not isinstance(have, bool):
                return have * factor
    return None


def _swap_of(name: str, value: Any) -> float | None:
    if name in SWAP:
        have = getattr(value, SWAP[name])
        return None if have is None else float(have)
    return _in_mb(value, SWAP_FIELDS)


def _swap(want: str, readings: Readings) -> Miss | None:
    read = [(n, mb, v) for n, v in readings.each() if (mb := _swap_of(n, v)) is not None]
    if not read:
        return MISSING, readings.why_none("a swap size")
    for _, mb, value in read:
        slack = SWAP_ROUNDED_MB if getattr(value, "rounded", False) else 1
        if abs(mb - float(want)) <= max(RAM_RELATIVE * float(want), slack):
            return None
    return WRONG, "; ".join(f"{n} read swap_mb={mb:g}" for n, mb, _ in read)


# device=, path_count=, xfs=, lv=, md=: an entry found by name


def _bare(name: str) -> str:
    """'/dev/mapper/vg-lv' → 'vg-lv'; '/dev/sda2(0)' (lvs's extents) → 'sda2'."""
    return name.split("(", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def _named(name: str, value: Any, subject: str) -> list[Any]:
    """The reading itself where it is named `subject` (lslv, mdadm --detail, lspv
    hdiskN), else its entries that are (lvs, mdstat, multipath; lspath's rows, a path
    each)."""
    want = _bare(subject)

    def named(row: Any) -> bool:
        return any(
            isinstance(n := getattr(row, f, None), str) and _bare(n) == want for f in NAME_FIELDS
        )

    if named(value):
        return [value]
    return [row for row in entries(name, value) or () if named(row)]


def names(subject: str, readings: Readings) -> bool:
    """Whether some reading has an entry named `subject`."""
    return any(_named(n, v, subject) for n, v in readings.each())


def _attr(name: str, rows: list[Any], row: Any, key: str) -> Any:
    """An expect attribute of an entry, through ALIASES and the per-parser tables."""
    if key == "size_gb":
        mb = _in_mb(row, ("size",))
        if mb is None and getattr(row, "total_pps", None) and getattr(row, "pp_size_mb", None):
            mb = float(row.total_pps * row.pp_size_mb)  # lspv hdiskN: TOTAL PPs × PP SIZE
        if mb is not None and name in DECIMAL_GB:
            return mb * 2**20 / 1e9
        return None if mb is None else mb / 1024
    if key == "recordsize_kb":  # zfs list -o recordsize's bytes, or zfs get's row of it
        mb = _in_mb(row, ("recordsize",))
        if mb is None and getattr(row, "property", None) == "recordsize":
            mb = _printed_mb(str(row.value))
        return None if mb is None else mb * 1024
    if key == "path_count":  # a multipath map's paths, or lspath's rows for the disk
        paths = getattr(row, "paths", None)
        return len(rows) if paths is None else len(paths)
    for f in ALIASES.get(key, ()):
        have = getattr(row, f, None)
        if have is not None:
            return [getattr(p, "name", p) for p in have] if key == "devices" else have
    return DEFAULTS.get((name, key))


def _printed_mb(text: str) -> float | None:
    found = _PRINTED.fullmatch(text.strip())
    if found is None:
        return None
    number, unit = found.groups()
    return float(number) * 1024 ** "BKMGT".index(unit or "B") / 2**20


def _same(key: str, have: Any, want: str) -> bool:
    if key == "size_gb":
        return abs(have - float(want)) <= max(RELATIVE_SIZE * float(want), ROUNDING_GB)
    if key == "devices":
        return {_bare(str(d)) for d in have} == set(want.split(","))
    if key == "level":
        return str(have).lower() == want.lower()
    if isinstance(have, float):  # a size converted from its unit: 1M → 1024.0 KB
        return abs(have - float(want)) < 0.5
    return str(have) == want


WHAT = {
    "device": "a device", "path_count": "a device or multipath map", "xfs": "an xfs_info",
    "lv": "a logical volume", "md": "an md array", "zfs": "a ZFS data set",
}  # fmt: skip


def _entry_attrs(head: str, subject: str, attrs: dict[str, str], readings: Readings) -> Miss | None:
    """None when some reading's entry named `subject` holds every attribute."""
    if not attrs:
        return BAD, f"{head}={subject} needs an attribute"
    found = [(n, rows) for n, v in readings.each() if (rows := _named(n, v, subject))]
    if not found:
        return MISSING, readings.why_none(f"{WHAT.get(head, head)} named {subject}", subject)
    wrong: list[tuple[str, str, Any]] = []
    for name, rows in found:
        for row in rows:
            held = [(k, w, _attr(name, rows, row, k)) for k, w in attrs.items()]
            misses = [(name, k, h) for k, w, h in held if h is None or not _same(k, h, w)]
            if not misses:
                return None
            wrong += misses
    read = [m for m in wrong if m[2] is not None] or wrong  # an entry without it says less
    return WRONG, "; ".join(dict.fromkeys(f"{n} read {k}={_shown(h)}" for n, k, h in read))


def _shown(have: Any) -> str:
    if have is None:
        return "nothing"
    if isinstance(have, float):
        return f"{have:.1f}"
    if isinstance(have, list):
        return ",".join(_bare(str(d)) for d in have)
    return str(have)
