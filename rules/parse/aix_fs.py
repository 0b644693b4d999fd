"""AIX file system and paging space parsers: lsfs (-c, -cq, -l, plain) and lsps (-s, -a).

Sources: the IBM AIX 7.2 command references (lsfs, lsps); real captures in
tests/fixtures/parse/aix (the GLPI agent's lsfs and lsps samples from AIX 4.3 to 6.1, IBM's
ansible-power-aix test data).

`lsfs -c` prints a `#MountPoint:Device:Vfs:Nodename:Type:Size:Options:AutoMount:Acct`
header and one colon-separated record a file system (`-q` adds a parenthesised line of
LV and block sizes after each); `lsfs` and `lsfs -l` a table of Name, Nodename, Mount Pt,
VFS, Size, Options, Auto, Accounting, `--` for an empty column, an NFS node name running
past its column. Sizes are 512-byte blocks. lsfs lists /etc/filesystems: what is
configured, mounted or not. `lsps -s` prints the total paging space and how much is used
('512MB 26%', the percentage sometimes missing); `lsps -a` one row per paging space.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.aix_devices import nothing_found, to_int
from rules.parse.aix_lvm import program
from rules.parse.registry import Argv, Section, parser

BLOCK_BYTES = 512  # lsfs sizes are in 512-byte blocks
_COLON_HEADER = "#MountPoint:"
_TABLE_HEADER = re.compile(r"\s*Name\s+Nodename\s+Mount Pt\s+VFS\s+Size\b.*")


@dataclass(frozen=True)
class FsRow:
    mount: str
    device: str  # /dev/hd2, or the exported path of an NFS file system
    vfs: str  # jfs2, jfs, nfs, procfs …
    nodename: str | None  # the NFS server; None for a local file system
    size_kb: int | None  # None where lsfs prints none (NFS, procfs)
    options: str | None


def _size_kb(text: str) -> int | None:
    blocks = to_int(text)
    return None if blocks is None else blocks * BLOCK_BYTES // 1024


def _colon_row(names: list[str], line: str) -> FsRow | None:
    """A `-c` record, read by the header's own field names."""
    row = dict(zip(names, line.split(":"), strict=False))
    mount, device, vfs = row.get("MountPoint", ""), row.get("Device", ""), row.get("Vfs", "")
    if not mount.startswith("/") or not device or not vfs:
        return None
    node = row.get("Nodename") or None
    return FsRow(mount, device, vfs, node, _size_kb(row.get("Size", "")), row.get("Options"))


def _table_row(line: str) -> FsRow | None:
    words = line.split()
    if len(words) < 7 or not words[2].startswith("/"):
        return None
    node = None if words[1] == "--" else words[1]
    options = words[5] if len(words) >= 8 else None
    return FsRow(words[2], words[0], words[3], node, _size_kb(words[4]), options)


@dataclass(frozen=True)
class FileSystems:
    """`lsfs`: the file systems /etc/filesystems configures."""

    rows: tuple[FsRow, ...]


@parser("aix_lsfs", lambda argv: program(argv, "lsfs"), commands=("lsfs",))
def lsfs(section: Section) -> FileSystems:
    rows: list[FsRow] = []
    names: list[str] | None = None
    table = False
    for line in section.lines:
        if line.startswith(_COLON_HEADER):
            names, table = line[1:].strip().split(":"), False
        elif _TABLE_HEADER.fullmatch(line):
            names, table = None, True
        elif names is not None and not line.startswith("("):
            rows += [r for r in (_colon_row(names, line),) if r]
        elif table:
            rows += [r for r in (_table_row(line),) if r]
    if not rows and any(line.strip() for line in section.lines):
        raise nothing_found(section, "lsfs records (a '#MountPoint:' header or the table)")
    return FileSystems(tuple(rows))


# ---------------------------------------------------------------------------------------
# lsps -s, lsps -a


@dataclass(frozen=True)
class PagingSpace:
    total_mb: int
    used_pct: int | None  # None where lsps printed no percentage
    spaces: tuple[str, ...] = ()  # hd6, paging00 … (from -a)


_SIZE = re.compile(r"([0-9]{1,9})(MB|GB)")


def _mb(word: str) -> int | None:
    found = _SIZE.fullmatch(word)
    if found is None:
        return None
    return int(found.group(1)) * (1024 if found.group(2) == "GB" else 1)


def _lsps(argv: Argv) -> bool:
    return program(argv, "lsps") and bool({"-s", "-a"} & set(argv[1:]))


def _summary(lines: tuple[str, ...]) -> PagingSpace | None:
    for line in lines:
        words = line.split()
        total = _mb(words[0]) if words else None
        if total is not None and len(words) <= 2:
            used = to_int(words[1].rstrip("%")) if len(words) == 2 else None
            return PagingSpace(total, used)
    return None


def _spaces(lines: tuple[str, ...]) -> PagingSpace | None:
    """`lsps -a`: Page Space, Physical Volume, Volume Group, Size, %Used, …"""
    rows = [w for w in (line.split() for line in lines) if len(w) >= 5 and _mb(w[3])]
    if not rows:
        return None
    total = sum(_mb(w[3]) or 0 for w in rows)
    return PagingSpace(total, None, tuple(dict.fromkeys(w[0] for w in rows)))


@parser("aix_lsps", _lsps, commands=("lsps",))
def lsps(section: Section) -> PagingSpace:
    found = _summary(section.lines) if "-s" in section.argv else _spaces(section.lines)
    if found is None:
        raise nothing_found(section, "paging space sizes ('512MB')")
    return found
