"""AIX device parsers: lsattr -El (disks, FC adapters, sys0, any device); lsdev is in aix_lsdev.

Sources: the IBM AIX 7.2 command reference (lsattr); real captures in
tests/fixtures/parse/aix (an SVC LUN under SDDPCM and AIXPCM and XIV, vSCSI and SCSI disks
from bond-huang's AIX notes, a VPLEX LUN from Andy0583's, sys0 of allegro/ralph's AIX 5.3
replay and of a Node.js AIX 7.2 build host, processors from chef/ohai, ansible's GCC farm
data and an AIX 7.2 blog post). lsattr prints `attribute value description user_settable`
with the value column padded to the longest attribute name; an empty value (`location`)
leaves the column blank, and an overlong value (`unique_id`) runs into the description with
one space.
max_transfer and max_xfer_size are byte counts in hex (0x40000 = 256 KB).

The small number helpers here are shared by the other AIX parser modules.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.parse.registry import Argv, Garbled, Match, Section, parser

# Bounded digit runs: no input can build an int big enough to be slow or absurd.
_INT = re.compile(r"[0-9]{1,12}")
_HEX = re.compile(r"0[xX]([0-9a-fA-F]{1,12})")


def to_int(text: str | None) -> int | None:
    """'16' → 16; anything else (None, '', 'n/a', '12x') → None."""
    if text is None:
        return None
    text = text.strip()
    return int(text) if _INT.fullmatch(text) else None


def to_float(text: str | None) -> float | None:
    """'0.30' or '4,00' (a comma locale) → float; anything else → None."""
    if text is None:
        return None
    found = re.fullmatch(r"([0-9]{1,9})(?:[.,]([0-9]{1,9}))?%?", text.strip())
    if found is None:
        return None
    return float(f"{found.group(1)}.{found.group(2) or '0'}")


def bytes_to_kb(text: str | None) -> int | None:
    """A byte count as lsattr prints it ('0x40000' or '262144') in KB: 256."""
    if text is None:
        return None
    found = _HEX.fullmatch(text.strip())
    count = int(found.group(1), 16) if found else to_int(text)
    return None if count is None else count // 1024


def nothing_found(section: Section, what: str) -> Garbled:
    """The Garbled for output with no line the parser recognises, pointing at its first
    non-blank line (usually an error message such as 'not found')."""
    offset = next((i for i, line in enumerate(section.lines) if line.strip()), 0)
    first = section.lines[offset].strip()[:80] if section.lines else ""
    return Garbled(f"no {what} in this output" + (f": {first!r}" if first else ""), offset)


# ---------------------------------------------------------------------------------------
# lsattr


@dataclass(frozen=True)
class Attrs:
    """`lsattr -El DEVICE`: attribute → value, in printed order."""

    device: str | None
    attrs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DiskAttrs(Attrs):
    max_transfer: str | None = None  # as printed: '0x40000'
    max_transfer_kb: int | None = None  # None when the disk has no max_transfer
    queue_depth_raw: str | None = None
    queue_depth: int | None = None


@dataclass(frozen=True)
class FcAttrs(Attrs):
    max_xfer_size: str | None = None
    max_xfer_size_kb: int | None = None
    num_cmd_elems_raw: str | None = None
    num_cmd_elems: int | None = None
    lg_term_dma: str | None = None
    lg_term_dma_kb: int | None = None


@dataclass(frozen=True)
class Sys0Attrs(Attrs):
    realmem_kb: int | None = None


def lsattr_device(argv: Argv) -> str | None:
    """The device an lsattr line names: `-l hdisk4`, `-El hdisk4` or `-Elmem0`."""
    for i, arg in enumerate(argv[1:], 1):
        if arg.startswith("-") and "l" in arg[1:]:
            glued = arg[arg.index("l", 1) + 1 :]
            if glued:
                return glued
            if i + 1 < len(argv) and not argv[i + 1].startswith("-"):
                return argv[i + 1]
    return None


_SETTABLE_WORDS = frozenset({"True", "True+", "False"})


def _rows(lines: Sequence[str]) -> list[tuple[str, str, int]]:
    """The attribute rows, lines ending in the user_settable column: (row, name, where the
    padding after the name ends). lsattr pads with spaces; a tab counts as one."""
    rows = []
    for line in lines:
        row = line.strip()
        if "\t" in row:
            row = row.replace("\t", " ")
        last = row.rfind(" ")
        if last < 0 or row[last + 1 :] not in _SETTABLE_WORDS:
            continue
        first = row.find(" ")
        name = row[:first]
        if name != "attribute":
            rows.append((row, name, len(row) - len(row[first:].lstrip(" "))))
    return rows


def lsattr_values(lines: Sequence[str]) -> dict[str, str]:
    """attribute → value from `lsattr -E` rows ('' for an empty value).

    Values start at the narrowest name-plus-padding (an empty value widens it). Rows
    squeezed to single spaces (a paste through a web page or chat) have no column left:
    each value is then the word after the name, and an empty value cannot be told apart."""
    rows = _rows(lines)
    if not rows:
        return {}
    if all(width == len(name) + 1 for _, name, width in rows):
        return {name: row.split(" ", 2)[1] for row, name, _ in rows}
    column = min(width for _, _, width in rows)
    values: dict[str, str] = {}
    for row, name, width in rows:
        if width != column or len(row) <= column:
            values[name] = ""
            continue
        end = row.find(" ", column)
        values[name] = row[column:] if end < 0 else row[column:end]
    return values


def _colon_values(lines: Sequence[str]) -> dict[str, str]:
    """`lsattr -EO` output: a '#name:name' header line, then 'value:value'."""
    for i, line in enumerate(lines[:-1]):
        names, values = line[1:].split(":"), lines[i + 1].split(":")
        named = all(re.fullmatch(r"\w{1,64}", n.strip()) for n in names)
        if line.startswith("#") and len(names) == len(values) and named:
            return {n.strip(): v.strip() for n, v in zip(names, values, strict=True)}
    return {}


def read_lsattr(section: Section) -> tuple[str | None, dict[str, str]]:
    values = lsattr_values(section.lines) or _colon_values(section.lines)
    if not values:
        raise nothing_found(section, "lsattr attribute rows")
    return lsattr_device(section.argv), values


def _lsattr_of(glob: str) -> Match:
    """lsattr -E… -l DEVICE with DEVICE matching `glob`. -E/-D only AIX's lsattr has
    (e2fsprogs' lsattr on Linux lists file flags)."""

    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] != "lsattr":
            return False
        if not any(a.startswith("-") and ("E" in a or "D" in a) for a in argv[1:]):
            return False
        device = lsattr_device(argv)
        return device is not None and fnmatch.fnmatchcase(device, glob)

    return match


