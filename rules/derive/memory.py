"""Memory facts: one budget of RAM across SPD Server, the SAS sessions and the OS.

Sources: bogacz2012 (SPD Server's SORTSIZE, INDEX_SORTSIZE and GRPBYROWCACHE of 1024M for
50 users on 64 GB, l.207-211), bartucca2005 (MEMSIZE 8G and SORTSIZE 4G on the 16 GB lemans
box, l.269), chew (bigger sort bins are not always faster, l.61-69), SAS 9.4 Companion for
UNIX (the 512M MEMSIZE default).

The budget is one account, drawn once, in this order: the file system caches that hold
memory beside SAS (a GPFS node's pagepool, pinned so it never pages out, ibm-scale-pinned;
the ZFS ARC up to its recorded bound, openzfs-arc-max on Linux, oracle-zfs-arc on Solaris),
then SPD Server's sort memory for every session (when the box runs SPD Server), then the
rest. Where those bounded caches are the file cache of every SAS file system, the rest
less an OS reserve goes to the SAS sessions: the file cache is already counted, so it is
not kept a second time. Elsewhere the rest is split half to the SAS sessions and half to
the OS and its page cache, as bartucca2005 split the lemans box (on Solaris ZFS without a
recorded bound, that half is the OS and the ARC, which zfs.arc bounds from the same SAS
figure). Every figure is a ceiling, not a reservation, so the total is what the box needs
if every session sorts at once.

MEMSIZE and SORTSIZE are never lowered below the server's current values (or, where they
are unknown, SAS's shipped defaults) on memory pressure alone: a lower ceiling does not cut
what sessions use, it makes jobs fail with "insufficient memory" (SAS MEMSIZE: UNIX);
the over-commit warning says to cut sessions or add RAM instead.
"""

from __future__ import annotations

from rules.derive.memo import per_inventory
from rules.inventory import Inventory
from rules.units import parse_size_mb, pow2_floor, size_text
from rules.versions import version_tuple

# bartucca2005 "Setup" (l.269): MEMSIZE 8G on a 16 GB machine; the rest stayed with AIX
# (after maxperm 80→60, SAS and other programs held 39.2 % of real memory without paging).
SAS_RAM_SHARE = 0.5
# bartucca2005 l.269: SORTSIZE 4G under MEMSIZE 8G.
SORTSIZE_OF_MEMSIZE = 0.5
# bartucca2005 l.269: 4G is the largest SORTSIZE any of the papers ran (a 60 GB sort). chew
# l.63-69: bigger bins help external sorts only while RAM lasts, and a smaller SORTSIZE can
# even sort faster externally than internally; so the site default stops here.
SORTSIZE_CAP_MB = 4096
# SAS 9.3 Companion for UNIX, MEMSIZE: "Default: 512M" (sas-memsize-defaults). Below it SAS
# itself, not just PROC SORT, runs short, so no session is given less.
MEMSIZE_FLOOR_MB = 512
# SAS 9.4 ships -MEMSIZE 2G and -SORTSIZE 1G: SAS 9.4 Companion for Windows (MEMSIZE
# "Default: 2G", SORTSIZE "Default: 1G"); on UNIX the installed !SASROOT/sasv9.cfg lines as
# public install notes show them (sas94-unix-shipped, unconfirmed against SAS's UNIX page).
SHIPPED_94_MB = {"MEMSIZE": 2048, "SORTSIZE": 1024}
# The OS's own reserve where a bounded cache (ZFS ARC, GPFS pagepool) is the file cache of
# every SAS file system: 10 % of RAM, at least 2 GB. The advisor's own figure, unconfirmed:
# no vendor source gives one for SAS; measure free memory at peak (vmstat, free).
OS_RESERVE_SHARE = 0.1
OS_RESERVE_MIN_MB = 2048
# bogacz2012 l.207-211: 50 users × 1024 MB = 50 GB of 64 GB (78 %) "without memory
# overflow", each job doing "any of these types of sorting" — one of the three at a time.
SPDS_MEMORY_SHARE = 0.8
# bogacz2012 l.211: 1024M "met the needs of most users"; jobs above 2 GB override it.
SPDS_SORT_CAP_MB = 1024


@per_inventory
def cache_parts(inv: Inventory) -> tuple[tuple[str, float], ...]:
    """(name, MB) of each file system cache that holds memory beside SAS: the GPFS pagepool
    (pinned memory, ibm-scale-pinned) and the ZFS ARC's recorded bound (the ARC gives memory
    back only under pressure: oracle-zfs-arc; on Linux openzfs-arc-max, unconfirmed)."""
    server = inv.server
    parts: list[tuple[str, float]] = []
    if server.gpfs_pagepool_gb:
        parts.append(("GPFS pagepool (pinned)", server.gpfs_pagepool_gb * 1024))
    if server.os in ("linux", "solaris") and server.zfs_arc_max_gb:
        parts.append(("ZFS ARC bound", server.zfs_arc_max_gb * 1024))
    return tuple(parts)


