"""Rules: MEMSIZE, SORTSIZE and REALMEMSIZE (sources: bartucca2005, chew, sas94-config).

The anchor is bartucca2005's lemans box: 16 GB of RAM, one 60 GB PROC SORT, MEMSIZE 8G and
SORTSIZE 4G — half the RAM to SAS, the other half to AIX and its file cache, and half of
MEMSIZE to the sort. With several sessions, SAS's half is shared out and each share is
rounded down to a power of two, so sessions × MEMSIZE stays inside RAM. Where SPD Server
runs on the box, its sort memory is drawn first (bogacz2012) and SAS halves what is left:
one budget (rules.derive.memory), and a warning when its ceilings add up past RAM. A GPFS
node's pagepool is pinned memory (ibm-scale-pinned) and a Linux ZFS ARC keeps what its
bound lets it take (openzfs-arc-max, unconfirmed): both come off the RAM first. chew
warns why not to go further: bigger SORTSIZE bins help external sorts only until the memory
they take pushes the box into RAM shortfall, and then "all gains will be more than
completely lost" (l.63); SORTSIZE stops at bartucca2005's 4G.
"""

from __future__ import annotations

import math

from rules.derive.memory import (
    MEMSIZE_FLOOR_MB,
    SAS_RAM_SHARE,
    SORTSIZE_CAP_MB,
    SPDS_SORT_CAP_MB,
    budget_total_mb,
    cache_parts,
    caches_mb,
    floored,
    mb_text,
    memsize_mb,
    os_reserve_mb,
    over_budget,
    real_mb,
    rest_mb,
    session_share_mb,
    sortsize_half_mb,
    sortsize_mb,
    spds_session_mb,
    spds_total_mb,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, Rule, rule
from rules.units import gb, size_text

# The contract fields the memory budget (rules.derive.memory) is drawn from.
BUDGET_INPUTS = (
    "server.ram_gb", "workload.concurrent_sessions", "sas.spds", "server.gpfs_pagepool_gb",
    "server.zfs_arc_max_gb",
)  # fmt: skip


def _plural(n: int) -> str:
    return f"{n} session{'s' if n > 1 else ''}"


def _pool_text(inv: Inventory) -> str:
    """'(64 GB RAM − SPD Server's sort memory 50 × 1024M = 14 GB)' or '16 GB RAM'."""
    parts = [f"{name} {mb_text(mb)}" for name, mb in cache_parts(inv)]
    if inv.sas.spds is not None:
        sessions = inv.workload.concurrent_sessions
        parts.append(f"SPD Server's sort memory {sessions} × {spds_session_mb(inv)}M")
    if not parts:
        return f"{gb(inv.server.ram_gb)} RAM"
    return f"({gb(inv.server.ram_gb)} RAM − {' − '.join(parts)} = {mb_text(rest_mb(inv))})"


def _memsize_rationale(inv: Inventory, value: int) -> str:
    sessions = inv.workload.concurrent_sessions
    share = session_share_mb(inv)
    text = (
        f"{_pool_text(inv)} × {SAS_RAM_SHARE:g} (the rest for the OS and file cache) / "
        f"{_plural(sessions)} = {mb_text(share)}"
    )
    if floored(inv):
        return text + f", below the {size_text(MEMSIZE_FLOOR_MB)} floor → {size_text(value)}."
    if value == share:
        return text + f" → {size_text(value)}."
    how = "rounded down to a power of two" if sessions > 1 else "rounded down"
    return text + f" → {size_text(value)}, {how}."


def _budget_text(inv: Inventory) -> str:
    sessions, memsize = inv.workload.concurrent_sessions, memsize_mb(inv)
    parts = [f"{name} {mb_text(mb)}" for name, mb in cache_parts(inv)]
    parts.append(
        f"{_plural(sessions)} × MEMSIZE {size_text(memsize)} = {mb_text(sessions * memsize)}"
    )
    if inv.sas.spds is not None:
        parts.append(
            f"SPD Server {sessions} × {spds_session_mb(inv)}M = {mb_text(spds_total_mb(inv))}"
        )
    parts.append(f"OS and file cache {mb_text(os_reserve_mb(inv))}")
    return " + ".join(parts) + f" = {mb_text(budget_total_mb(inv))}"


def _budget_action(inv: Inventory) -> str:
    sessions, ram = inv.workload.concurrent_sessions, inv.server.ram_mb
    per_session = MEMSIZE_FLOOR_MB / SAS_RAM_SHARE + (SPDS_SORT_CAP_MB if inv.sas.spds else 0)
    need_gb = math.ceil((sessions * per_session + caches_mb(inv)) / 1024)
    # Without SPD Server the sessions that fit follow directly; with it SPD Server's share
    # moves with the session count, so only the RAM figure (an upper bound) is given.
    fit = math.floor((ram - caches_mb(inv)) * SAS_RAM_SHARE / MEMSIZE_FLOOR_MB)
    cut = f"cut peak sessions to {fit}, or " if 1 <= fit < sessions and not inv.sas.spds else ""
    text = f"To give every session {size_text(MEMSIZE_FLOOR_MB)}, {cut}grow RAM to at least "
    text += f"{need_gb} GB."
    shrink = [
        how for name, how in (
            ("GPFS", "a smaller GPFS pagepool (mmchconfig pagepool=…; pinned, never paged out)"),
            ("ZFS", "a lower ZFS ARC bound (zfs_arc_max)"),
        ) if any(name in part for part, _ in cache_parts(inv))
    ]  # fmt: skip
    if shrink:
        text += f" The file system caches come off the RAM first: {' or '.join(shrink)} "
        text += "leaves SAS more."
    if inv.sas.spds is not None:
        text += (
            " Every figure is a ceiling: bogacz2012 (l.211, l.254) ran SPD Server's 1024M for "
            "50 users for two years because SAS sessions that query SPD Server stay small. "
            "Watch paging at peak (vmstat pi/po); if it pages, lower SPD Server's SORTSIZE, "
            "INDEX_SORTSIZE and GRPBYROWCACHE first."
        )
    return text


def _cache_sources(inv: Inventory) -> tuple[str, ...] | None:
    """The rule's sources plus those of the caches in the budget; None (the rule's) without."""
    names = " ".join(name for name, _ in cache_parts(inv))
    extra = (("ibm-scale-pinned",) if "GPFS" in names else ()) + (
        ("openzfs-arc-max",) if "ZFS" in names else ()
    )
    return ("bartucca2005", "chew", "sas94-config", *extra) if extra else None


def _warn_over_budget(inv: Inventory, out: Emitter) -> None:
    sessions, ram = inv.workload.concurrent_sessions, inv.server.ram_mb
    sas_alone = sessions * memsize_mb(inv) > ram
    out.warn(
        f"Memory budget over RAM: {_budget_text(inv)} on {gb(inv.server.ram_gb)} of RAM, over "
        f"by {mb_text(budget_total_mb(inv) - ram)}; each SAS session's share is "
        f"{mb_text(session_share_mb(inv))}, below the {size_text(MEMSIZE_FLOOR_MB)} floor, so "
        "sorts will page if all run at once (chew l.63: RAM shortfall wipes out the gains of "
        "bigger sort bins).",
        action=_budget_action(inv),
        severity="high" if sas_alone or inv.sas.spds is None else "medium",
        sources=_cache_sources(inv),
    )


@rule(
    id="memory.memsize",
    title="Size MEMSIZE from RAM and concurrent sessions",
    sources=("bartucca2005", "chew", "sas94-config"),
    settings=((SAS_CONFIG, "MEMSIZE"),),
    inputs=BUDGET_INPUTS,
)
def memsize(inv: Inventory, out: Emitter) -> None:
    """Half of what SPD Server leaves to SAS (bartucca2005), per peak session; 512M at least."""
    value = memsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "MEMSIZE",
        size_text(value),
        rationale=_memsize_rationale(inv, value),
        sources=_cache_sources(inv),
        evidence="bartucca2005 'Setup': MEMSIZE 8G on the 16 GB lemans box",
        effect=(
            "bartucca2005: with MEMSIZE 8G and the file cache capped (maxperm 60), SAS held "
            "39.2 % of real memory and the 60 GB sort logged Page Swaps 0"
        ),
    )
    if over_budget(inv):
        _warn_over_budget(inv, out)


