"""AIX tunables parsers: ioo and vmo (-a, -o, -L, -x; restricted ones with -F), vmstat -v.

Sources: the IBM AIX 7.2 command references (ioo, vmo, vmstat) and performance management
pages ("Values for minperm and maxperm parameters", "VMM page replacement tuning", "File
system buffer tuning"); real captures in tests/fixtures/parse/aix (an AIX 6.1 box's ioo -a
and ioo -L from ahix.fr, IBM's vmo -a sample with n/a values, filtered vmo -a lines from an
admin's notes, a shared LPAR's vmstat -v from a neofetch issue, and the vmo -L / ioo -L
tables that topas_nmon recordings keep in their header, from AIX 6.1 and 7.1 LPARs).

ioo/vmo -a print `name = value` with the names right-aligned, so most lines start with
blanks (a page may keep a tab before the first); -L a table (NAME CUR DEF BOOT MIN MAX
UNIT TYPE, a name too long for its column on a line of its own with the numbers below,
indented dependency lines, a static tunable with CUR and BOOT only, a legend of one-letter
keys at the end); -x the same as comma-separated fields. With -F the restricted
tunables follow a `##Restricted tunables` line: IBM's word is that they are not for end
users, so they are listed apart (the advice must never touch them). AIX 7.2 and 7.3 print
`n/a` as the value of a tunable the system does not use: such a name is kept apart, never
a failed read.
vmstat -v prints `number description`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.parse.aix_devices import nothing_found
from rules.parse.registry import Argv, Match, Section, parser

# Two characters at least: -L ends with a legend of one-letter keys ('S = Static: …',
# 'K = Kilo: 2^10  G = Giga: 2^30'), which no tunable's name is.
_TUNABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_%]{1,63}")
_TYPE = re.compile(r"[DSRBMICd]")  # the TYPE column: Dynamic, Static, Reboot, Bosboot…
_VALUE = re.compile(r"[0-9][0-9.]{0,20}[KMGT]?|n/a|-")  # a -L number: 16, 64K, n/a
NOT_APPLICABLE = "n/a"


@dataclass(frozen=True)
class Tunables:
    program: str  # 'ioo' or 'vmo'
    values: Mapping[str, str]  # name → current value as printed ('128', '64K')
    restricted: frozenset[str] = frozenset()
    defaults: Mapping[str, str] = field(default_factory=dict)  # from -L and -x only
    boot: Mapping[str, str] = field(default_factory=dict)  # from -L and -x only
    # Printed as `n/a` (AIX 7.2 and 7.3 do so for tunables the system does not use): named
    # here, kept out of `values`, so the section is still read.
    not_applicable: tuple[str, ...] = ()


class _Reader:
    """Collects name → (current, default, boot) from whichever shape a line has."""

    def __init__(self) -> None:
        self.current: dict[str, str] = {}
        self.defaults: dict[str, str] = {}
        self.boot: dict[str, str] = {}
        self.restricted: set[str] = set()
        self.in_restricted = False
        self.pending: str | None = None  # a -L name printed on a line of its own
        self.not_applicable: list[str] = []

    def add(
        self, name: str, current: str, default: str | None = None, boot: str | None = None
    ) -> None:
        if not _TUNABLE.fullmatch(name) or not current:
            return
        if current.lower() == NOT_APPLICABLE:
            self.not_applicable.append(name)
            return
        self.current[name] = current
        if default is not None and boot is not None:
            self.defaults[name], self.boot[name] = default, boot
        if self.in_restricted:
            self.restricted.add(name)

    def line(self, line: str) -> None:
        text = line.strip()
        if text.startswith("##"):
            self.in_restricted = "restricted" in text.lower()
        elif "=" in text:  # -a: 'name = value', the names right-aligned by blanks
            name, _, value = text.partition("=")
            self.add(name.strip(), value.strip())
        elif self.pending and text and line[:1].isspace() and _VALUE.fullmatch(text.split()[0]):
            self.table(text.split())  # the numbers of a name too long for its column
        elif not text or line[:1].isspace() or text.startswith("---"):
            return  # blank, a -L dependency line, a rule
        elif text.count(",") >= 7:
            f = text.split(",")
            self.add(f[0], f[1], f[2], f[3])
        else:
            self.table(text.split())

    def table(self, words: list[str]) -> None:
        if words[0] in ("NAME", "DEPENDENCIES"):
            return
        if len(words) == 1:
            self.pending = words[0]
            return
        if self.pending and _VALUE.fullmatch(words[0]) and _TYPE.fullmatch(words[-1]):
            words = [self.pending, *words]
        self.pending = None
        if len(words) >= 7 and _TYPE.fullmatch(words[-1]):
            self.add(words[0], words[1], words[2], words[3])
        elif len(words) >= 3 and words[-1] == "S" and _VALUE.fullmatch(words[1]):
            self.add(words[0], words[1])  # static: CUR and BOOT only, DEF MIN MAX blank


def read_tunables(section: Section, program: str) -> Tunables:
    reader = _Reader()
    for line in section.lines:
        reader.line(line)
    if not reader.current and not reader.not_applicable:
        raise nothing_found(section, f"{program} tunables ('name = value' or the -L table)")
    return Tunables(
        program, reader.current, frozenset(reader.restricted), reader.defaults, reader.boot,
        tuple(dict.fromkeys(reader.not_applicable)),
    )  # fmt: skip


def _shows(program: str) -> Match:
    """`ioo -a`, `ioo -F -a`, `ioo -L`, `ioo -x`, `ioo -o name`: the forms that only read
    (never `-o name=value`, `-d` or `-D`, which change values)."""

    def match(argv: Argv) -> bool:
        if not argv or argv[0].rsplit("/", 1)[-1] != program:
            return False
        changes = any("=" in a for a in argv[1:]) or {"-d", "-D", "-p", "-r"} & set(argv)
        return not changes

    return match


@parser("ioo", _shows("ioo"), commands=("ioo",))
def ioo(section: Section) -> Tunables:
    return read_tunables(section, "ioo")


@parser("vmo", _shows("vmo"), commands=("vmo",))
def vmo(section: Section) -> Tunables:
    return read_tunables(section, "vmo")


# ---------------------------------------------------------------------------------------
# vmstat -v


@dataclass(frozen=True)
class VmstatV:
    """`vmstat -v`: description → number, and the counters the tuning advice reads."""

    counters: Mapping[str, float]
    memory_pages: int | None = None
    minperm_pct: float | None = None
    maxperm_pct: float | None = None
    numperm_pct: float | None = None
    maxclient_pct: float | None = None
    numclient_pct: float | None = None
    pbuf_blocked: int | None = None  # pending disk I/Os blocked with no pbuf
    psbuf_blocked: int | None = None  # paging space I/Os blocked with no psbuf
    fsbuf_blocked: int | None = None  # filesystem I/Os blocked with no fsbuf (JFS)
    client_fsbuf_blocked: int | None = None  # client filesystem … (NFS, Veritas)
    external_fsbuf_blocked: int | None = None  # external pager filesystem … (JFS2)


_COUNTER = re.compile(r"\s*([0-9]{1,15}(?:\.[0-9]{1,6})?)\s+([A-Za-z].*)")
_COUNTS = {
    "memory_pages": "memory pages",
    "pbuf_blocked": "pending disk I/Os blocked with no pbuf",
    "psbuf_blocked": "paging space I/Os blocked with no psbuf",
    "fsbuf_blocked": "filesystem I/Os blocked with no fsbuf",
    "client_fsbuf_blocked": "client filesystem I/Os blocked with no fsbuf",
    "external_fsbuf_blocked": "external pager filesystem I/Os blocked with no fsbuf",
}
_PERCENTS = {f"{n}_pct": f"{n} percentage" for n in ("minperm", "maxperm", "numperm")} | {
    f"{n}_pct": f"{n} percentage" for n in ("maxclient", "numclient")
}


def _vmstat_v(argv: Argv) -> bool:
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-") and not a.startswith("--"))
    return bool(argv) and argv[0].rsplit("/", 1)[-1] == "vmstat" and "v" in flags


@parser("aix_vmstat_v", _vmstat_v, commands=("vmstat",))
def vmstat_v(section: Section) -> VmstatV:
    counters: dict[str, float] = {}
    for found in map(_COUNTER.fullmatch, section.lines):
        if found:
            number = found.group(1)
            counters.setdefault(" ".join(found.group(2).split()), float(number))
    if not counters:
        raise nothing_found(section, "vmstat -v counters ('N description')")
    count = {k: _whole(counters.get(v)) for k, v in _COUNTS.items()}
    pct = {k: counters.get(v) for k, v in _PERCENTS.items()}
    return VmstatV(
        counters, count["memory_pages"], pct["minperm_pct"], pct["maxperm_pct"],
        pct["numperm_pct"], pct["maxclient_pct"], pct["numclient_pct"], count["pbuf_blocked"],
        count["psbuf_blocked"], count["fsbuf_blocked"], count["client_fsbuf_blocked"],
        count["external_fsbuf_blocked"],
    )  # fmt: skip


def _whole(number: float | None) -> int | None:
    return None if number is None else int(number)
