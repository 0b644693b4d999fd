"""AIX parsers (registered on import): the CPU, device, LVM and tunables modules, and here
lslv, lslv -l, lspv, lspv hdiskN and lspath.

Sources: the IBM AIX 7.2 command references (lslv, lspv, lspath); real captures in
tests/fixtures/parse/aix (IBM's ansible-power-aix test data, the GLPI agent's samples,
Puppet facter's fixtures, admins' notes). lslv prints two `KEY: value` pairs a line (read
as lsvg is, by key name); STRIPE WIDTH and STRIPE SIZE appear only on a striped LV. lspv
prints `hdisk pvid vg state`, with `none`/`None` for a disk outside any VG and no state for
a VG that is not varied on. `lspv hdiskN` prints `KEY: value` pairs as lslv does (AIX
prints 'VG IDENTIFIER' without its colon, so it stays in the PV IDENTIFIER's value), and
'???????' for every value of a disk whose VG is not varied on, after a 0516 error line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.parse import (  # noqa: F401  (registers)
    aix_cpu,
    aix_devices,
    aix_fs,
    aix_lsdev,
    aix_lvm,
    aix_tunables,
)
from rules.parse.aix_devices import nothing_found, to_int
from rules.parse.aix_lvm import (
    Keys,
    error_of,
    leading_int,
    operands,
    program,
    size_mb,
    two_column,
)
from rules.parse.registry import Argv, Match, Section, parser

_LV_KEYS = (
    "LOGICAL VOLUME", "VOLUME GROUP", "LV IDENTIFIER", "PERMISSION", "VG STATE", "LV STATE",
    "TYPE", "WRITE VERIFY", "MAX LPs", "PP SIZE", "COPIES", "SCHED POLICY", "LPs", "PPs",
    "STALE PPs", "BB POLICY", "INTER-POLICY", "RELOCATABLE", "INTRA-POLICY", "UPPER BOUND",
    "MOUNT POINT", "LABEL", "DEVICE UID", "DEVICE GID", "DEVICE PERMISSIONS",
    "MIRROR WRITE CONSISTENCY", "EACH LP COPY ON A SEPARATE PV ?", "Serialize IO ?",
    "INFINITE RETRY", "PREFERRED READ", "DEVICESUBTYPE", "COPY 1 MIRROR POOL",
    "COPY 2 MIRROR POOL", "COPY 3 MIRROR POOL", "ENCRYPTION", "STRIPE WIDTH", "STRIPE SIZE",
)  # fmt: skip
LV_KEY = Keys(_LV_KEYS)


# ---------------------------------------------------------------------------------------
# lslv LV, lslv -l LV


@dataclass(frozen=True)
class Lv:
    name: str | None
    vg: str | None
    type: str | None
    mount_point: str | None  # None for N/A
    copies: int | None
    lps: int | None
    pps: int | None
    pp_size_mb: int | None
    stripe_width: int | None  # None when the LV is not striped
    stripe_size_kb: int | None
    inter_policy: str | None
    state: str | None
    values: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None


def stripe_kb(text: str | None) -> int | None:
    """STRIPE SIZE: '64K', '1M', '128k' or '256 kilobyte(s)' → KB."""
    found = re.match(r"\s*([0-9]{1,7})\s*([KkMmGg])?", text or "")
    if not found:
        return None
    unit = (found.group(2) or "k").lower()
    return int(found.group(1)) * {"k": 1, "m": 1024, "g": 1024 * 1024}[unit]


def _lslv(flag: str | None) -> Match:
    def match(argv: Argv) -> bool:
        flags = {c for a in argv[1:] if a.startswith("-") for c in a[1:]} & {"l", "m", "p"}
        return (
            program(argv, "lslv") and bool(operands(argv)) and flags == ({flag} if flag else set())
        )

    return match


@parser("aix_lslv", _lslv(None), commands=("lslv",))
def lslv(section: Section) -> Lv:
    v = two_column(section.lines, LV_KEY)
    error = error_of(section.lines)
    if not v and error is None:
        raise nothing_found(section, "lslv 'KEY: value' fields")
    mount = v.get("MOUNT POINT")
    name = v.get("LOGICAL VOLUME") or next(iter(operands(section.argv)), None)
    return Lv(
        name, v.get("VOLUME GROUP"), v.get("TYPE"), None if mount in (None, "N/A") else mount,
        leading_int(v.get("COPIES")), leading_int(v.get("LPs")), leading_int(v.get("PPs")),
        size_mb(v.get("PP SIZE")), leading_int(v.get("STRIPE WIDTH")),
        stripe_kb(v.get("STRIPE SIZE")), v.get("INTER-POLICY"), v.get("LV STATE"), v, error,
    )  # fmt: skip


@dataclass(frozen=True)
class LvPv:
    name: str
    copies: str  # '048:000:000': partitions with one, two and three copies here
    in_band_pct: int | None
    distribution: str


@dataclass(frozen=True)
class LvPvs:
    """`lslv -l LV`: the physical volumes the LV lives on."""

    lv: str | None
    mount_point: str | None
    pvs: tuple[LvPv, ...]
    error: str | None = None


_LV_PV = re.compile(r"\s*(\S{1,64})\s+([0-9]{3}:[0-9]{3}:[0-9]{3})\s+([0-9]{1,3})%\s+(\S{1,64})\s*")


def _is_heading(line: str) -> bool:
    """`hd2:/usr` (or `lv01:N/A`): the LV and its mount point, one word."""
    words = line.split()
    return len(words) == 1 and ":" in words[0] and not words[0].startswith("0516")


@parser("aix_lslv_pvs", _lslv("l"), commands=("lslv",))
def lslv_pvs(section: Section) -> LvPvs:
    rows = [m for m in map(_LV_PV.fullmatch, section.lines) if m]
    error = error_of(section.lines)
    if not rows and error is None and not any(x.startswith("PV ") for x in section.lines):
        raise nothing_found(section, "lslv -l rows")
    heading = next((x.strip() for x in section.lines if _is_heading(x)), "")
    lv, _, mount = heading.partition(":")
    pvs = tuple(LvPv(m[1], m[2], to_int(m[3]), m[4]) for m in rows)
    name = lv or next(iter(operands(section.argv)), None)
    return LvPvs(name, mount if mount not in ("", "N/A") else None, pvs, error)


# ---------------------------------------------------------------------------------------
# lspv


@dataclass(frozen=True)
class PvEntry:
    name: str
    pvid: str | None  # None for 'none': the disk has no PVID yet
    vg: str | None  # None for 'None': in no volume group
    state: str | None  # active / concurrent / locked; None for a VG not varied on


@dataclass(frozen=True)
class Pvs:
    """`lspv`: every disk the system knows, with its PVID and volume group."""

    pvs: tuple[PvEntry, ...]

    def of_vg(self, vg: str) -> tuple[str, ...]:
        return tuple(p.name for p in self.pvs if p.vg == vg)


_PV_STATES = frozenset({"active", "concurrent", "locked"})


def _pv_entry(line: str) -> PvEntry | None:
    """`hdisk0 00c6ce9d4f2c404a rootvg active`: a PVID is 16 hex digits on AIX, any word in
    test data that masks it ('testid0998'); the state is one of lspv's few words."""
    words = line.split()
    pvid_ok = len(words) in (3, 4) and re.fullmatch(r"[0-9A-Za-z]{1,32}", words[1])
    if not pvid_ok or not re.fullmatch(r"[A-Za-z][\w.-]{0,63}", words[0]):
        return None
    if len(words) == 4 and words[3] not in _PV_STATES:
        return None
    state = words[3] if len(words) == 4 else None
    return PvEntry(
        words[0], None if words[1] == "none" else words[1],
        None if words[2] == "None" else words[2], state,
    )  # fmt: skip


