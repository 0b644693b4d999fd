"""Measured throughput per file system against SAS's band, as the result page, the report
and verify draw it: read and write MB/s per core in use next to 100–150 MB/s per core
(sas-io-throughput), with the tool and date that measured it.

One bar per storage entry with a measurement; entries with none are not drawn (their
figure, if any, is an estimate, and the throughput rule's text says so).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.derive.throughput import NEED_HIGH_MB_S_PER_CORE, NEED_LOW_MB_S_PER_CORE, io_need
from rules.inventory import Inventory, Storage

# "may be cache": a read that may be the page cache's (storage[].measured_read_cached) is
# no measurement of the storage, so it is neither in band nor above it: not judged.
Verdict = Literal["short", "in band", "above band", "may be cache"]
CACHE_WORDS = "may be the page cache — not judged"


@dataclass(frozen=True)
class Direction:
    """One direction's figure: all streams together, and per core in use."""

    mb_s: float
    per_core: float
    verdict: Verdict

    @property
    def words(self) -> str:
        """The verdict as the chart, its table and verify say it."""
        return CACHE_WORDS if self.verdict == "may be cache" else self.verdict


@dataclass(frozen=True)
class Bar:
    """One file system's measured read and write against the band."""

    name: str
    mount: str
    role: str
    read: Direction | None  # None: not given apart (storage[].measured_read_mb_s)
    write: Direction | None
    lower: Direction  # storage[].measured_mb_s, else the lower of read and write given;
    # where the read may be the page cache's, the write's (the read itself when alone)
    cores: int  # cores in use: the divisor
    band: tuple[int, int]  # MB/s per core: SAS's 100–150
    tool: str | None  # what measured it (dd, fio, rhel_iotest.sh, DiskSpd …), when known
    date: str | None  # when, as the measurement printed it, when known
    cluster_total: bool  # the figure is a whole cluster's, not this host's
    read_cached: bool = False  # the read may be the page cache's: its verdict "may be cache"


def verdict(per_core: float) -> Verdict:
    if per_core < NEED_LOW_MB_S_PER_CORE:
        return "short"
    return "in band" if per_core <= NEED_HIGH_MB_S_PER_CORE else "above band"


def _direction(mb_s: float | None, cores: int, cached: bool = False) -> Direction | None:
    if mb_s is None:
        return None
    per_core = mb_s / cores
    return Direction(mb_s, round(per_core, 1), "may be cache" if cached else verdict(per_core))


def _bar(s: Storage, cores: int) -> Bar | None:
    """The lower is measured_mb_s, or where it is not given the lower of read and write;
    a read that may be the page cache's is drawn, but not judged."""
    cached = bool(s.measured_read_cached)
    read = _direction(s.measured_read_mb_s, cores, cached)
    lower = _direction(s.measured_lower, cores) or (read if cached else None)
    if lower is None:
        return None
    return Bar(
        name=s.name,
        mount=s.mount,
        role=s.role,
        read=read,
        write=_direction(s.measured_write_mb_s, cores),
        lower=lower,
        cores=cores,
        band=(NEED_LOW_MB_S_PER_CORE, NEED_HIGH_MB_S_PER_CORE),
        tool=s.measured_by,
        date=s.measured_at,
        cluster_total=bool(s.measured_is_cluster_total),
        read_cached=cached,
    )


def bars(inv: Inventory) -> list[Bar]:
    """A bar per measured storage entry, in the inventory's order."""
    cores = max(1, io_need(inv).busy)
    found = (_bar(s, cores) for s in inv.storage)
    return [b for b in found if b is not None]