def _cached_by(inv: Inventory) -> set[str]:
    names = " ".join(name for name, _ in cache_parts(inv))
    return {fs for fs, key in (("gpfs", "GPFS"), ("zfs", "ZFS")) if key in names}


@per_inventory
def cache_is_file_cache(inv: Inventory) -> bool:
    """True when the bounded caches are the file cache of every SAS file system (all on
    GPFS with its pagepool, or on ZFS with its ARC bound recorded): then no half of the
    RAM is kept for a page cache they would not use."""
    covered = _cached_by(inv)
    sas = [s for s in inv.storage if s.role != "other"]
    return bool(covered and sas) and all(
        s.filesystem in covered or s.shared in covered for s in sas
    )


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
    """The OS's reserve beside a bounded file cache (10 % of RAM, ≥ 2 GB, unconfirmed);
    elsewhere the OS and page cache: the half of the rest SAS does not get (bartucca2005)."""
    if cache_is_file_cache(inv):
        reserve = max(OS_RESERVE_MIN_MB, inv.server.ram_mb * OS_RESERVE_SHARE)
        return min(rest_mb(inv), reserve)
    return rest_mb(inv) * (1 - SAS_RAM_SHARE)


@per_inventory
def sas_pool_mb(inv: Inventory) -> float:
    """What the account leaves to the SAS sessions together."""
    return rest_mb(inv) - os_reserve_mb(inv)


@per_inventory
def session_share_mb(inv: Inventory) -> float:
    """Real memory each SAS session can count on: SAS's part of the rest over sessions."""
    return sas_pool_mb(inv) / inv.workload.concurrent_sessions


def _option_mb(inv: Inventory, name: str) -> int | None:
    """The server's current MEMSIZE or SORTSIZE in MB; None where unknown, 0 or MAX."""
    options = inv.current.sas_options if inv.current is not None else None
    text = (options or {}).get(name, "")
    try:
        value = parse_size_mb(text)
    except ValueError:
        return None
    return int(value) if value >= 1 else None


def kept(inv: Inventory, name: str) -> tuple[int, str] | None:
    """(MB, whose) the advice never goes below for MEMSIZE or SORTSIZE: the server's current
    value, else SAS's shipped default (9.4: 2G and 1G; 9.3 UNIX MEMSIZE 512M), else None."""
    now = _option_mb(inv, name)
    if now is not None:
        return now, f"the server's current {name} {size_text(now)}"
    if version_tuple(inv.sas.version) >= (9, 4):
        where = "" if inv.server.os == "windows" else " (sas94-unix-shipped, unconfirmed)"
        shipped = SHIPPED_94_MB[name]
        return shipped, f"SAS 9.4's shipped {name} {size_text(shipped)}{where}"
    if name == "MEMSIZE":
        return MEMSIZE_FLOOR_MB, f"the {size_text(MEMSIZE_FLOOR_MB)} floor (SAS 9.3's default)"
    return None


@per_inventory
def memsize_floor_mb(inv: Inventory) -> int:
    """The least MEMSIZE advised: 512M, or the kept value where it is larger."""
    found = kept(inv, "MEMSIZE")
    return max(MEMSIZE_FLOOR_MB, found[0] if found else 0)


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
    return max(memsize_floor_mb(inv), real_mb(inv))


@per_inventory
def floored(inv: Inventory) -> bool:
    """True when the floor (512M, or the kept value) lifted MEMSIZE above the real share."""
    return session_share_mb(inv) < memsize_floor_mb(inv)


@per_inventory
def sortsize_half_mb(inv: Inventory) -> int:
    """Half of MEMSIZE, or of the real share when the floor lifted MEMSIZE above it."""
    return max(1, int(min(memsize_mb(inv), real_mb(inv)) * SORTSIZE_OF_MEMSIZE))


@per_inventory
def sortsize_floor_mb(inv: Inventory) -> int:
    """The kept SORTSIZE (current, else shipped), where it stays below MEMSIZE; else 0."""
    found = kept(inv, "SORTSIZE")
    return found[0] if found and found[0] < memsize_mb(inv) else 0


@per_inventory
def sortsize_mb(inv: Inventory) -> int:
    """Half of MEMSIZE (or of the real share), at most 4G, never below the kept SORTSIZE;
    strictly below MEMSIZE, ≥ 1M."""
    return max(min(SORTSIZE_CAP_MB, sortsize_half_mb(inv)), sortsize_floor_mb(inv))


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