@parser("aix_lspv", lambda argv: program(argv, "lspv") and argv[1:] == (), commands=("lspv",))
def lspv(section: Section) -> Pvs:
    pvs = tuple(p for p in map(_pv_entry, section.lines) if p)
    if not pvs and any(line.strip() for line in section.lines):
        raise nothing_found(section, "lspv rows")
    return Pvs(pvs)


_PV_KEYS = (
    "PHYSICAL VOLUME", "VOLUME GROUP", "PV IDENTIFIER", "PV STATE", "STALE PARTITIONS",
    "ALLOCATABLE", "PP SIZE", "LOGICAL VOLUMES", "TOTAL PPs", "VG DESCRIPTORS", "FREE PPs",
    "HOT SPARE", "USED PPs", "MAX REQUEST", "FREE DISTRIBUTION", "USED DISTRIBUTION",
    "MIRROR POOL",
)  # fmt: skip
PV_KEY = Keys(_PV_KEYS)


@dataclass(frozen=True)
class Pv:
    """`lspv hdiskN`: one disk's volume group, size and largest I/O request."""

    name: str | None
    vg: str | None
    state: str | None  # None where the VG is not varied on ('???????')
    pp_size_mb: int | None
    total_pps: int | None
    free_pps: int | None
    max_request_kb: int | None  # 'MAX REQUEST: 256 kilobytes': the disk's max transfer
    values: Mapping[str, str] = field(default_factory=dict)
    error: str | None = None

    @property
    def size_mb(self) -> int | None:
        if self.pp_size_mb is None or self.total_pps is None:
            return None
        return self.pp_size_mb * self.total_pps


