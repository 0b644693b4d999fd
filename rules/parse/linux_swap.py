"""Parsers of Linux swap tables: `swapon --show` (util-linux) and /proc/swaps.

`swapon --show[=COLUMNS]` prints a header naming its columns (NAME TYPE SIZE USED PRIO by
default; `--bytes` prints sizes in bytes, else binary units as lsblk does). /proc/swaps
(and `swapon -s`, which prints it) has "Filename Type Size Used Priority", sizes in KiB.
The inventory holds no swap size; what was read is said in a note. Captures: jc's tests,
prometheus/procfs's fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, number, require
from rules.parse.registry import Argv, Garbled, Section, parser, reads_file

KIB = 1024


@dataclass(frozen=True)
class SwapArea:
    name: str  # /dev/dm-2, /swapfile
    kind: str  # partition, file
    size_kb: int


@dataclass(frozen=True)
class LinuxSwap:
    areas: tuple[SwapArea, ...]

    @property
    def swap_total_kb(self) -> int:
        return sum(area.size_kb for area in self.areas)


def _swapon_table(argv: Argv) -> bool:
    if not argv or argv[0].rsplit("/", 1)[-1] != "swapon":
        return False
    flags = argv[1:]
    if not flags:  # util-linux 2.26+ prints the --show table when given nothing to do
        return True
    return any(a in ("-s", "--summary", "--show") or a.startswith("--show=") for a in flags)


_PROC_SWAPS = reads_file("/proc/swaps")


def _matches(argv: Argv) -> bool:
    return _swapon_table(argv) or _PROC_SWAPS(argv)


@parser("linux_swap", _matches, commands=("swapon", "cat"))
def linux_swap(section: Section) -> LinuxSwap:
    lines = meaningful(section)
    if not lines:
        raise Garbled("no swap table in this output", 0)
    offset, header = lines[0]
    columns = [c.lower() for c in header.split()]
    if "size" not in columns or not ({"name", "filename"} & set(columns)):
        raise Garbled("no 'NAME … SIZE' or 'Filename … Size' header", offset)
    kib = "filename" in columns or any(a in ("-s", "--summary") for a in section.argv)
    areas = [_area(words, columns, kib, at) for at, line in lines[1:] if (words := line.split())]
    require(areas, section, "swap areas")
    return LinuxSwap(tuple(areas))


def _area(words: list[str], columns: list[str], kib: bool, offset: int) -> SwapArea:
    at = columns.index("size")
    kind = columns.index("type") if "type" in columns else None
    if len(words) <= at:
        raise Garbled("a swap row without its size", offset)
    size = number(words[at]) if kib else _bytes_kb(words[at])
    if size is None:
        raise Garbled(f"swap size {words[at]!r} is not a size", offset)
    return SwapArea(words[0], words[kind] if kind is not None and kind < len(words) else "", size)


def _bytes_kb(text: str) -> int | None:
    size = human_bytes(text)
    return None if size is None else size // KIB
