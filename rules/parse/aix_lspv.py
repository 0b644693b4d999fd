"""AIX physical volume parsers: lspv, lspv hdiskN and lspv -l hdiskN.

Sources: the IBM AIX 7.2 command reference (lspv); real captures in
tests/fixtures/parse/aix (IBM's ansible-power-aix issue data, the GLPI agent's samples,
Puppet facter's fixtures, the comments of Stroika's AIX file system instrument, admins'
notes). lspv prints `hdisk pvid vg state`, with `none`/`None` for a disk outside any VG and
no state for a VG that is not varied on. `lspv hdiskN` prints `KEY: value` pairs as lslv
does (AIX prints 'VG IDENTIFIER' without its colon, so it stays in the PV IDENTIFIER's
value), and '???????' for every value of a disk whose VG is not varied on, after a 0516
error line. `lspv -l hdiskN` prints an `hdiskN:` line and the LVs with partitions on the
disk (LV NAME, LPs, PPs, DISTRIBUTION, MOUNT POINT): the disks under each LV, read from
the disk's side.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.parse.aix_devices import nothing_found, to_int
from rules.parse.aix_lvm import (
    Keys,
    key_values,
    leading_int,
    owned_rows,
    program,
    size_mb,
)
from rules.parse.registry import Argv, Section, parser

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


_PV_KEYS = (
    "PHYSICAL VOLUME", "VOLUME GROUP", "PV IDENTIFIER", "PV STATE", "STALE PARTITIONS",
    "ALLOCATABLE", "PP SIZE", "LOGICAL VOLUMES", "TOTAL PPs", "VG DESCRIPTORS", "FREE PPs",
    "HOT SPARE", "USED PPs", "MAX REQUEST", "FREE DISTRIBUTION", "USED DISTRIBUTION",
    "MIRROR POOL",
)  # fmt: skip
PV_KEY = Keys(_PV_KEYS)


def _max_request_kb(text: str | None) -> int | None:
    found = re.match(r"\s*([0-9]{1,9})\s*(kilobyte|megabyte)", text or "", re.IGNORECASE)
    if not found:
        return None
    return int(found.group(1)) * (1024 if found.group(2).lower() == "megabyte" else 1)


def _lspv_disk(argv: Argv) -> bool:
    return program(argv, "lspv") and len(argv) == 2 and not argv[1].startswith("-")


@parser("aix_lspv_disk", _lspv_disk, commands=("lspv",))
def lspv_disk(section: Section) -> Pv:
    v, error = key_values(section, PV_KEY, "lspv", required="PHYSICAL VOLUME")
    known = {k: (None if "?" in x else x) for k, x in v.items()}
    return Pv(
        known.get("PHYSICAL VOLUME") or section.argv[1], known.get("VOLUME GROUP"),
        known.get("PV STATE"), size_mb(known.get("PP SIZE")), leading_int(known.get("TOTAL PPs")),
        leading_int(known.get("FREE PPs")), _max_request_kb(known.get("MAX REQUEST")), v, error,
    )  # fmt: skip


# ---------------------------------------------------------------------------------------
# lspv -l hdiskN


@dataclass(frozen=True)
class PvLv:
    disk: str
    lv: str
    lps: int | None
    pps: int | None
    distribution: str
    mount_point: str | None  # None for N/A

    @property
    def devices(self) -> tuple[str, ...]:
        """The disk this row was listed under: one of the LV's disks."""
        return (self.disk,)


@dataclass(frozen=True)
class PvLvs:
    """`lspv -l hdiskN…`: the LVs with partitions on each disk."""

    lvs: tuple[PvLv, ...]
    error: str | None = None

    def disks_of(self, lv: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(row.disk for row in self.lvs if row.lv == lv))


# A row: the LV, its LPs and PPs on this disk, their spread over the five disk regions
# (counts joined by dots, more than two digits once a region holds 100 or more), the mount.
_PV_LV = re.compile(
    r"\s*([\w.-]{1,64})\s+([0-9]{1,9})\s+([0-9]{1,9})\s+"
    r"([0-9]{1,6}(?:\.\.[0-9]{1,6}){4})(?:\s+(\S{1,1024}))?\s*"
)


def _lspv_lvs(argv: Argv) -> bool:
    flags = {c for a in argv[1:] if a.startswith("-") for c in a[1:]}
    listing = "l" in flags and flags <= {"l", "L"}  # -L: do not wait for the VG lock
    return program(argv, "lspv") and listing and any(not a.startswith("-") for a in argv[1:])


def _pv_lv(disk: str | None, line: str) -> PvLv | None:
    found = _PV_LV.fullmatch(line)
    if found is None or disk is None:
        return None
    mount = found.group(5)
    return PvLv(
        disk, found.group(1), to_int(found.group(2)), to_int(found.group(3)), found.group(4),
        None if mount in (None, "N/A") else mount,
    )  # fmt: skip


@parser("aix_lspv_lvs", _lspv_lvs, commands=("lspv",))
def lspv_lvs(section: Section) -> PvLvs:
    _, rows, error = owned_rows(section, _pv_lv, "LV NAME", "lspv -l rows (LV NAME … MOUNT POINT)")
    return PvLvs(rows, error)
