"""AIX system and CPU parsers: oslevel, prtconf (AIX and Solaris), lparstat -i, smtctl,
bindprocessor -q.

Sources: the IBM AIX 7.2 command references (oslevel, prtconf, lparstat, smtctl) and real
captures in tests/fixtures/parse/aix: Wazuh's and Datadog's AIX LPARs (issue threads), AIX
under QEMU, the GLPI agent's lparstat samples (one from a comma-decimal locale, one with
`key : value` squeezed to single spaces), a POWER8 dedicated LPAR from an AIX 7.2 blog post
and an SMT-8 LPAR from powercampus.de.

`oslevel -s` prints 7200-05-03-2148 (release 7.2, TL 5, SP 3, build week 2148), `oslevel
-r` 7200-05 and plain `oslevel` the base level 7.2.0.0. lparstat -i's Type says how the
LPAR gets its processors and its SMT mode: Shared-SMT-4, Dedicated-SMT (SMT on, thread
count not shown), Dedicated (SMT off). prtconf is one command name on two systems: one
parser reads both and says which it saw.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from rules.parse.aix_devices import nothing_found, to_float, to_int
from rules.parse.registry import Argv, Section, command, parser
from rules.parse.solaris import read_solaris_prtconf

# ---------------------------------------------------------------------------------------
# oslevel


@dataclass(frozen=True)
class OsLevel:
    text: str  # as printed: '7200-05-03-2148' or '7.2.0.0'
    release: str  # '7.2'
    technology_level: int | None  # None from plain `oslevel`
    service_pack: int | None  # only `oslevel -s` prints it
    build: str | None  # '2148': the year and week the service pack was built


_OSLEVEL = re.compile(r"([0-9])([0-9])00-([0-9]{2})(?:-([0-9]{2})-([0-9]{4}))?")
_BASE = re.compile(r"([0-9])\.([0-9])\.[0-9]\.[0-9]")


def _oslevel(argv: Argv) -> bool:
    return bool(argv) and argv[0].rsplit("/", 1)[-1] == "oslevel" and argv[1:] in (
        (), ("-s",), ("-r",),
    )  # fmt: skip


def oslevel_of(line: str) -> OsLevel | None:
    text = line.strip()
    if found := _OSLEVEL.fullmatch(text):
        major, minor, tl, sp, build = found.groups()
        return OsLevel(text, f"{major}.{minor}", int(tl), to_int(sp), build)
    if found := _BASE.fullmatch(text):
        return OsLevel(text, f"{found[1]}.{found[2]}", None, None, None)
    return None


@parser("aix_oslevel", _oslevel, commands=("oslevel",))
def oslevel(section: Section) -> OsLevel:
    level = next((x for x in map(oslevel_of, section.lines) if x), None)
    if level is None:
        raise nothing_found(section, "AIX level (7200-05-03-2148 or 7.2.0.0)")
    return level


# ---------------------------------------------------------------------------------------
# prtconf


@dataclass(frozen=True)
class Prtconf:
    """prtconf's header: AIX's `Key: value` lines or Solaris' first two lines."""

    os: Literal["aix", "solaris"]
    memory_mb: int | None  # AIX 'Memory Size'; Solaris 'Memory size'
    model: str | None = None  # AIX 'System Model': 'IBM,8231-E2D'
    processor_type: str | None = None  # 'PowerPC_POWER7'
    processors: int | None = None  # AIX 'Number Of Processors' (virtual processors)
    clock_mhz: int | None = None
    good_memory_mb: int | None = None
    lpar_number: int | None = None
    lpar_name: str | None = None
    kernel_type: str | None = None
    firmware: str | None = None
    vendor: str | None = None  # Solaris: 'Oracle Corporation'
    platform: str | None = None  # Solaris: 'sun4u', 'sun4v', 'i86pc'
    host_name: str | None = None  # AIX, under 'Network Information': '  Host Name: aix01'
    # AIX, under 'Paging Space Information': '  Total Paging Space: 512MB'
    swap_mb: int | None = None
    values: Mapping[str, str] = field(default_factory=dict)


# A top-level `Key: value` line (the network, paging and device parts are indented or
# marked with + or *).
_AIX_FIELD = re.compile(r"([A-Z][A-Za-z/ -]{0,40}?)\s*:(.*)")