def _max_request_kb(text: str | None) -> int | None:
    found = re.match(r"\s*([0-9]{1,9})\s*(kilobyte|megabyte)", text or "", re.IGNORECASE)
    if not found:
        return None
    return int(found.group(1)) * (1024 if found.group(2).lower() == "megabyte" else 1)


def _lspv_disk(argv: Argv) -> bool:
    return program(argv, "lspv") and len(argv) == 2 and not argv[1].startswith("-")


@parser("aix_lspv_disk", _lspv_disk, commands=("lspv",))
def lspv_disk(section: Section) -> Pv:
    v = two_column(section.lines, PV_KEY)
    error = error_of(section.lines)
    if "PHYSICAL VOLUME" not in v and error is None:
        raise nothing_found(section, "lspv 'KEY: value' fields")
    known = {k: (None if "?" in x else x) for k, x in v.items()}
    return Pv(
        known.get("PHYSICAL VOLUME") or section.argv[1], known.get("VOLUME GROUP"),
        known.get("PV STATE"), size_mb(known.get("PP SIZE")), leading_int(known.get("TOTAL PPs")),
        leading_int(known.get("FREE PPs")), _max_request_kb(known.get("MAX REQUEST")), v, error,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# lspath, lspath -l hdiskN

_PATH_STATES = frozenset({"Enabled", "Disabled", "Failed", "Defined", "Missing", "Detected"})


@dataclass(frozen=True)
class PathRow:
    status: str
    device: str
    parent: str
    connection: str | None = None


@dataclass(frozen=True)
class Paths:
    """`lspath [-l DEVICE]`: the MPIO paths, device by device, with the adapter each uses."""

    paths: tuple[PathRow, ...]

    def parents(self, device: str) -> tuple[str, ...]:
        """The adapters (fscsi0, vscsi1) a device's paths go through, each once."""
        return tuple(dict.fromkeys(p.parent for p in self.paths if p.device == device))


def _path_fields(argv: Argv) -> list[str]:
    """The columns printed: `-F "status name path_id parent connection"` or the default."""
    if "-F" in argv[:-1]:
        return argv[argv.index("-F") + 1].replace(":", " ").split()
    return ["status", "name", "parent"]


def _path_row(fields: list[str], line: str) -> PathRow | None:
    words = line.split()
    if len(words) != len(fields):
        return None
    row = dict(zip(fields, words, strict=True))
    if row.get("status", "Enabled") not in _PATH_STATES or "name" not in row:
        return None
    return PathRow(row.get("status", ""), row["name"], row.get("parent", ""), row.get("connection"))


def _lspath(argv: Argv) -> bool:
    return program(argv, "lspath") and not {"-A", "-h", "-H"} & set(argv)


@parser("aix_lspath", _lspath, commands=("lspath",))
def lspath(section: Section) -> Paths:
    fields = _path_fields(section.argv)
    rows = tuple(r for r in (_path_row(fields, line) for line in section.lines) if r)
    if not rows and any(line.strip() for line in section.lines):
        raise nothing_found(section, "lspath rows")
    return Paths(rows)
