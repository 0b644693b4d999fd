"""Parsers of `btrfs filesystem show` and `btrfs subvolume list` (btrfs-progs).

`btrfs filesystem show [path]` prints, per file system, "Label: 'x'  uuid: U" (or
"Label: none"), "Total devices N FS bytes used S" and one "devid ID size S used S path P"
row per device; a degraded one adds "*** Some devices missing". `btrfs subvolume list`
prints "ID N gen N [cgen N] [parent N] top level N [otime T] path P" per subvolume.
btrfs takes any unique prefix of a command group and command (`btrfs fi sh`,
`btrfs su li`). Captures: util-linux, btrfs-progs, dysk, httm and snapper issue threads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import human_bytes, meaningful, require
from rules.parse.registry import Argv, Match, Section, parser

# The uuid as printed, or as a reporter masked it ("<REDACTED>").
_LABEL = re.compile(r"Label:\s+(?:'(?P<label>[^']{0,256})'|none)\s+uuid:\s+(?P<uuid>\S{1,64})")
# A missing device prints "path  MISSING" (btrfs-progs 6) or "path /dev/vdb MISSING".
_DEVICE = re.compile(
    r"\s{0,16}devid\s{1,8}(?P<devid>\d{1,9})\s+size\s+(?P<size>\S{1,24})\s+used\s+\S{1,24}"
    r"\s+path\s+(?P<path>\S{1,4096})(?P<missing>\s+MISSING)?\s*"
)
_SUBVOLUME = re.compile(r"ID (?P<id>\d{1,20}) gen \d{1,20}\s.{0,200}?\bpath (?P<path>.{1,4096})")
# `-t`: a header ("ID gen [cgen] [parent] top level [otime] path"), a row of dashes, then
# the values in its columns; the path is the last column.
_TABLE_ROW = re.compile(
    r"(?P<id>\d{1,20})\s+\d{1,20}(?:\s+\d{1,20}){1,3}"
    r"(?:\s+\d{4}-\d\d-\d\d\s+\d\d:\d\d:\d\d)?\s+(?P<path>\S.{0,4095})"
)


@dataclass(frozen=True)
class BtrfsDevice:
    path: str  # /dev/nvme2n1 as printed; "MISSING" where btrfs-progs prints no path
    devid: int
    size_bytes: int | None
    uuid: str  # the file system's
    label: str | None
    missing: bool = False  # the row ends in MISSING: the device is not there


@dataclass(frozen=True)
class BtrfsShow:
    devices: tuple[BtrfsDevice, ...]  # every file system's, in the printed order
    missing: tuple[str, ...]  # the uuids of file systems printed with devices missing


@dataclass(frozen=True)
class Subvolume:
    id: int
    path: str


@dataclass(frozen=True)
class BtrfsSubvolumes:
    subvolumes: tuple[Subvolume, ...]


def _btrfs(group: str, command: str, shortest: int) -> Match:
    """`btrfs GROUP COMMAND …` with each word any prefix btrfs accepts of its name."""

    def match(argv: Argv) -> bool:
        if len(argv) < 3 or argv[0].rsplit("/", 1)[-1] != "btrfs":
            return False
        return (
            len(argv[1]) >= 2
            and group.startswith(argv[1])
            and (len(argv[2]) >= shortest and command.startswith(argv[2]))
        )

    return match


@parser("btrfs_fi_show", _btrfs("filesystem", "show", 2), commands=("btrfs",))
def btrfs_fi_show(section: Section) -> BtrfsShow:
    devices: list[BtrfsDevice] = []
    missing: list[str] = []
    uuid, label = "", None
    for _offset, line in meaningful(section):
        if head := _LABEL.match(line.strip()):
            uuid, label = head.group("uuid"), head.group("label")
        elif row := _DEVICE.fullmatch(line):
            devices.append(_device(row, uuid, label))
            if devices[-1].missing and uuid not in missing:
                missing.append(uuid)
        elif "Some devices missing" in line and uuid and uuid not in missing:
            missing.append(uuid)
    require(devices, section, "'devid … path' rows of btrfs filesystem show")
    return BtrfsShow(tuple(devices), tuple(missing))


def _device(row: re.Match[str], uuid: str, label: str | None) -> BtrfsDevice:
    gone = row.group("missing") is not None or row.group("path") == "MISSING"
    size = human_bytes(row.group("size"))
    return BtrfsDevice(row.group("path"), int(row.group("devid")), size, uuid, label, gone)


@parser("btrfs_subvolume_list", _btrfs("subvolume", "list", 1), commands=("btrfs",))
def btrfs_subvolume_list(section: Section) -> BtrfsSubvolumes:
    lines = meaningful(section)
    table = len(lines) > 1 and lines[0][1].split()[:2] == ["ID", "gen"]
    if table:
        found = [_TABLE_ROW.fullmatch(line.strip()) for _offset, line in lines[1:]]
    else:
        found = [_SUBVOLUME.fullmatch(line.strip()) for _offset, line in lines]
    rows = [Subvolume(int(f.group("id")), f.group("path").strip()) for f in found if f]
    require(rows, section, "'ID … path' rows of btrfs subvolume list")
    return BtrfsSubvolumes(tuple(rows))