def _aix_fields(section: Section) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in section.lines:
        found = _AIX_FIELD.fullmatch(line)
        if found and found.group(1) != "System Configuration":
            values.setdefault(found.group(1), found.group(2).strip())
    return values


def _leading(text: str | None) -> int | None:
    found = re.match(r"([0-9]{1,12})", text or "")
    return int(found.group(1)) if found else None


def _indented(lines: tuple[str, ...], key: str) -> str | None:
    """The value of an indented `key: value` line of the network or paging space part."""
    for line in lines:
        name, colon, value = line.strip().partition(":")
        if colon and name == key and value.strip():
            return value.strip()
    return None


def _paging_mb(text: str | None) -> int | None:
    found = re.fullmatch(r"([0-9]{1,9})\s*(MB|GB)", text or "")
    if found is None:
        return None
    return int(found.group(1)) * (1024 if found.group(2) == "GB" else 1)


def _aix_prtconf(v: dict[str, str], lines: tuple[str, ...]) -> Prtconf:
    number, _, name = v.get("LPAR Info", "").partition(" ")
    return Prtconf(
        "aix", _leading(v.get("Memory Size")), v.get("System Model"), v.get("Processor Type"),
        to_int(v.get("Number Of Processors")), _leading(v.get("Processor Clock Speed")),
        _leading(v.get("Good Memory Size")), to_int(number), name.strip() or None,
        v.get("Kernel Type"), v.get("Platform Firmware level"), values=v,
        host_name=_indented(lines, "Host Name"),
        swap_mb=_paging_mb(_indented(lines, "Total Paging Space")),
    )  # fmt: skip


_AIX_KEYS = ("System Model", "Processor Type", "Number Of Processors", "Memory Size",
             "Good Memory Size", "Processor Clock Speed", "LPAR Info", "Kernel Type")  # fmt: skip


@parser("prtconf", command("prtconf"), commands=("prtconf",))
def prtconf(section: Section) -> Prtconf:
    solaris = read_solaris_prtconf(section.lines)
    if solaris is not None:
        vendor, platform, memory_mb = solaris
        return Prtconf("solaris", memory_mb, vendor=vendor, platform=platform)
    values = _aix_fields(section)
    if not any(k in values for k in _AIX_KEYS):
        raise nothing_found(section, "prtconf fields (AIX 'Key: value' or Solaris 'Memory size')")
    return _aix_prtconf(values, section.lines)


# ---------------------------------------------------------------------------------------
# lparstat -i


@dataclass(frozen=True)
class Lparstat:
    """`lparstat -i`: how the LPAR gets its processors and memory."""

    type: str | None  # 'Shared-SMT-4', 'Dedicated-SMT', 'Dedicated'
    mode: str | None  # 'Capped', 'Uncapped', 'Donating'
    shared: bool | None  # shared processor pool (entitlement in fractions of a core)
    smt: bool | None  # SMT on, as the Type says
    smt_threads: int | None  # threads per core when the Type shows them (Shared-SMT-4)
    entitled_capacity: float | None  # cores' worth guaranteed
    online_virtual_cpus: int | None
    maximum_virtual_cpus: int | None
    online_memory_mb: int | None
    active_physical_cpus: int | None  # in the whole system
    active_cpus_in_pool: int | None
    node_name: str | None = None
    partition_name: str | None = None
    partition_number: int | None = None
    values: Mapping[str, str] = field(default_factory=dict)


def _colon_fields(lines: tuple[str, ...]) -> dict[str, str]:
    """'Key  Name   : value' → {'Key Name': 'value'} (any spacing around the colon)."""
    values: dict[str, str] = {}
    for line in lines:
        key, colon, value = line.partition(":")
        key = " ".join(key.split())
        if colon and re.fullmatch(r"[A-Za-z][A-Za-z0-9 /()-]{0,60}", key):
            values.setdefault(key, value.strip())
    return values


def _smt_of(kind: str | None) -> tuple[bool | None, int | None]:
    if not kind:
        return None, None
    found = re.search(r"SMT(?:-([0-9]{1,2}))?", kind)
    return bool(found), (to_int(found.group(1)) if found else 1)


