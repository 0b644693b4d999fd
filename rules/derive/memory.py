"""Memory facts: one budget of RAM across SPD Server, the SAS sessions and the OS.

Sources: bogacz2012 (SPD Server's SORTSIZE, INDEX_SORTSIZE and GRPBYROWCACHE of 1024M for
50 users on 64 GB, l.207-211), bartucca2005 (MEMSIZE 8G and SORTSIZE 4G on the 16 GB lemans
box, l.269), chew (bigger sort bins are not always faster, l.61-69), SAS 9.4 Companion for
UNIX (the 512M MEMSIZE default).

The budget is drawn once, in this order: the file system caches that hold memory beside
SAS (a GPFS node's pagepool, pinned so it never pages out, ibm-scale-pinned; on Linux the
ZFS ARC up to its recorded bound, openzfs-arc-max), then SPD Server's sort memory for every
session (when the box runs SPD Server), then the rest is split half to the SAS sessions and
half to the OS and its file cache, as bartucca2005 split the lemans box. Every figure is a
ceiling, not a reservation, so the total is what the box needs if every session sorts at
once. (The Solaris ARC is bounded by zfs.arc from this budget instead.)
"""

from __future__ import annotations

from rules.derive.memo import per_inventory
from rules.inventory import Inventory
from rules.units import pow2_floor

# bartucca2005 "Setup" (l.269): MEMSIZE 8G on a 16 GB machine; the rest stayed with AIX
# (after maxperm 80→60, SAS and other programs held 39.2 % of real memory without paging).
SAS_RAM_SHARE = 0.5
# bartucca2005 l.269: SORTSIZE 4G under MEMSIZE 8G.
SORTSIZE_OF_MEMSIZE = 0.5
# bartucca2005 l.269: 4G is the largest SORTSIZE any of the papers ran (a 60 GB sort). chew
# l.63-69: bigger bins help external sorts only while RAM lasts, and a smaller SORTSIZE can
# even sort faster externally than internally; so the site default stops here.
SORTSIZE_CAP_MB = 4096
# SAS 9.4 Companion for UNIX, MEMSIZE: the shipped default is 512M. Below it SAS itself,
# not just PROC SORT, runs short, so no session is given less.
MEMSIZE_FLOOR_MB = 512
# bogacz2012 l.207-211: 50 users × 1024 MB = 50 GB of 64 GB (78 %) "without memory
# overflow", each job doing "any of these types of sorting" — one of the three at a time.
SPDS_MEMORY_SHARE = 0.8
# bogacz2012 l.211: 1024M "met the needs of most users"; jobs above 2 GB override it.
SPDS_SORT_CAP_MB = 1024


@per_inventory
def cache_parts(inv: Inventory) -> tuple[tuple[str, float], ...]:
    """(name, MB) of each file system cache that holds memory beside SAS: the GPFS pagepool
    (pinned memory, ibm-scale-pinned) and, on Linux, the ZFS ARC's recorded bound (the ARC
    gives memory back only under pressure, openzfs-arc-max, unconfirmed)."""
    server = inv.server
    parts: list[tuple[str, float]] = []
    if server.gpfs_pagepool_gb:
        parts.append(("GPFS pagepool (pinned)", server.gpfs_pagepool_gb * 1024))
    if server.os == "linux" and server.zfs_arc_max_gb:
        parts.append(("ZFS ARC bound", server.zfs_arc_max_gb * 1024))
    return tuple(parts)


@per_inventory
def caches_mb(inv: Inventory) -> float:
    return sum(mb for _, mb in cache_parts(inv))


@per_inventory
def free_of_caches_mb(inv: Inventory) -> float:
    """RAM the caches leave to SPD Server, SAS and the OS."""
    return max(0.0, inv.server.ram_mb - caches_mb(inv))


@per_inventory
def spds_session_mb(inv: Inventory) -> int:
    """SPD Server sort memory per session (0 without SPD Server): (RAM − caches) × 0.8 /
    sessions, a power of two at or below, at most 1024M."""
    if inv.sas.spds is None:
        return 0
    per_session = free_of_caches_mb(inv) * SPDS_MEMORY_SHARE / inv.workload.concurrent_sessions
    return min(SPDS_SORT_CAP_MB, pow2_floor(max(per_session, 1)))


@per_inventory
def spds_total_mb(inv: Inventory) -> int:
    """SPD Server's part of the budget: one sort-memory parameter per session at once."""
    return spds_session_mb(inv) * inv.workload.concurrent_sessions


@per_inventory
def rest_mb(inv: Inventory) -> float:
    """RAM left once the caches and SPD Server's part are drawn."""
    return max(0.0, free_of_caches_mb(inv) - spds_total_mb(inv))


@per_inventory
def os_reserve_mb(inv: Inventory) -> float:
    """The OS and file cache: the half of the rest SAS does not get (bartucca2005)."""
    return rest_mb(inv) * (1 - SAS_RAM_SHARE)


@per_inventory
def session_share_mb(inv: Inventory) -> float:
    """Real memory each SAS session can count on: SAS's half of the rest over sessions."""
    return rest_mb(inv) * SAS_RAM_SHARE / inv.workload.concurrent_sessions


def rounded_mb(share_mb: float, sessions: int) -> int:
    """A power of two for shared boxes; whole gigabytes (else megabytes) for a lone job."""
    if share_mb < 1:
        return 0
    if sessions > 1:
        return pow2_floor(share_mb)
    if share_mb >= 1024:
        return int(share_mb // 1024) * 1024
    return int(share_mb)


@per_inventory
def real_mb(inv: Inventory) -> int:
    """The session's share of physical RAM, rounded; 0 when it is under a megabyte."""
    return rounded_mb(session_share_mb(inv), inv.workload.concurrent_sessions)


@per_inventory
def memsize_mb(inv: Inventory) -> int:
    return max(MEMSIZE_FLOOR_MB, real_mb(inv))


@per_inventory
def floored(inv: Inventory) -> bool:
    """True when the 512M floor lifted MEMSIZE above the session's real share."""
    return session_share_mb(inv) < MEMSIZE_FLOOR_MB


@per_inventory
def sortsize_half_mb(inv: Inventory) -> int:
    """Half of MEMSIZE, or of the real share when the floor lifted MEMSIZE above it."""
    return max(1, int(min(memsize_mb(inv), real_mb(inv)) * SORTSIZE_OF_MEMSIZE))


@per_inventory
def sortsize_mb(inv: Inventory) -> int:
    """Half of MEMSIZE (or of the real share), at most 4G; strictly below MEMSIZE, ≥ 1M."""
    return min(SORTSIZE_CAP_MB, sortsize_half_mb(inv))


@per_inventory
def budget_total_mb(inv: Inventory) -> float:
    """Caches + sessions × MEMSIZE + SPD Server's sort memory + the OS and file cache
    reserve."""
    sas = inv.workload.concurrent_sessions * memsize_mb(inv)
    return caches_mb(inv) + sas + spds_total_mb(inv) + os_reserve_mb(inv)


def over_budget(inv: Inventory) -> bool:
    return budget_total_mb(inv) > inv.server.ram_mb


def mb_text(mb: float) -> str:
    """A human figure for rationales: 26214 -> '25.6 GB', 82 -> '82 MB'."""
    if mb >= 1024:
        return f"{mb / 1024:.1f}".removesuffix(".0") + " GB"
    return f"{mb:.0f} MB"
