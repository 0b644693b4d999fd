"""Solaris swap (`swap -l`, `swap -s`) and the release (`/etc/release`).

Sources: swap(8) of illumos and Oracle Solaris 11.4 (`-l` lists swapfile dev swaplo blocks
free in 512-byte blocks, Solaris 11.4 adds an `encrypted` column; `-s` sums virtual swap
in KB: allocated + reserved = used, available); AIX's `swap -s` counts 4 KB blocks
(allocated = N blocks used = N blocks free = N blocks). /etc/release's first line names
the release: 'Oracle Solaris 10 1/13 s10s_u11wos_24a SPARC', 'Solaris 9 9/05 …',
'Oracle Solaris 11.4 SPARC', or an illumos distribution ('OpenIndiana Hipster 2019.04
(powered by illumos)'), which runs SunOS 5.11 as Solaris 11 does. Real captures in
tests/fixtures/parse/solaris/ (GLPI, facter, ohai, neofetch, psutil, salt, a
monitoring-plugins issue, pfetch).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse.linux_text import first_value_line, human_bytes, meaningful
from rules.parse.registry import Argv, Garbled, Section, parser, reads_file

BLOCK_BYTES = 512  # swap -l's blocks
AIX_BLOCK_KB = 4  # AIX swap -s's blocks
_SWAP_S = re.compile(
    r"total: ([0-9]{1,15})k bytes allocated \+ ([0-9]{1,15})k reserved = "
    r"([0-9]{1,15})k used, ([0-9]{1,15})k available"
)
_AIX_S = re.compile(
    r"allocated = ([0-9]{1,15}) blocks used = ([0-9]{1,15}) blocks free = ([0-9]{1,15}) blocks"
)
_SOLARIS = re.compile(r"(?:(Oracle|Sun) )?Solaris ([0-9]{1,2}(?:\.[0-9]{1,2})?)\b")
_ILLUMOS = ("OpenIndiana", "OmniOS", "SmartOS", "Tribblix", "illumos", "Helios", "DilOS")
SUNOS_5_11 = "11"  # what an illumos distribution runs, as `uname -r` (5.11) says


@dataclass(frozen=True)
class Swap:
    swap_total_kb: int  # -l: the devices' blocks; -s: virtual swap, used + available
    swap_free_kb: int
    devices: tuple[str, ...]  # -l only
    view: str  # 'l' or 's'
    system: str  # 'solaris' or 'aix' (AIX's swap -s)


def _swap(argv: Argv) -> bool:
    if not argv or argv[0].rsplit("/", 1)[-1] != "swap":
        return False
    return any(a.startswith("-") and ("l" in a or "s" in a) for a in argv[1:])


@parser("swap", _swap, commands=("swap",))
def swap(section: Section) -> Swap:
    lines = meaningful(section)
    if not lines:
        raise Garbled("the output is empty", 0)
    if lines[0][1].split()[:2] == ["swapfile", "dev"]:
        return _listing(lines[1:], lines[0][0])
    text = " ".join(w for _o, line in lines for w in line.split())  # wrapped, or padded
    if found := _SWAP_S.search(text):
        used, available = int(found.group(3)), int(found.group(4))
        return Swap(used + available, available, (), "s", "solaris")
    if found := _AIX_S.search(text):
        allocated, free = int(found.group(1)), int(found.group(3))
        return Swap(allocated * AIX_BLOCK_KB, free * AIX_BLOCK_KB, (), "s", "aix")
    raise Garbled(
        "neither swap -l's 'swapfile dev swaplo blocks free' table nor swap -s's "
        "'total: …k bytes allocated' line",
        lines[0][0],
    )


def _listing(rows: list[tuple[int, str]], header: int) -> Swap:
    """swap -l's rows: path dev swaplo blocks free [encrypted]; -h/-k print sizes with a
    unit (4.0G, 4194296K), plain blocks are 512 bytes."""
    devices: list[str] = []
    total = free = 0
    for _offset, line in rows:
        words = line.split()
        blocks = _kb(words[3]) if len(words) >= 5 else None
        left = _kb(words[4]) if len(words) >= 5 else None
        if blocks is None or left is None or not words[0].startswith("/"):
            continue
        devices.append(words[0])
        total, free = total + blocks, free + left
    if not devices:
        raise Garbled("no swap device rows under the swapfile header", header)
    return Swap(total, free, tuple(devices), "l", "solaris")


def _kb(word: str) -> int | None:
    if word.isdigit() and len(word) <= 15:
        return int(word) * BLOCK_BYTES // 1024
    size = human_bytes(word) if word[-1:] in "KMGT" else None
    return None if size is None else size // 1024


# ---------------------------------------------------------------------------------------
# /etc/release


@dataclass(frozen=True)
class SolarisRelease:
    distribution: str  # 'Oracle Solaris', 'Solaris', 'OpenIndiana'
    release: str  # '10', '11.4', '9'; '11' for an illumos distribution (SunOS 5.11)
    line: str  # the release line as printed


@parser("solaris_release", reads_file("/etc/release"), commands=("cat", "more", "head"))
def solaris_release(section: Section) -> SolarisRelease:
    offset, line = first_value_line(section)
    text = line[:200]
    if found := _SOLARIS.search(text):
        vendor = f"{found.group(1)} Solaris" if found.group(1) else "Solaris"
        return SolarisRelease(vendor, found.group(2), text)
    illumos = next((name for name in _ILLUMOS if name in text), None)
    if illumos is not None:
        return SolarisRelease(text.split()[0], SUNOS_5_11, text)
    raise Garbled("not a Solaris or illumos release line ('Oracle Solaris 11.4 SPARC')", offset)