@parser("aix_lsattr_disk", _lsattr_of("hdisk*"), commands=("lsattr",))
def lsattr_disk(section: Section) -> DiskAttrs:
    device, values = read_lsattr(section)
    transfer, depth = values.get("max_transfer"), values.get("queue_depth")
    return DiskAttrs(device, values, transfer, bytes_to_kb(transfer), depth, to_int(depth))


@parser("aix_lsattr_fcs", _lsattr_of("fcs*"), commands=("lsattr",))
def lsattr_fcs(section: Section) -> FcAttrs:
    device, values = read_lsattr(section)
    xfer, elems, dma = (values.get(k) for k in ("max_xfer_size", "num_cmd_elems", "lg_term_dma"))
    return FcAttrs(
        device, values, xfer, bytes_to_kb(xfer), elems, to_int(elems), dma, bytes_to_kb(dma)
    )


@parser("aix_lsattr_sys0", _lsattr_of("sys0"), commands=("lsattr",))
def lsattr_sys0(section: Section) -> Sys0Attrs:
    device, values = read_lsattr(section)
    return Sys0Attrs(device, values, to_int(values.get("realmem")))


@parser("aix_lsattr", _lsattr_of("*"), commands=("lsattr",))
def lsattr_any(section: Section) -> Attrs:
    device, values = read_lsattr(section)
    return Attrs(device, values)
