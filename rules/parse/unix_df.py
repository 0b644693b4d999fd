"""The `df` parser, for every Unix's shape of it.

Shapes, from the sources of tests/fixtures/parse/{unix,aix,solaris}/: POSIX `df -P`
(1024- or 512-blocks; `-alP` with a mount point holding blanks), GNU `df -h`/`-k`/`-T`
(human sizes `4.0T`, `1014M`, `0`; a Type column; a long device name on a line of its
own), AIX `df`/`-k`/`-g`/`-m` (Free, %Used, Iused, %Iused; pasted without its header),
Solaris `df -k` (kbytes used avail capacity, long dataset names pushing columns right).
A row is read from its capacity column outward, so a mount point may hold blanks and a
file system name may be wider than its column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.parse.linux_text import human_bytes, meaningful, require
from rules.parse.registry import Argv, Section, command_with, parser

KIB = 1024
_SIZE = re.compile(r"-|\d{1,20}(?:[.,]\d{1,6})?[KMGTPE]?i?")
_CAPACITY = re.compile(r"-|\d{1,3}%")
_COUNT = re.compile(r"-|\d{1,20}")
_BLOCKS = re.compile(r"(\d{1,7})([KMG]?)-blocks|([KMG]B) blocks|kbytes")
# Units of a headerless paste, by the flag that asked for them (AIX `df -g` is GB blocks).
_FLAG_UNITS = {"g": 1024.0**2, "m": 1024.0, "k": 1.0}
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class DfRow:
    filesystem: str
    size_kb: int | None  # None for "-" (AIX /proc, autofs)
    free_kb: int | None  # Available (POSIX) or Free (AIX)
    mount: str
    fstype: str | None = None  # where `df -T` prints it
    # Used (POSIX; AIX prints none): what a ZFS data set's `kbytes 0` row adds to avail.
    used_kb: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _Layout:
    unit: float | None  # KB a block; None: human sizes (`df -h`)
    aix: bool  # Free %Used Iused %Iused
    typed: bool  # a Type column after the file system


@parser("df", command_with("df"), commands=("df",))
def df(section: Section) -> tuple[DfRow, ...]:
    layout = _headerless(section.argv)
    rows: list[DfRow] = []
    pending = ""  # GNU df puts a long device name on a line of its own
    for _offset, line in meaningful(section):
        if line.startswith("Filesystem"):
            layout = _header(line)
            continue
        words = [(m.start(), m.group()) for m in _WORD.finditer(line)]
        row = _row(line, words, layout, pending)
        pending = words[0][1] if row is None and len(words) == 1 else ""
        if row is not None:
            rows.append(row)
    require(rows, section, "df rows")
    return tuple(rows)


def _headerless(argv: Argv) -> _Layout:
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-") and not a.startswith("--"))
    if "h" in flags or "H" in flags:
        return _Layout(None, False, "T" in flags)
    unit = next((u for f, u in _FLAG_UNITS.items() if f in flags), 1.0)
    return _Layout(unit, False, "T" in flags)


def _header(line: str) -> _Layout:
    found = _BLOCKS.search(line)
    unit: float | None = None  # "Size" (df -h) and no block heading: human sizes
    if found and found.group(1):
        scale = {"": 1, "K": KIB, "M": KIB**2, "G": KIB**3}[found.group(2)]
        unit = int(found.group(1)) * scale / KIB
    elif found and found.group(3):
        unit = {"KB": 1.0, "MB": 1024.0, "GB": 1024.0**2}[found.group(3)]
    elif found:
        unit = 1.0
    return _Layout(unit, "Iused" in line, " Type " in line)


def _row(line: str, words: list[tuple[int, str]], layout: _Layout, pending: str) -> DfRow | None:
    """One row, found from its capacity column: POSIX `size used avail cap mount`, AIX
    `blocks free %used iused %iused mount`; the file system is what comes before."""
    texts = [w for _, w in words]
    for k in range(2, len(texts) - 1):
        if not _CAPACITY.fullmatch(texts[k]):
            continue
        aix = layout.aix or _aix_tail(texts, k)
        first = k - 2 if aix else k - 3  # AIX: blocks free; POSIX: size used avail
        if first < 0:  # a negative start would slice from the end
            continue
        sizes = texts[first:k]
        if not all(_SIZE.fullmatch(s) for s in sizes):
            continue
        mount_at = k + 3 if aix else k + 1
        if mount_at >= len(words):
            continue
        end = first  # the words before the sizes: the file system, then its type
        fstype = texts[end - 1] if layout.typed and end >= 1 else None
        end -= 1 if fstype is not None else 0
        fs = line[words[0][0] : words[end - 1][0] + len(texts[end - 1])] if end > 0 else pending
        mount = line[words[mount_at][0] :].rstrip()
        if not fs or not mount:
            return None
        free = sizes[1] if aix else sizes[2]
        used = None if aix else _kb(sizes[1], layout.unit)
        size, left = _kb(sizes[0], layout.unit), _kb(free, layout.unit)
        return DfRow(fs, size, left, mount, fstype, used)
    return None


def _aix_tail(texts: list[str], k: int) -> bool:
    """A headerless AIX row: after %Used come Iused (a count) and %Iused, then the mount."""
    return (
        k + 3 < len(texts)
        and _COUNT.fullmatch(texts[k + 1]) is not None
        and _CAPACITY.fullmatch(texts[k + 2]) is not None
        and texts[k + 3].startswith("/")
    )


def _kb(text: str, unit: float | None) -> int | None:
    if text == "-":
        return None
    if unit is None or not text.replace(".", "").replace(",", "").isdigit():
        size = human_bytes(text)  # '4.0T', '1014M', '0'
        return None if size is None else size // KIB
    return int(float(text.replace(",", ".")) * unit)
