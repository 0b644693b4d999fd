"""Solaris parsers: psrinfo -pv, and the Solaris shape of prtconf (registered, with AIX's
shape, as the one `prtconf` parser in rules.parse.aix_cpu).

Sources: the Oracle Solaris 11.4 psrinfo(8) and prtconf(8) man pages; real captures in
tests/fixtures/parse/solaris (the GLPI agent's samples from a SPARC T1, a V240 and an
E6900, OpenIndiana from a GLPI issue, a SPARC T5 from a FusionInventory issue).

`psrinfo -pv` prints one paragraph per physical processor (chip): 'The physical processor
has 8 cores and 64 virtual processors (0-63)' on Solaris 11 and on a Solaris 10 box that
knows its cores, 'has 2 virtual processors (0 512)' where it does not, and 'The
UltraSPARC-IIIi physical processor has 1 virtual processor (0)' on Solaris 9/10.
`psrinfo -p` prints the chip count alone; `psrinfo -v` and plain `psrinfo` one paragraph
or line per virtual processor.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

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


_CHIP = re.compile(
    r"The (?:(\S{1,40}) )?physical processor has (?:([0-9]{1,4}) cores? and )?"
    r"([0-9]{1,5}) virtual processors?\b.*"
)
_CORE = re.compile(r"The core has [0-9]{1,4} virtual processors?\b.*")
_CLOCK = re.compile(r"\bclock ([0-9]{1,6}) ?MHz")
_VIRTUAL = re.compile(
    r"(?:Status of virtual processor|[0-9]{1,5}\s+(?:on-line|off-line|no-intr|faulted|spare))\b.*"
)


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


def _psrinfo(argv: Argv) -> bool:
    return bool(argv) and argv[0].rsplit("/", 1)[-1] == "psrinfo"


@parser("psrinfo", _psrinfo, commands=("psrinfo",))
def psrinfo(section: Section) -> Psrinfo:
    chips = _chips(section.lines)
    if chips:
        return _summary(chips)
    words = [line.strip() for line in section.lines if line.strip()]
    if len(words) == 1 and re.fullmatch(r"[0-9]{1,5}", words[0]):  # psrinfo -p
        return Psrinfo(int(words[0]), None, None)
    virtual = sum(1 for line in section.lines if _VIRTUAL.fullmatch(line.strip()))
    if virtual:
        return Psrinfo(None, None, virtual)
    offset = next((i for i, line in enumerate(section.lines) if line.strip()), 0)
    raise Garbled("no psrinfo processor lines in this output", offset)


# ---------------------------------------------------------------------------------------
# prtdiag (Oracle Solaris prtdiag(8)): "System Configuration:", "Memory size: 3968
# Megabytes" (a V210: "Memory size: 4GB"), then per-platform tables; on sun4v a
# "Virtual CPUs" table of one line a CPU ending in its status ("on-line").

_PRTDIAG_MEMORY = re.compile(
    r"Memory size:\s{0,8}([0-9]{1,9})\s{0,4}(Megabytes|Gigabytes|MB|GB)\s*", re.IGNORECASE
)


@dataclass(frozen=True)
class Prtdiag:
    memory_mb: int | None
    cpus_online: int | None  # lines of a CPU table whose status is on-line


@parser("prtdiag", lambda argv: bool(argv) and argv[0].rsplit("/", 1)[-1] == "prtdiag",
        commands=("prtdiag",))  # fmt: skip
def prtdiag(section: Section) -> Prtdiag:
    memory: int | None = None
    online = 0
    seen = False
    for line in section.lines:
        text = line.strip()
        if found := _PRTDIAG_MEMORY.fullmatch(text):
            size = int(found.group(1))
            memory = size * 1024 if found.group(2).lower() in ("gigabytes", "gb") else size
        seen = seen or text.startswith("System Configuration:")
        if text.endswith("on-line") and text[:1].isdigit():
            online += 1
    if memory is None and not seen:
        raise Garbled("no 'System Configuration:' or 'Memory size:' line of prtdiag", 0)
    return Prtdiag(memory, online or None)
