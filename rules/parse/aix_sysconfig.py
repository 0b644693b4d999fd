"""AIX's "System configuration:" header of vmstat, iostat, lparstat (not -i), sar and mpstat.

Sources: the IBM AIX 7.2 command references (vmstat, iostat, lparstat, sar, mpstat) and
real captures in tests/fixtures/parse/aix: neofetch #591's and Checkmk's vmstat, Salt's
iostat -dD comment, the Datadog Unix agent's lparstat -m, -H and -E samples, Checkmk's
dedicated LPAR and an admin's SMT-8 shared LPAR (lparstat). Checkmk's AIX agent counts its
CPUs from vmstat's lcpu= the same way (`section_cpu` in agents/check_mk_agent.aix).

Before their statistics these commands print one line of `key=value` words:

    System configuration: lcpu=4 mem=4096MB ent=0.10
    System configuration: type=Shared mode=Uncapped smt=4 lcpu=8 mem=16384MB psize=16 ent=1.00
    System Configuration: lcpu=16 drives=3 paths=6 vdisks=0

lcpu is the logical CPUs on-line (every SMT thread of every virtual processor), smt the
threads per processor (`On` on AIX 5.3 says no number, `Off` one), mem the memory the
OS sees in MB (with Active Memory Expansion the expanded size; tmem is the true memory),
type Shared or Dedicated, mode Capped, Uncapped or Donating, ent the entitled capacity in
cores, psize the processors in the shared pool. Only that line is read: the first line
that opens with the words, within the first HEADER_WITHIN lines, cut to MAX_LINE
characters and MAX_WORDS words; the statistic rows never are. Linux's vmstat, iostat, sar
and mpstat print no such line: their output gives a reading with no header, which no
combiner uses and which proves nothing about the OS.

What the AIX combiner takes from it (`rules.parse.combine_aix`), each after the commands
that say more: logical CPUs after `bindprocessor -q`; SMT threads after smtctl, lparstat
-i and proc0's attributes; memory after prtconf, lparstat -i, mem0 and sys0's realmem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.parse.aix_devices import to_float
from rules.parse.registry import Argv, Section, parser

PROGRAMS = ("vmstat", "iostat", "lparstat", "sar", "mpstat")
HEADER = "system configuration:"
HEADER_WITHIN = 20  # the header comes first, after a blank line or a cut command echo
MAX_LINE = 400  # the longest header seen is under 120 characters
MAX_WORDS = 24  # keys printed: a dozen at most (lparstat -m: lcpu mem mpsz iome iomp ent)
# vmstat's flags whose reports print no header (-v and -s the VMM's counters, -f forks,
# -i interrupts); `lparstat -i` prints its own `Key : value` report.
_NO_HEADER = {"vmstat": frozenset("vsfi"), "lparstat": frozenset("i")}
_COUNT = re.compile(r"[0-9]{1,6}")
_MEMORY = re.compile(r"([0-9]{1,9})(MB|GB)")


@dataclass(frozen=True)
class SysConfig:
    """The header's values; all None where the output has no header (Linux's vmstat)."""

    header: str | None  # the line as printed, stripped
    offset: int | None  # its index in the section's lines
    logical_cpus: int | None  # lcpu
    smt_threads: int | None  # smt=4 → 4, smt=Off → 1, smt=On → None
    smt_on: bool | None
    memory_mb: int | None  # mem
    true_memory_mb: int | None  # tmem, with Active Memory Expansion
    type: str | None  # 'Shared', 'Dedicated'
    mode: str | None  # 'Capped', 'Uncapped', 'Donating'
    entitled_capacity: float | None  # ent
    pool_size: int | None  # psize
    values: Mapping[str, str] = field(default_factory=dict)


NO_HEADER = SysConfig(None, None, None, None, None, None, None, None, None, None, None)


def _matches(argv: Argv) -> bool:
    program = argv[0].rsplit("/", 1)[-1] if argv else ""
    if program not in PROGRAMS:
        return False
    letters = {c for a in argv[1:] if a.startswith("-") and not a.startswith("--") for c in a[1:]}
    return not letters & _NO_HEADER.get(program, frozenset())


def header_of(lines: tuple[str, ...]) -> tuple[int, str] | None:
    """The header line and its offset: the first of the leading lines that opens with
    'System configuration:' (any case)."""
    for offset, line in enumerate(lines[:HEADER_WITHIN]):
        text = line[:MAX_LINE].strip()
        if text[: len(HEADER)].lower() == HEADER:
            return offset, text
    return None


def pairs(header: str) -> dict[str, str]:
    """'System configuration: lcpu=4 mem=4096MB' → {'lcpu': '4', 'mem': '4096MB'}; the
    first of a key printed twice."""
    values: dict[str, str] = {}
    for word in header[len(HEADER) :].split()[:MAX_WORDS]:
        key, equals, value = word.partition("=")
        if equals and key and value:
            values.setdefault(key.lower(), value)
    return values


def _count(text: str | None) -> int | None:
    return int(text) if text is not None and _COUNT.fullmatch(text) else None


def _memory_mb(text: str | None) -> int | None:
    found = _MEMORY.fullmatch(text or "")
    if found is None:
        return None
    return int(found[1]) * (1024 if found[2] == "GB" else 1)


def _smt(text: str | None) -> tuple[int | None, bool | None]:
    if text is None:
        return None, None
    if text.lower() in ("on", "off"):
        return (None, True) if text.lower() == "on" else (1, False)
    threads = _count(text)
    return threads, None if threads is None else threads > 1


@parser("aix_sysconfig", _matches, commands=PROGRAMS)
def sysconfig(section: Section) -> SysConfig:
    found = header_of(section.lines)
    if found is None:
        return NO_HEADER
    offset, header = found
    v = pairs(header)
    threads, smt_on = _smt(v.get("smt"))
    return SysConfig(
        header, offset, _count(v.get("lcpu")), threads, smt_on, _memory_mb(v.get("mem")),
        _memory_mb(v.get("tmem")), v.get("type"), v.get("mode"), to_float(v.get("ent")),
        _count(v.get("psize")), v,
    )  # fmt: skip
