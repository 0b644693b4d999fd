"""Parser: Windows' disks, from PowerShell's `Get-PhysicalDisk` and `Get-Disk`.

`Get-PhysicalDisk` (learn.microsoft.com, powershell/module/storage/get-physicaldisk) prints
`Number FriendlyName SerialNumber MediaType CanPool OperationalStatus HealthStatus Usage
Size` over a dashed rule, or the columns a `Select-Object` names (PowerShell issue #15772):

    FriendlyName        MediaType
    ------------        ---------
    CT240BX500SSD1      SSD
    Seagate BUP Slim BK Unspecified

(older Storage modules print no Number, no SerialNumber or no MediaType); MediaType is SSD,
HDD or Unspecified (a virtual disk, a USB stick: it says nothing of the medium). `Get-Disk`
prints `Number Friendly Name Serial Number HealthStatus OperationalStatus Total Size
Partition Style`, its last header wrapped onto a second line (`Style`) in a console of 120
columns. Both print sizes in PowerShell's binary units (1 GB = 2^30 bytes), right-aligned,
and truncate a long name with `...`. Each column is a run of the dashed rule; its name the
header words above that run (two header lines at most). A row's word goes to the column
whose run it overlaps; a word overlapping none, one space after the word before, goes with
it (`VMware Virtual disk`), else to the nearest run. Positions are display cells
(rules.parse.columns). `| Format-List` (`fl`) or `| Select-Object *` prints `Key : value`
lines, a block a disk (Size in bytes there). Lines are cut to MAX_LINE; at most MAX_DISKS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.columns import by_width, unfill
from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.windows_system import program

MAX_LINE = 2000
MAX_LINES = 20000
MAX_DISKS = 4096
MAX_BYTES = 10**18
UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3, "TB": 1024**4, "PB": 1024**5}
# Header names (spaces taken out, lower case) → the field they fill.
FIELDS = {
    "number": "number", "disknumber": "number", "deviceid": "number",
    "friendlyname": "name", "serialnumber": "serial", "mediatype": "media",
    "size": "size", "totalsize": "size", "healthstatus": "health",
    "operationalstatus": "status", "usage": "usage", "partitionstyle": "style",
    "canpool": "canpool", "bustype": "bus",
}  # fmt: skip
MEDIA = {"ssd": "SSD", "hdd": "HDD", "scm": "SCM", "unspecified": "Unspecified"}
_SIZE = re.compile(r"([0-9]{1,15}(?:[.,][0-9]{1,6})?) ?(P?B|[KMGT]B)?")
_RULE, _WORD = re.compile(r"-+"), re.compile(r"\S+")  # the rule's runs; a row's words
# `Key : value` of Format-List; a value wrapped onto further lines starts with blanks.
_LIST_KEY = re.compile(r"([A-Za-z][A-Za-z ]{0,40}?)\s*:\s?(.*)$")


@dataclass(frozen=True)
class Disk:
    number: str  # "0"; "" where not printed
    name: str  # FriendlyName as printed, `...` and all
    serial: str
    media: str  # "SSD", "HDD", "SCM", "Unspecified"; "" where not printed
    bus: str  # "NVMe", "SAS", …; "" where not printed
    size_bytes: int | None
    size_text: str  # as printed: "1.95 TB", "53687091200"
    health: str
    status: str
    offset: int


@dataclass(frozen=True)
class Disks:
    command: str  # "get-physicaldisk" or "get-disk"
    disks: tuple[Disk, ...]


def _is_disks(argv: Argv) -> bool:
    return program(argv) in ("get-physicaldisk", "get-disk")


def _size(text: str, offset: int) -> int | None:
    if not text:
        return None
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        raise Garbled(f"size {text[:24]!r} is not `12.5 GB` nor a count of bytes", offset)
    value = float(found[1].replace(",", ".")) * UNITS[found[2] or "B"]
    if value > MAX_BYTES:
        raise Garbled(f"a size of {text[:24]}: more than any disk", offset)
    return int(value)


def _disk(cells: dict[str, str], offset: int) -> Disk:
    media = cells.get("media", "")
    if media and media.lower() not in MEDIA:
        raise Garbled(f"MediaType {media[:20]!r} is not SSD, HDD, SCM or Unspecified", offset)
    size = cells.get("size", "")
    return Disk(
        number=cells.get("number", "")[:10],
        name=cells.get("name", "")[:80],
        serial=cells.get("serial", "")[:80],
        media=MEDIA.get(media.lower(), ""),
        bus=cells.get("bus", "")[:16],
        size_bytes=_size(size, offset),
        size_text=size[:24],
        health=cells.get("health", "")[:16],
        status=cells.get("status", "")[:40],
        offset=offset,
    )


def _rule_at(lines: list[str]) -> int | None:
    """The dashed rule under the header: dashes and blanks, two columns at least."""
    for offset, line in enumerate(lines[:200]):
        text = line.strip()
        if text and set(text) <= {"-", " "} and " " in text and offset > 0:
            return offset
    return None


def _columns(lines: list[str], at: int) -> list[tuple[str, int, int]]:
    """(field, start, end) of each run of the rule; field "" where the header is unknown."""
    runs = [(m.start(), m.end()) for m in _RULE.finditer(lines[at])]
    names: list[list[str]] = [[] for _ in runs]
    above = [lines[at - 1]]
    if at > 1 and lines[at - 1].startswith(" " * 20):  # a header wrapped onto a second line
        above.insert(0, lines[at - 2])
    for line in above:
        for word in _WORD.finditer(line):
            names[_nearest(runs, word.start(), word.end())].append(word[0])
    fields = [FIELDS.get(unfill("".join(n)).lower(), "") for n in names]
    return [(field, start, end) for field, (start, end) in zip(fields, runs, strict=True)]


def _nearest(runs: list[tuple[int, int]], begin: int, end: int) -> int:
    """The run a word overlaps most, else the one nearest to it."""
    best, best_key = 0, (1, 0)
    for i, (left, right) in enumerate(runs):
        overlap = min(right, end) - max(left, begin)
        key = (0, -overlap) if overlap > 0 else (1, -overlap)
        if key < best_key or i == 0:
            best, best_key = i, key
    return best


def _row(line: str, columns: list[tuple[str, int, int]]) -> dict[str, str]:
    runs = [(start, end) for _, start, end in columns]
    spans: dict[int, tuple[int, int]] = {}
    last, last_end = -1, -2
    for word in _WORD.finditer(line):
        begin, end = word.span()
        overlaps = any(min(r, end) > max(left, begin) for left, r in runs)
        if not overlaps and begin == last_end + 1 and last >= 0:
            column = last  # a name's further word, in the gap between two columns
        else:
            column = max(_nearest(runs, begin, end), last)
        held = spans.get(column)
        spans[column] = (held[0], end) if held else (begin, end)
        last, last_end = column, end
    return {
        columns[i][0]: unfill(line[begin:end]) for i, (begin, end) in spans.items() if columns[i][0]
    }


def _table(lines: list[str], at: int) -> list[Disk]:
    columns = _columns(lines, at)
    if not any(field in ("name", "size", "media") for field, _, _ in columns):
        raise Garbled("a table without FriendlyName, MediaType or Size", at)
    out = []
    for offset, line in enumerate(lines[at + 1 :], at + 1):
        if line.strip() and not _RULE.fullmatch(line.strip()):
            out.append(_disk(_row(line, columns), offset))
    return out


def _list(lines: list[str]) -> list[Disk]:
    """`Key : value` blocks: a blank line or a key seen again in the block starts a disk."""
    blocks: list[tuple[dict[str, str], set[str], int]] = []
    fresh = True
    for offset, line in enumerate(lines):
        found = _LIST_KEY.match(line)
        key = found[1].replace(" ", "").lower() if found else ""
        if not line.strip():
            fresh = True
        if key not in FIELDS or found is None:
            continue
        if fresh or key in blocks[-1][1]:
            blocks.append(({}, set(), offset))
            fresh = False
        blocks[-1][0].setdefault(FIELDS[key], found[2].strip())
        blocks[-1][1].add(key)
    return [_disk(cells, offset) for cells, _, offset in blocks]


DISK_COMMANDS = ("Get-PhysicalDisk", "get-physicaldisk", "Get-Disk", "get-disk")


@parser("windows_disks", _is_disks, commands=DISK_COMMANDS)
def windows_disks(section: Section) -> Disks:
    lines = [by_width(line[:MAX_LINE]) for line in section.lines[:MAX_LINES]]
    at = _rule_at(lines)
    disks = _table(lines, at) if at is not None else _list(lines)
    if not disks:
        raise Garbled("no disk: neither a table under a dashed rule nor `Key : value` lines", 0)
    if len(disks) > MAX_DISKS:
        raise Garbled(f"more than {MAX_DISKS} disks", 0)
    return Disks(program(section.argv), tuple(disks))