@parser("aix_lparstat", command("lparstat", "-i"), commands=("lparstat",))
def lparstat(section: Section) -> Lparstat:
    v = _colon_fields(section.lines)
    kind = v.get("Type")
    if kind is None and "Entitled Capacity" not in v and "Partition Name" not in v:
        raise nothing_found(section, "lparstat -i fields (Type, Entitled Capacity)")
    smt, threads = _smt_of(kind)
    return Lparstat(
        kind, v.get("Mode"), None if kind is None else kind.lower().startswith("shared"),
        smt, threads, to_float(v.get("Entitled Capacity")),
        to_int(v.get("Online Virtual CPUs")), to_int(v.get("Maximum Virtual CPUs")),
        _leading(v.get("Online Memory")), to_int(v.get("Active Physical CPUs in system")),
        to_int(v.get("Active CPUs in Pool")), v.get("Node Name"), v.get("Partition Name"),
        to_int(v.get("Partition Number")), v,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# smtctl


@dataclass(frozen=True)
class Smt:
    """`smtctl` (no arguments): the SMT mode and the threads of each processor."""

    capable: bool | None
    enabled: bool | None
    max_threads: int | None  # 'supports up to 8 SMT threads per processor'
    threads: int | None  # threads per processor now: the most common 'procN has K'
    processors: tuple[str, ...]  # proc0, proc8…: the cores (virtual processors) listed
    logical_cpus: int | None  # 'Bind processor N' lines, when printed
    boot_mode: str | None = None


_SMT_LINES = (
    (re.compile(r"This system is (not )?SMT capable\."), "capable"),
    (re.compile(r"This system supports up to ([0-9]{1,3}) SMT threads? per processor\."), "max"),
    (re.compile(r"SMT is currently (enabled|disabled)\."), "enabled"),
    (re.compile(r"SMT boot mode is (.{1,40}?)\.?"), "boot"),
    (re.compile(r"(proc[0-9]{1,6}) has ([0-9]{1,3}) SMT threads?\."), "proc"),
    (re.compile(r"Bind processor ([0-9]{1,6}) is bound with (proc[0-9]{1,6})"), "bind"),
)


def _smt_matches(lines: tuple[str, ...]) -> list[tuple[str, re.Match[str]]]:
    found = []
    for line in lines:
        for pattern, kind in _SMT_LINES:
            if m := pattern.fullmatch(line.strip()):
                found.append((kind, m))
    return found


@parser("aix_smtctl", lambda argv: command("smtctl")(argv) and len(argv) == 1, ("smtctl",))
def smtctl(section: Section) -> Smt:
    found = _smt_matches(section.lines)
    if not found:
        raise nothing_found(section, "smtctl lines ('SMT is currently …', 'procN has …')")
    first = {kind: m for kind, m in reversed(found)}
    procs = {m[1]: int(m[2]) for kind, m in found if kind == "proc"}
    binds = [m for kind, m in found if kind == "bind"]
    enabled = first["enabled"][1] == "enabled" if "enabled" in first else None
    counts = list(procs.values())
    threads = max(set(counts), key=counts.count) if counts else (1 if enabled is False else None)
    return Smt(
        None if "capable" not in first else first["capable"][1] is None,
        enabled, to_int(first["max"][1]) if "max" in first else None, threads,
        tuple(procs), len(binds) or None, first["boot"][1] if "boot" in first else None,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# bindprocessor -q


@dataclass(frozen=True)
class BindProcessors:
    """`bindprocessor -q`: the logical processors a process can be bound to (the on-line
    SMT threads of every virtual processor)."""

    processors: tuple[int, ...]


_BIND = "The available processors are:"
MAX_LOGICAL_CPUS = 16384  # far beyond the largest POWER system's SMT threads


@parser("aix_bindprocessor", command("bindprocessor", "-q"), commands=("bindprocessor",))
def bindprocessor(section: Section) -> BindProcessors:
    for line in section.lines:
        head, _, numbers = line.strip().partition(":")
        words = numbers.split()
        if f"{head}:" == _BIND and len(words) <= MAX_LOGICAL_CPUS and all(map(_number, words)):
            return BindProcessors(tuple(int(n) for n in words))
    raise nothing_found(section, f"{_BIND!r} line")


def _number(word: str) -> bool:
    return to_int(word) is not None
