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

_LABEL = re.compile(r"Label:\s+(?:'(?P<label>[^']{0,256})'|none)\s+uuid:\s+(?P<uuid>[0-9a-f-]{36})")
_DEVICE = re.compile(
    r"\s{0,16}devid\s{1,8}(?P<devid>\d{1,9})\s+size\s+(?P<size>\S{1,24})\s+used\s+\S{1,24}"
    r"\s+path\s+(?P<path>\S{1,4096})"
)
_SUBVOLUME = re.compile(r"ID (?P<id>\d{1,20}) gen \d{1,20}\s.{0,200}?\bpath (?P<path>.{1,4096})")


@dataclass(frozen=True)
class BtrfsDevice:
    path: str  # /dev/nvme2n1 as printed
    devid: int
    size_bytes: int | None
    uuid: str  # the file system's
    label: str | None


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
        elif row := _DEVICE.match(line):
            size = human_bytes(row.group("size"))
            devices.append(
                BtrfsDevice(row.group("path"), int(row.group("devid")), size, uuid, label)
            )
        elif "Some devices missing" in line and uuid:
            missing.append(uuid)
    require(devices, section, "'devid … path' rows of btrfs filesystem show")
    return BtrfsShow(tuple(devices), tuple(missing))


@parser("btrfs_subvolume_list", _btrfs("subvolume", "list", 1), commands=("btrfs",))
def btrfs_subvolume_list(section: Section) -> BtrfsSubvolumes:
    rows = [
        Subvolume(int(found.group("id")), found.group("path").strip())
        for _offset, line in meaningful(section)
        if (found := _SUBVOLUME.match(line.strip()))
    ]
    require(rows, section, "'ID … path' rows of btrfs subvolume list")
    return BtrfsSubvolumes(tuple(rows))
