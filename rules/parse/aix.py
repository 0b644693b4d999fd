"""AIX parsers (registered on import): the CPU, device, LVM, physical volume and tunables
modules, and here lslv, lslv -l and lspath.

Sources: the IBM AIX 7.2 command references (lslv, lspath); real captures in
tests/fixtures/parse/aix (IBM's ansible-power-aix test data, the GLPI agent's samples,
Puppet facter's fixtures, admins' notes and blogs, an IBM support page). lslv prints two
`KEY: value` pairs a line (read as lsvg is, by key name); STRIPE WIDTH and STRIPE SIZE
appear only on a striped LV. `lslv -l LV` prints an `LV:mount point` line (not always kept
in a paste) and the disks the LV lives on.
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
    aix_lspv,
    aix_lvm,
    aix_sysconfig,
    aix_tunables,
)
from rules.parse.aix_devices import nothing_found, to_int
from rules.parse.aix_lspv import (  # noqa: F401  (re-exported, as before the split)
    PvEntry,
    Pvs,
    lspv,
    lspv_disk,
)
from rules.parse.aix_lvm import (
    Keys,
    error_of,
    key_values,
    leading_int,
    operands,
    program,
    size_mb,
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
    v, error = key_values(section, LV_KEY, "lslv")
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