def _sortsize_rationale(inv: Inventory, value: int) -> str:
    basis = (
        f"the session's {size_text(max(1, real_mb(inv)))} real share of RAM (REALMEMSIZE)"
        if floored(inv)
        else f"MEMSIZE {size_text(memsize_mb(inv))}"
    )
    half = sortsize_half_mb(inv)
    text = f"Half of {basis} → {size_text(half)}, as bartucca2005 ran its 60 GB sort (l.269)"
    if value < half:
        text += (
            f", capped at {size_text(SORTSIZE_CAP_MB)}, the largest SORTSIZE the papers ran; "
            "chew (l.63-69) found bigger bins help external sorts only while RAM lasts and a "
            "smaller SORTSIZE can even sort faster. A job that needs more sets it for itself "
            "(PROC SORT SORTSIZE= or OPTIONS SORTSIZE=), as bogacz2012 (l.211) had its few "
            "jobs above 2 GB override the server's value"
        )
    return (
        text + "; bigger bins help external sorts only until they push the box into RAM "
        "shortfall (chew l.63)."
    )


def _warn_small_work(inv: Inventory, out: Emitter) -> None:
    """A sort that spills writes a utility file about the size of its input."""
    work = inv.by_role("work", "utilloc")
    largest = inv.workload.largest_table_gb
    have = sum(s.size_gb for s in work)
    if not work or have >= largest:
        return
    out.warn(
        f"WORK and UTILLOC hold {have:g} GB ({', '.join(s.mount for s in work)}), less than "
        f"the largest table ({largest:g} GB): sorting it will fail for lack of space. "
        "bartucca2005's 60 GB sort (l.269) read and wrote 120,804 MB through one utility "
        "file (l.305-316: 966,434 writes of 64 KB, about 60 GB, then read back).",
        action=f"Give WORK/UTILLOC at least {math.ceil(largest)} GB, plus room for the other "
        "sessions' files."
        + (
            " SPD Server sorts its own tables in WORKPATH (see spds.layout); this is for "
            "sorts on the SAS side."
            if inv.sas.spds
            else ""
        ),
        severity="medium" if inv.sas.spds else "high",
        sources=("bartucca2005",),
    )


