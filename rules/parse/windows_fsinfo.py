"""Parser: `fsutil fsinfo ntfsinfo D:` (and `refsinfo`), a volume's cluster size.

fsutil (learn.microsoft.com, windows-commands/fsutil-fsinfo) prints `Key :   value` lines:

    NTFS Volume Serial Number :        0xda4e131a4e12ef4f
    Bytes Per Sector  :                512
    Bytes Per Cluster :                4096

`Bytes Per Cluster` is the volume's allocation unit: SAS on Windows wants 64 KB for its
data and WORK (`format D: /FS:NTFS /A:64K`), where NTFS defaults to 4 KB. The drive is
the command's operand (`D:`, `d:\\`). Lines are cut to MAX_LINE; at most MAX_LINES read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.registry import Argv, Garbled, Section, parser
from rules.parse.windows_system import program

MAX_LINE = 2000
MAX_LINES = 2000
MAX_CLUSTER = 2 * 1024 * 1024  # NTFS and ReFS clusters are at most 2 MB
_DRIVE = re.compile(r"([A-Za-z]):\\?")
_FSINFO_KEY = re.compile(
    # the number may be followed by fsutil's gloss in brackets: refsinfo's `(=> 8
    # sectors/cluster)`, newer ntfsinfo's `(64 KB)`
    r"\s*(Bytes Per (?:Cluster|Sector))\s*:\s*([0-9,.]{1,12})(?:\s{1,40}\([^()\n]{0,60}\))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class ClusterSize:
    drive: str  # "D"; "" where the command named none
    cluster_bytes: int
    sector_bytes: int | None
    offset: int  # the Bytes Per Cluster line


def _is_fsinfo(argv: Argv) -> bool:
    words = [a.lower() for a in argv[1:3]]
    return program(argv) == "fsutil" and words in (["fsinfo", "ntfsinfo"], ["fsinfo", "refsinfo"])


def _drive(argv: Argv) -> str:
    found = _DRIVE.fullmatch(argv[3]) if len(argv) > 3 else None
    return found[1].upper() if found else ""


@parser("windows_fsinfo", _is_fsinfo, commands=("fsutil", "fsutil.exe"))
def windows_fsinfo(section: Section) -> ClusterSize:
    values: dict[str, tuple[int, int]] = {}
    for offset, raw in enumerate(section.lines[:MAX_LINES]):
        found = _FSINFO_KEY.match(raw[:MAX_LINE])
        if found is None:
            continue
        digits = re.sub(r"[,.]", "", found[2])
        if not digits.isdigit() or not 0 < int(digits) <= MAX_CLUSTER:
            raise Garbled(f"{found[1]} {found[2]!r} is not a size in bytes", offset)
        values.setdefault(found[1].lower(), (int(digits), offset))
    if "bytes per cluster" not in values:
        raise Garbled("no `Bytes Per Cluster :` line (fsutil fsinfo ntfsinfo)", 0)
    cluster, offset = values["bytes per cluster"]
    sector = values.get("bytes per sector")
    return ClusterSize(_drive(section.argv), cluster, sector[0] if sector else None, offset)
