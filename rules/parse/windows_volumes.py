"""Parsers: Windows' drives, from PowerShell's `Get-Volume` and `wmic logicaldisk get …`.

`Get-Volume` (learn.microsoft.com, powershell/module/storage/get-volume) prints a table:

    DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus
    ----------- ------------ -------------- --------- ------------ -----------------
    D           SASWORK      NTFS           Fixed     Healthy      OK

and then `SizeRemaining      Size` (`    499.87 GB 499.98 GB`, cut here to fit): its
text columns left-aligned under the dashes, the sizes right-aligned at the line's end
in PowerShell's binary units (1 GB = 2^30 bytes); a volume with no drive letter (a recovery
partition) has a blank first column. `wmic logicaldisk get DeviceID,DriveType,FileSystem,
FreeSpace,Size,VolumeName` prints its columns in alphabetical order, each value where its
header word starts, sizes in bytes, DriveType 3 for a fixed local disk (2 removable, 4
network, 5 CD); PowerShell's `Get-CimInstance Win32_LogicalDisk` the same columns in its
table (DeviceID DriveType ProviderName VolumeName Size FreeSpace, a dashed rule under them,
each column as wide as its widest value; no FileSystem among them, so a drive's file
system is then not known, None, rather than none, ""). Lines are cut to MAX_LINE before
any pattern runs, and their columns taken in display cells, as the console aligns them (a
label of East Asian wide characters, 新加卷, is six cells: rules.parse.columns); at most
MAX_VOLUMES rows. A Get-Volume row always ends with its two
sizes, so a last row without them, below rows that have them, is a paste cut inside it:
it is left out and the rows above are read.

The same drives printed as a list are read by their keys: Get-WmiObject's default view of
Win32_LogicalDisk and any `| Format-List` (`DeviceID     : C:`, a block a drive, a blank
line between), and wmic's `/format:list` (`DeviceID=C:`); a block ends at a blank line or
where its first key comes again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.columns import by_width, unfill
from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.windows_system import program

MAX_LINE = 2000
MAX_VOLUMES = 1024
MAX_BYTES = 10**18
MAX_DIGITS = 20  # a size in bytes has at most 19: a longer run is read where it is cut
UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3, "TB": 1024**4, "PB": 1024**5}
WMIC_TYPES = {"2": "Removable", "3": "Fixed", "4": "Network", "5": "CD-ROM", "6": "RAM disk"}
_SIZE = r"([0-9]{1,15}(?:[.,][0-9]{1,6})?) ?(P?B|[KMGT]B)"  # `499.98 GB`: number, unit
_UNIT_SIZE = re.compile(_SIZE)
# A Get-Volume row's SizeRemaining and Size, only from a number's first digit: a search
# then tries each digit run once.
_SIZES = re.compile(rf"(?<![0-9.,]){_SIZE}\s{{1,40}}{_SIZE}$")
_LETTER = re.compile(r"([A-Za-z]):?")
# A list view's line: `DeviceID     : C:` (Format-List), `DeviceID=C:` (wmic /format:list).
_LIST_LINE = re.compile(r"([A-Za-z_][A-Za-z0-9_]{0,40}) {0,40}(?::|=)(?: {0,40}(.{0,500}))?")
# Get-Volume's DriveType words: found among the row's words where a long label has pushed
# the columns right of their headers.
DRIVE_TYPES = {"fixed": "Fixed", "removable": "Removable", "cd-rom": "CD-ROM",
               "network": "Network", "unknown": "Unknown"}  # fmt: skip


@dataclass(frozen=True)
class Volume:
    letter: str  # "D"; "" for a volume without one
    label: str
    filesystem: str | None  # as printed: "NTFS", "ReFS", "FAT32", ""; None: no such column
    drive_type: str  # "Fixed", "Removable", "CD-ROM", "Network", "" where not printed
    size_bytes: int | None
    free_bytes: int | None
    size_text: str  # as printed: "499.98 GB", "536870907904"
    offset: int
    health: str = (
        ""  # Get-Volume's HealthStatus and OperationalStatus: "Warning, Full Repair Needed"
    )


def _is_volumes(argv: Argv) -> bool:
    if program(argv) == "wmic":
        return len(argv) > 1 and argv[1].lower() in ("logicaldisk", "volume")
    cim = ("get-ciminstance", "get-wmiobject", "gcim", "gwmi")
    if program(argv) in cim:
        return "win32_logicaldisk" in (a.lower() for a in argv[1:])
    return program(argv) == "get-volume"


def _columns(line: str) -> list[tuple[str, int]]:
    return [(m[0].lower(), m.start()) for m in re.finditer(r"\S+", line)]


def _cells(line: str, columns: list[tuple[str, int]]) -> dict[str, str]:
    """Each column's text: from where its header starts to where the next one starts. A
    number that starts left of its header's start (a right-aligned 13-digit Size under a
    header placed for 12) is its column's whole: the boundary moves to the number's start."""
    starts = [_number_start(line, start) for _, start in columns]
    ends = [*starts[1:], len(line)]
    return {
        name: unfill(line[start:end]).strip()
        for (name, _), start, end in zip(columns, starts, ends, strict=True)
    }


def _number_start(line: str, at: int) -> int:
    """Where the run of digits through `at` starts, when one crosses it; else `at`."""
    if not 0 < at < len(line) or not line[at].isdigit() or not line[at - 1].isdigit():
        return at
    start, stop = at, max(0, at - MAX_DIGITS)
    while start > stop and line[start - 1].isdigit():
        start -= 1
    return start if start == 0 or line[start - 1] == " " else at


def _bytes(number: str, unit: str, offset: int) -> int:
    value = float(number.replace(",", ".")) * UNITS[unit]
    if value > MAX_BYTES:
        raise Garbled(f"a size of {number} {unit}: more than any volume", offset)
    return int(value)


def _get_volume_row(line: str, columns: list[tuple[str, int]], offset: int) -> Volume:
    sizes = _SIZES.search(line.rstrip())
    if sizes is None:
        raise Garbled("a Get-Volume row without its SizeRemaining and Size (`12.5 GB`)", offset)
    left = [(n, s) for n, s in columns if n not in ("sizeremaining", "size")]
    cells = _cells(line[: sizes.start()], left)
    letter = cells.get("driveletter", "")
    if letter and not _LETTER.fullmatch(letter):
        raise Garbled(f"drive letter {letter[:20]!r} is not a letter", offset)
    return Volume(
        letter=letter[:1].upper(),
        label=cells.get("friendlyname", cells.get("filesystemlabel", ""))[:64],
        filesystem=_filesystem(cells, "filesystemtype", "filesystem"),
        drive_type=_drive_type(cells.get("drivetype", ""), line[: sizes.start()]),
        size_bytes=_bytes(sizes[3], sizes[4], offset),
        free_bytes=_bytes(sizes[1], sizes[2], offset),
        size_text=f"{sizes[3]} {sizes[4]}",
        offset=offset,
        health=_health(cells),
    )


def _health(cells: dict[str, str]) -> str:
    """HealthStatus and OperationalStatus where either is not the healthy one, else ''."""
    status = (cells.get("healthstatus", ""), cells.get("operationalstatus", ""))
    unwell = status[0] not in ("", "Healthy") or status[1] not in ("", "OK")
    return ", ".join(s for s in status if s)[:80] if unwell else ""


def _filesystem(cells: dict[str, str], *names: str) -> str | None:
    """The file system cell as printed ("" for a drive with none); None where the listing
    has no such column (`Get-CimInstance Win32_LogicalDisk`'s default table)."""
    found = next((cells[name] for name in names if name in cells), None)
    return None if found is None else found[:16]


def _drive_type(cell: str, left: str) -> str:
    """The DriveType cell, or the last DriveType word of the row where the cell is not one."""
    if cell.lower() in DRIVE_TYPES or not cell:
        return DRIVE_TYPES.get(cell.lower(), "")
    words = [DRIVE_TYPES[w.lower()] for w in left.split() if w.lower() in DRIVE_TYPES]
    return words[-1] if words else cell[:16]


def _number(text: str, offset: int) -> int | None:
    if not text:
        return None
    if not text.isdigit() or len(text) > 19 or int(text) > MAX_BYTES:
        raise Garbled(f"{text[:24]!r} is not a size in bytes", offset)
    return int(text)


def _wmic_row(line: str, columns: list[tuple[str, int]], offset: int) -> Volume:
    return _volume(_cells(line, columns), offset)


def _volume(cells: dict[str, str], offset: int) -> Volume:
    """A drive from its cells by name, a table row's or a list block's: sizes in bytes
    (wmic, WMI) or with a unit (`126.45 GB`), DriveType a number (WMI) or a word."""
    device = cells.get("deviceid", cells.get("driveletter", cells.get("caption", "")))
    if device and not _LETTER.fullmatch(device):
        raise Garbled(f"DeviceID {device[:20]!r} is not a drive (`D:`)", offset)
    kind = cells.get("drivetype", "")
    size = cells.get("size", cells.get("capacity", ""))
    label = ("volumename", "label", "friendlyname", "filesystemlabel")
    return Volume(
        letter=device[:1].upper(),
        label=next((cells[k] for k in label if k in cells), "")[:64],
        filesystem=_filesystem(cells, "filesystemtype", "filesystem"),
        drive_type=WMIC_TYPES.get(kind) or DRIVE_TYPES.get(kind.lower(), kind[:16]),
        size_bytes=_size(size, offset),
        free_bytes=_size(cells.get("freespace", cells.get("sizeremaining", "")), offset),
        size_text=size[:24],
        offset=offset,
        health=_health(cells),
    )


def _size(text: str, offset: int) -> int | None:
    with_unit = _UNIT_SIZE.fullmatch(text)
    if with_unit is not None:
        return _bytes(with_unit[1], with_unit[2], offset)
    return _number(text, offset)


def _list(lines: list[str]) -> list[Volume]:
    """`Key : value` (Format-List, Get-WmiObject's default view) or `Key=value` (wmic's
    /format:list) lines, a drive a block: a blank line or its first key again ends it."""
    out: list[Volume] = []
    cells: dict[str, str] = {}
    start = 0
    for offset, line in enumerate([*lines, ""]):
        found = _LIST_LINE.fullmatch(line.strip())
        key = found[1].lower() if found else ""
        if cells and (not found or key in cells):
            if len(out) == MAX_VOLUMES:
                raise Garbled(f"more than {MAX_VOLUMES} volumes", start)
            out.append(_volume(cells, start))
            cells = {}
        if found:
            start = offset if not cells else start
            cells[key] = unfill(found[2]).strip()
    return out


# The keys a list view of drives opens a block with (Get-WmiObject, Format-List, wmic).
LIST_FIRST = ("deviceid", "driveletter", "caption", "objectid", "uniqueid", "filesystemlabel",
              "__genus", "access", "availability")  # fmt: skip


def _header(lines: list[str]) -> int | None:
    """The table's header line; None where the drives are listed one key a line."""
    for offset, line in enumerate(lines):
        if (found := _LIST_LINE.fullmatch(line.strip())) and found[1].lower() in LIST_FIRST:
            return None
        words = {name for name, _ in _columns(line)}
        if words & {"driveletter", "deviceid"} or {"filesystem", "size"} <= words:
            return offset
    raise Garbled("no header naming DriveLetter or DeviceID", 0)


VOLUME_COMMANDS = ("Get-Volume", "get-volume", "wmic", "WMIC", "wmic.exe", "Get-CimInstance",
                   "get-ciminstance", "Get-WmiObject", "get-wmiobject", "gcim", "gwmi")  # fmt: skip


@parser("windows_volumes", _is_volumes, commands=VOLUME_COMMANDS)
def windows_volumes(section: Section) -> tuple[Volume, ...]:
    lines = [by_width(line[:MAX_LINE]) for line in section.lines]
    at = _header(lines[:200])
    if at is None:
        return tuple(_list(lines))
    columns = _columns(lines[at])
    get_volume = program(section.argv) == "get-volume"
    read = _get_volume_row if get_volume else _wmic_row
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    out: list[Volume] = []
    for offset, line in enumerate(lines[at + 1 :], at + 1):
        if not line.strip() or set(line.strip()) <= {"-", " "}:
            continue
        if get_volume and out and offset == last and _SIZES.search(line.rstrip()) is None:
            break  # the paste stops inside its last row: the rows above stand
        if len(out) == MAX_VOLUMES:
            raise Garbled(f"more than {MAX_VOLUMES} volumes", offset)
        out.append(read(line, columns, offset))
    return tuple(out)