@rule(
    id="memory.sortsize",
    title="Keep SORTSIZE at half of MEMSIZE, at most 4G",
    sources=("bartucca2005", "chew", "bogacz2012"),
    settings=((SAS_CONFIG, "SORTSIZE"),),
    inputs=(
        *BUDGET_INPUTS,
        "workload.largest_table_gb",
        "storage[].role",
        "storage[].size_gb",
    ),
)
def sortsize(inv: Inventory, out: Emitter) -> None:
    """SORTSIZE = MEMSIZE / 2 (bartucca2005's 4G of 8G), at most 4G; warn on small WORK."""
    value = sortsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "SORTSIZE",
        size_text(value),
        rationale=_sortsize_rationale(inv, value),
        evidence="bartucca2005 'Setup': SORTSIZE 4G under MEMSIZE 8G; chew on SORTSIZE bins",
        effect="chew: larger bins make external sorts more efficient while RAM lasts",
    )
    _warn_small_work(inv, out)


def _shared_or_floored(inv: Inventory) -> str | None:
    if inv.workload.concurrent_sessions > 1 or floored(inv):
        return None
    return (
        "one session whose share of RAM is above the 512M floor: MEMSIZE already holds it "
        "to that share, so REALMEMSIZE keeps its default"
    )


@rule(
    id="memory.realmemsize",
    title="Tell SORT and SUMMARY their share of RAM on a shared box",
    sources=("sas94-config", "chew"),
    settings=((SAS_CONFIG, "REALMEMSIZE"),),
    applies=_shared_or_floored,
    inputs=(
        "server.ram_gb", "workload.concurrent_sessions", "server.gpfs_pagepool_gb",
        "server.zfs_arc_max_gb",
    ),
)  # fmt: skip
def realmemsize(inv: Inventory, out: Emitter) -> None:
    """REALMEMSIZE only where the default would overstate the session's real memory.

    The default (0) lets every session size SORT and SUMMARY against the whole machine.
    A lone session that fits is already held to its share by MEMSIZE, so nothing is set
    there. With several sessions, or when the 512M floor lifted MEMSIZE above the real
    share, the value is the session's share of physical RAM.
    """
    sessions = inv.workload.concurrent_sessions
    value = max(1, real_mb(inv))
    who = f"{sessions} sessions share" if sessions > 1 else "One session runs in"
    out.set(
        SAS_CONFIG,
        "REALMEMSIZE",
        size_text(value),
        rationale=(
            f"{who} {gb(inv.server.ram_gb)} of RAM and {size_text(value)} is a session's real "
            "share, so SORT and SUMMARY move to utility files before the box pages instead "
            "of planning for the whole machine (the default, 0)."
        ),
        evidence="SAS 9.4 Companion for UNIX, REALMEMSIZE: a limit to avoid VM thrashing",
        effect="chew: RAM shortfall wipes out the gains of in-memory sorting",
    )


RULES: tuple[Rule, ...] = (memsize, sortsize, realmemsize)
