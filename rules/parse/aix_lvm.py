"""AIX volume group parsers: lsvg (list, VG, -l, -p), and the `KEY: value` reader lslv shares.

Sources: the IBM AIX 7.2 command references (lsvg, lslv) and real captures in
tests/fixtures/parse/aix (IBM's ansible-power-aix test data, the GLPI agent's samples, an
admin's wiki page). lsvg VG and lslv LV print `KEY: value` pairs two to a
line; a long value (an LV identifier) pushes the right-hand key along so that only one
space is left, so keys are found by name rather than by column. `0516-…` lines are LVM
errors (a VG not varied on); they are kept as the value's `error`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from rules.parse.aix_devices import nothing_found, to_int
from rules.parse.registry import Argv, Match, Section, parser

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")
T = TypeVar("T")
_ERROR = re.compile(r"\s*(0516-\d{3}.*)")

_VG_KEYS = (
    "VOLUME GROUP", "VG IDENTIFIER", "VG STATE", "PP SIZE", "VG PERMISSION", "TOTAL PPs",
    "MAX LVs", "FREE PPs", "LVs", "USED PPs", "OPEN LVs", "QUORUM", "TOTAL PVs",
    "VG DESCRIPTORS", "STALE PVs", "STALE PPs", "ACTIVE PVs", "AUTO ON", "MAX PPs per VG",
    "MAX PPs per PV", "MAX PVs", "LTG size (Dynamic)", "LTG size", "AUTO SYNC", "HOT SPARE",
    "BB POLICY", "MIRROR POOL STRICT", "PV RESTRICTION", "INFINITE RETRY", "DISK BLOCK SIZE",
    "CRITICAL VG", "FS SYNC OPTION", "CRITICAL PVs", "ENCRYPTION",
)  # fmt: skip


class Keys:
    """The keys of a `KEY: value   KEY: value` listing, found at the colons that end them.

    Only a colon can end a key, so each colon is looked up once: the keys ending in the
    word before it are tried longest first ('STALE PPs' before 'PPs'), and one matches
    where it starts the line or follows white space. A scan of the whole line with one
    alternation of every key costs ten times more on a listing of many LVs.
    """

    def __init__(self, keys: Sequence[str]) -> None:
        self.by_word: dict[str, list[str]] = {}
        for key in sorted(keys, key=len, reverse=True):
            self.by_word.setdefault(key.split()[-1], []).append(key)
        self.longest = max(map(len, keys))

    def spans(self, line: str) -> list[tuple[str, int, int]]:
        """(key, where the key starts, where its value starts) in line order."""
        found: list[tuple[str, int, int]] = []
        colon = line.find(":")
        while colon > 0:
            # Only the text a key could span is looked at: linear in the line's length.
            window = max(0, colon - self.longest - 1)
            head = line[window:colon]
            words = head.rsplit(None, 1)
            for key in self.by_word.get(words[-1] if words else "", ()):
                start = colon - len(key)
                before = line[start - 1] if start > 0 else " "
                if head.endswith(key) and start >= 0 and before.isspace():
                    if not found or start >= found[-1][2]:
                        found.append((key, start, colon + 1))
                    break
            colon = line.find(":", colon + 1)
        return found


_VG_KEY = Keys(_VG_KEYS)


def two_column(lines: Sequence[str], keys: Keys) -> dict[str, str]:
    """KEY → value from `KEY: value   KEY: value` lines (first occurrence wins)."""
    values: dict[str, str] = {}
    for line in lines:
        if ":" not in line:
            continue
        found = keys.spans(line)
        for i, (key, _, value_start) in enumerate(found):
            end = found[i + 1][1] if i + 1 < len(found) else len(line)
            if key not in values:
                values[key] = line[value_start:end].strip()
    return values


def key_values(
    section: Section, keys: Keys, what: str, required: str | None = None
) -> tuple[dict[str, str], str | None]:
    """The `KEY: value` fields of lsvg VG, lslv LV or lspv hdiskN and any LVM error line;
    Garbled when there is neither (no field at all, or not the `required` one)."""
    values, error = two_column(section.lines, keys), error_of(section.lines)
    if error is None and (not values or (required is not None and required not in values)):
        raise nothing_found(section, f"{what} 'KEY: value' fields")
    return values, error


def error_of(lines: Sequence[str]) -> str | None:
    return next((m.group(1).strip() for m in map(_ERROR.match, lines) if m), None)


def program(argv: Argv, name: str) -> bool:
    return bool(argv) and argv[0].rsplit("/", 1)[-1] == name


def operands(argv: Argv) -> list[str]:
    return [a for a in argv[1:] if not a.startswith("-")]


def _lsvg(flag: str | None) -> Match:
    """lsvg with exactly this listing flag (-l, -p) or none, and a VG operand."""

    def match(argv: Argv) -> bool:
        if not program(argv, "lsvg") or not operands(argv):
            return False
        flags = {c for a in argv[1:] if a.startswith("-") for c in a[1:]}
        listing = flags & {"l", "p", "M", "m", "P", "i", "n"}
        return listing == ({flag} if flag else set())

    return match


# ---------------------------------------------------------------------------------------
# lsvg, lsvg -o


@dataclass(frozen=True)
class VgNames:
    """`lsvg` (all VGs) or `lsvg -o` (varied-on VGs only)."""

    names: tuple[str, ...]
    active_only: bool


def _lsvg_list(argv: Argv) -> bool:
    return program(argv, "lsvg") and argv[1:] in ((), ("-o",))


@parser("aix_lsvg_list", _lsvg_list, commands=("lsvg",))
def lsvg_list(section: Section) -> VgNames:
    names = tuple(line.strip() for line in section.lines if _NAME.fullmatch(line.strip()))
    if not names and any(line.strip() for line in section.lines):
        raise nothing_found(section, "volume group names")
    return VgNames(names, "-o" in section.argv)


# ---------------------------------------------------------------------------------------
# lsvg VG


@dataclass(frozen=True)
class Vg:
    name: str | None
    state: str | None
    pp_size_mb: int | None
    total_pps: int | None
    free_pps: int | None
    used_pps: int | None
    total_pvs: int | None
    active_pvs: int | None
    lvs: int | None
    open_lvs: int | None
    values: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def total_mb(self) -> int | None:
        return _times(self.pp_size_mb, self.total_pps)

    @property
    def free_mb(self) -> int | None:
        return _times(self.pp_size_mb, self.free_pps)


def _times(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a * b


def leading_int(text: str | None) -> int | None:
    """'2550 (40800 megabytes)' → 2550; '2 (Enabled)' → 2."""
    found = re.match(r"\s*([0-9]{1,12})\b", text or "")
    return int(found.group(1)) if found else None


def size_mb(text: str | None) -> int | None:
    """PP SIZE as lsvg/lslv print it ('128 megabyte(s)', '1 gigabyte(s)') in MB."""
    found = re.match(r"\s*([0-9]{1,9})\s*(megabyte|gigabyte)", text or "", re.IGNORECASE)
    if not found:
        return None
    return int(found.group(1)) * (1024 if found.group(2).lower() == "gigabyte" else 1)


@parser("aix_lsvg", _lsvg(None), commands=("lsvg",))
def lsvg_vg(section: Section) -> Vg:
    v, error = key_values(section, _VG_KEY, "lsvg")
    name = v.get("VOLUME GROUP") or next(iter(operands(section.argv)), None)
    n = {k: leading_int(v.get(k)) for k in _VG_KEYS}
    return Vg(
        name, v.get("VG STATE"), size_mb(v.get("PP SIZE")), n["TOTAL PPs"], n["FREE PPs"],
        n["USED PPs"], n["TOTAL PVs"], n["ACTIVE PVs"], n["LVs"], n["OPEN LVs"], v, error,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# lsvg -l VG, lsvg -p VG: a `VG:` line, a header, one row per LV or PV


@dataclass(frozen=True)
class LvRow:
    vg: str | None
    name: str
    type: str
    lps: int | None
    pps: int | None
    pvs: int | None
    state: str
    mount_point: str | None  # None for N/A (paging, boot, logs, raw LVs)


@dataclass(frozen=True)
class VgLvs:
    """`lsvg -l VG…`: the LVs of each VG (an empty tuple for a VG without LVs)."""

    vg: str | None
    lvs: tuple[LvRow, ...]
    error: str | None = None


@dataclass(frozen=True)
class PvRow:
    vg: str | None
    name: str
    state: str
    total_pps: int | None
    free_pps: int | None
    distribution: str


@dataclass(frozen=True)
class VgPvs:
    """`lsvg -p VG…`: the PVs of each VG."""

    vg: str | None
    pvs: tuple[PvRow, ...]
    error: str | None = None


def vg_blocks(section: Section) -> list[tuple[str | None, list[str]]]:
    """(VG, its row lines) for each `VG:` heading; rows before any heading go to the VG
    named on the command line."""
    current: str | None = next(iter(operands(section.argv)), None)
    blocks: list[tuple[str | None, list[str]]] = [(current, [])]
    for line in section.lines:
        heading = re.fullmatch(r"([A-Za-z0-9_.-]{1,64}):\s*", line)
        if heading:
            blocks.append((heading.group(1), []))
        elif line.strip():
            blocks[-1][1].append(line)
    return [b for b in blocks if b[1] or b is not blocks[0]]


def _lv_row(vg: str | None, line: str) -> LvRow | None:
    words = line.split(None, 6)
    if len(words) != 7 or not re.fullmatch(r"\w+/\w+", words[5]):
        return None
    lps, pps, pvs = (to_int(w) for w in words[2:5])
    if lps is None or pps is None:
        return None
    mount = None if words[6].strip() == "N/A" else words[6].strip()
    return LvRow(vg, words[0], words[1], lps, pps, pvs, words[5], mount)


def _pv_row(vg: str | None, line: str) -> PvRow | None:
    words = line.split()
    if len(words) != 5 or not re.fullmatch(r"[0-9.]+", words[4]):
        return None
    return PvRow(vg, words[0], words[1], to_int(words[2]), to_int(words[3]), words[4])


def owned_rows(
    section: Section, row: Callable[[str | None, str], T | None], head: str, what: str
) -> tuple[str | None, tuple[T, ...], str | None]:
    """The rows of an `OWNER:`-headed listing (lsvg -l/-p VG…, lspv -l hdisk…) read by
    `row(owner, line)`, with the first owner and any LVM error; Garbled when the output
    has no row, no `head` line and no error."""
    blocks = vg_blocks(section)
    rows = tuple(r for owner, lines in blocks for r in (row(owner, x) for x in lines) if r)
    error = error_of(section.lines)
    if not rows and error is None and not any(x.startswith(head) for x in section.lines):
        raise nothing_found(section, what)
    return (blocks[0][0] if blocks else None), rows, error


@parser("aix_lsvg_lvs", _lsvg("l"), commands=("lsvg",))
def lsvg_lvs(section: Section) -> VgLvs:
    return VgLvs(*owned_rows(section, _lv_row, "LV NAME", "lsvg -l table"))


@parser("aix_lsvg_pvs", _lsvg("p"), commands=("lsvg",))
def lsvg_pvs(section: Section) -> VgPvs:
    return VgPvs(*owned_rows(section, _pv_row, "PV_NAME", "lsvg -p table"))
