"""Solaris parsers: psrinfo (its physical view `-p`/`-pv` and its virtual one `-v`/plain),
prtdiag, and the Solaris shape of prtconf (registered, with AIX's shape, as the one
`prtconf` parser in rules.parse.aix_cpu). Importing this module registers the ZFS, swap and
release parsers too (solaris_zfs, solaris_zpool, solaris_system).

Sources: the Oracle Solaris 11.4 psrinfo(8), prtconf(8) and prtdiag(8) man pages; real
captures in tests/fixtures/parse/solaris (the GLPI agent's samples from a SPARC T1, a V240
and an E6900, OpenIndiana from a GLPI issue, a SPARC T5 from a FusionInventory issue,
gopsutil's x86 testdata).

`psrinfo -pv` prints one paragraph per physical processor (chip): 'The physical processor
has 8 cores and 64 virtual processors (0-63)' on Solaris 11 and on a Solaris 10 box that
knows its cores, 'has 2 virtual processors (0 512)' where it does not, and 'The
UltraSPARC-IIIi physical processor has 1 virtual processor (0)' on Solaris 9/10.
`psrinfo -p` prints the chip count alone. `psrinfo -v` prints one paragraph per virtual
processor ('Status of virtual processor 0 as of: …' then 'on-line since …'), plain
`psrinfo` one line each ('0  on-line  since …'). The two views are two parsers, so a paste
holding both keeps both: the on-line count from one, cores from the other.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rules.parse import solaris_system, solaris_zfs, solaris_zpool  # noqa: F401  (registers)
from rules.parse.registry import Argv, Garbled, Section, parser

# ---------------------------------------------------------------------------------------
# prtconf (first lines)

# The name ends on a non-blank, so the blank run after it is scanned once, not per length.
_SYSTEM = re.compile(r"System Configuration:\s++(.{0,79}?\S)\s++(\S{1,20})")
_MEMORY = re.compile(r"Memory size:\s+([0-9]{1,9})\s+(Megabyte|Gigabyte|Kilobyte)s?\b.*")


SolarisHeader = tuple[str | None, str | None, int | None]


def read_solaris_prtconf(lines: Sequence[str]) -> SolarisHeader | None:
    """(vendor, platform, memory MB) from `System Configuration:` and `Memory size:`, or
    None when neither line is there (then it is not Solaris' prtconf)."""
    vendor = platform = None
    memory_mb: int | None = None
    seen = False
    for line in lines[:20]:
        if found := _SYSTEM.fullmatch(line.strip()):
            vendor, platform, seen = found.group(1).strip(), found.group(2), True
        elif found := _MEMORY.fullmatch(line.strip()):
            size, unit = int(found.group(1)), found.group(2)
            memory_mb = {"Gigabyte": size * 1024, "Kilobyte": size // 1024}.get(unit, size)
            seen = True
    return (vendor, platform, memory_mb) if seen else None


# ---------------------------------------------------------------------------------------
# psrinfo


@dataclass(frozen=True)
class Chip:
    cores: int | None  # None where psrinfo prints no cores
    virtual_processors: int
    model: str | None = None  # 'SPARC-T5 (chipid 0, clock 3600 MHz)' or 'UltraSPARC-IIIi'
    clock_mhz: int | None = None
    cores_printed: bool = True  # False: cores (if any) counted from `The core has` lines


@dataclass(frozen=True)
class Psrinfo:
    chips: int | None
    cores: int | None  # the sum over chips; None unless every chip printed its cores
    virtual_processors: int | None
    chip_list: tuple[Chip, ...] = ()
    online: int | None = None  # `psrinfo -v` or plain: the virtual processors on-line


_CHIP = re.compile(
    r"The (?:(\S{1,40}) )?physical processor has (?:([0-9]{1,4}) cores? and )?"
    r"([0-9]{1,5}) virtual processors?\b.*"
)
_CORE = re.compile(r"The core has [0-9]{1,4} virtual processors?\b.*")
_CLOCK = re.compile(r"\bclock ([0-9]{1,6}) ?MHz")
_STATUS = re.compile(r"(?:[0-9]{1,5}\s+)?(on-line|off-line|no-intr|faulted|spare|powered-off)\b.*")
_HEADING = re.compile(r"Status of virtual processor [0-9]{1,5}\b.*")


def _described(chip: Chip, line: str) -> Chip:
    """A chip's first indented line names its model and clock; `The core has` lines count
    its cores where the chip line did not."""
    text = line.strip()
    if _CORE.fullmatch(text):
        return chip if chip.cores_printed else replace(chip, cores=(chip.cores or 0) + 1)
    if chip.model is not None:
        return chip
    clock = _CLOCK.search(text)
    return replace(chip, model=text, clock_mhz=int(clock[1]) if clock else None)


def _chips(lines: Sequence[str]) -> list[Chip]:
    chips: list[Chip] = []
    for line in lines:
        if found := _CHIP.fullmatch(line.strip()):
            model, cores, virtual = found.groups()
            printed = cores is not None
            chips.append(Chip(to_count(cores), int(virtual), model, None, printed))
        elif chips and line[:1].isspace() and line.strip():
            chips[-1] = _described(chips[-1], line)
    return chips


def to_count(text: str | None) -> int | None:
    return int(text) if text else None


def _summary(chips: list[Chip]) -> Psrinfo:
    cores = [c.cores for c in chips]
    total = None if None in cores else sum(c for c in cores if c is not None)
    return Psrinfo(len(chips), total, sum(c.virtual_processors for c in chips), tuple(chips))


def _psrinfo(physical: bool) -> Callable[[Argv], bool]:
    """`psrinfo -p…` (chips) or `psrinfo`/`-v` (virtual processors)."""

    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] != "psrinfo":
            return False
        return any(a.startswith("-") and "p" in a for a in argv[1:]) == physical

    return match


@parser("psrinfo", _psrinfo(physical=True), commands=("psrinfo",))
def psrinfo(section: Section) -> Psrinfo:
    chips = _chips(section.lines)
    if chips:
        return _summary(chips)
    words = [line.strip() for line in section.lines if line.strip()]
    if len(words) == 1 and re.fullmatch(r"[0-9]{1,5}", words[0]):  # psrinfo -p
        return Psrinfo(int(words[0]), None, None)
    offset = next((i for i, line in enumerate(section.lines) if line.strip()), 0)
    raise Garbled("no 'The physical processor has …' lines of psrinfo -p", offset)


@parser("psrinfo_virtual", _psrinfo(physical=False), commands=("psrinfo",))
def psrinfo_virtual(section: Section) -> Psrinfo:
    """Every virtual processor and how many are on-line: `psrinfo -v` states each in the
    line after its heading, plain `psrinfo` on its own line."""
    statuses: list[str | None] = []
    for line in section.lines:
        text = line.strip()
        found = _STATUS.fullmatch(text)
        if _HEADING.fullmatch(text):
            statuses.append(None)  # `-v`: the status is on the next line
        elif found and statuses and statuses[-1] is None:
            statuses[-1] = found.group(1)
        elif found and text[:1].isdigit():
            statuses.append(found.group(1))
    if not statuses:
        offset = next((i for i, line in enumerate(section.lines) if line.strip()), 0)
        raise Garbled("no virtual processor lines of psrinfo ('0  on-line  since …')", offset)
    online = statuses.count("on-line")
    return Psrinfo(None, None, len(statuses), online=online)


# ---------------------------------------------------------------------------------------
# prtdiag (Oracle Solaris prtdiag(8)): "System Configuration:", "Memory size: 3968
# Megabytes" (a V210: "Memory size: 4GB"), then per-platform tables: on sun4v a "Virtual
# CPUs" table of one line a CPU ending in its status ("on-line"), on a V210 a CPUs table
# with a Status column, on a V890 or an M4000 a CPUs table listing each row's CPU ids.

_PRTDIAG_MEMORY = re.compile(
    r"Memory size:\s{0,8}([0-9]{1,9})\s{0,4}(Megabytes|Gigabytes|MB|GB)\s*", re.IGNORECASE
)


# A sun4u CPUs table row's CPU ids: '0, 16' (V890, dual-core) or '0,   1, …,   7' (M4000).
_ID_LIST = re.compile(r"(?<![0-9.,])[0-9]{1,4}(?:,\s{0,8}[0-9]{1,4})+(?![0-9.])")


@dataclass(frozen=True)
class Prtdiag:
    memory_mb: int | None
    cpus_online: int | None  # CPUs table rows on-line, or the ids its sun4u rows list


@parser("prtdiag", lambda argv: bool(argv) and argv[0].rsplit("/", 1)[-1] == "prtdiag",
        commands=("prtdiag",))  # fmt: skip
def prtdiag(section: Section) -> Prtdiag:
    memory: int | None = None
    online = 0
    seen = in_cpus = False
    for line in section.lines:
        text = line.strip()
        if found := _PRTDIAG_MEMORY.fullmatch(text):
            size = int(found.group(1))
            memory = size * 1024 if found.group(2).lower() in ("gigabytes", "gb") else size
        seen = seen or text.startswith("System Configuration:")
        if text.startswith("="):
            in_cpus = "CPUs" in text
        elif text[:1].isdigit() and "on-line" in text.split():
            online += 1
        elif in_cpus and (ids := _ID_LIST.search(text)):
            online += ids.group().count(",") + 1  # sun4u: '0, 16' or '0,   1, … 7' a row
    if memory is None and not seen:
        raise Garbled("no 'System Configuration:' or 'Memory size:' line of prtdiag", 0)
    return Prtdiag(memory, online or None)
