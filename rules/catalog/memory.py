"""Rules: MEMSIZE, SORTSIZE and REALMEMSIZE (sources: bartucca2005, chew, sas94-config).

The anchor is bartucca2005's lemans box: 16 GB of RAM, one 60 GB PROC SORT, MEMSIZE 8G and
SORTSIZE 4G — half the RAM to SAS, the other half to AIX and its file cache, and half of
MEMSIZE to the sort. With several sessions, SAS's half is shared out and each share is
rounded down to a power of two, so sessions × MEMSIZE stays inside RAM. Where SPD Server
runs on the box, its sort memory is drawn first (bogacz2012) and SAS halves what is left:
one budget (rules.derive.memory), and a warning when its ceilings add up past RAM. A GPFS
node's pagepool is pinned memory (ibm-scale-pinned) and a ZFS ARC keeps what its bound lets
it take (oracle-zfs-arc; on Linux openzfs-arc-max, unconfirmed): both come off the RAM
first, and where they are the file cache of every SAS file system no second half is kept
for a page cache. MEMSIZE and SORTSIZE never go below the server's current values (else
SAS's shipped defaults, sas-memsize-defaults) on memory pressure alone. chew
warns why not to go further: bigger SORTSIZE bins help external sorts only until the memory
they take pushes the box into RAM shortfall, and then "all gains will be more than
completely lost" (l.63); SORTSIZE stops at bartucca2005's 4G.
"""

from __future__ import annotations

import math

from rules.catalog import memory_host
from rules.catalog.memory_budget import (
    MEMSIZE_SOURCES,
    cache_sources,
    share_text,
    warn_over_budget,
)
from rules.derive.memory import (
    MEMSIZE_FLOOR_MB,
    SORTSIZE_CAP_MB,
    floored,
    kept,
    memsize_mb,
    over_budget,
    real_mb,
    session_share_mb,
    sortsize_floor_mb,
    sortsize_half_mb,
    sortsize_mb,
)
from rules.derive.memory import SAS_RAM_SHARE as SAS_RAM_SHARE
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, Rule, rule
from rules.units import gb, size_text

# The contract fields the memory budget (rules.derive.memory) is drawn from.
BUDGET_INPUTS = (
    "server.ram_gb", "workload.concurrent_sessions", "sas.spds", "server.gpfs_pagepool_gb",
    "server.zfs_arc_max_gb", "storage[].filesystem", "storage[].shared", "sas.version",
    "current.sas_options",
)  # fmt: skip
KEEP_WHY = (
    "a lower ceiling does not cut what the sessions use, and jobs doing SQL joins, hash "
    'objects or summaries then fail with "insufficient memory" (SAS MEMSIZE: UNIX, '
    "sas-memsize-defaults); the over-commit warning says how to make them fit"
)


def _memsize_rationale(inv: Inventory, value: int) -> str:
    sessions = inv.workload.concurrent_sessions
    share = session_share_mb(inv)
    text = share_text(inv)
    found = kept(inv, "MEMSIZE")
    if floored(inv) and found and found[0] == value and value > MEMSIZE_FLOOR_MB:
        return text + f", below {found[1]} → {size_text(value)}, kept: {KEEP_WHY}."
    if floored(inv):
        return text + f", below the {size_text(MEMSIZE_FLOOR_MB)} floor → {size_text(value)}."
    if value == share:
        return text + f" → {size_text(value)}."
    how = "rounded down to a power of two" if sessions > 1 else "rounded down"
    return text + f" → {size_text(value)}, {how}."


@rule(
    id="memory.memsize",
    title="Size MEMSIZE from RAM and concurrent sessions",
    sources=MEMSIZE_SOURCES,
    settings=((SAS_CONFIG, "MEMSIZE"),),
    inputs=BUDGET_INPUTS,
)
def memsize(inv: Inventory, out: Emitter) -> None:
    """SAS's part of the account (bartucca2005's half, or all but the OS reserve beside a
    bounded file cache) per peak session; never below the kept MEMSIZE, 512M at least."""
    value = memsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "MEMSIZE",
        size_text(value),
        rationale=_memsize_rationale(inv, value),
        sources=cache_sources(inv),
        evidence="bartucca2005 'Setup': MEMSIZE 8G on the 16 GB lemans box",
        effect=(
            "bartucca2005: with MEMSIZE 8G and the file cache capped (maxperm 60), SAS held "
            "39.2 % of real memory and the 60 GB sort logged Page Swaps 0"
        ),
    )
    if over_budget(inv):
        warn_over_budget(inv, out)


def _cap_text(inv: Inventory) -> str:
    """Why SORTSIZE stops at 4G although SAS allows it up to MEMSIZE."""
    largest, memsize = inv.workload.largest_table_gb, memsize_mb(inv)
    doc = (
        "SORTSIZE System Option: Windows, sas94-config: by default the memory available"
        if inv.server.os == "windows"
        else "SORTSIZE System Option: UNIX, sas94-config: MIN leaves only MEMSIZE's limit"
    )
    outside = (
        f"; the largest table ({largest:g} GB) is larger than MEMSIZE {size_text(memsize)}, "
        "so its sort runs through utility files whatever SORTSIZE is"
        if largest * 1024 > memsize
        else ""
    )
    return (
        f", capped at {size_text(SORTSIZE_CAP_MB)}, the largest SORTSIZE the papers ran. SAS "
        f"allows SORTSIZE up to MEMSIZE ({doc}){outside}. chew (l.63-69) found bigger bins help "
        "external sorts only while RAM lasts and a smaller SORTSIZE can even sort faster; no "
        "source measured SAS sorting with more, so the site value stays at the papers' 4G. "
        "A job that needs more sets it for itself (PROC SORT SORTSIZE= or OPTIONS "
        "SORTSIZE=), as bogacz2012 (l.211) had its few jobs above 2 GB override the "
        "server's value"
    )


def _sortsize_rationale(inv: Inventory, value: int) -> str:
    basis = (
        f"the session's {size_text(max(1, real_mb(inv)))} real share of RAM (REALMEMSIZE)"
        if floored(inv)
        else f"MEMSIZE {size_text(memsize_mb(inv))}"
    )
    half = sortsize_half_mb(inv)
    text = f"Half of {basis} → {size_text(half)}, as bartucca2005 ran its 60 GB sort (l.269)"
    found = kept(inv, "SORTSIZE")
    if value == sortsize_floor_mb(inv) and value > min(half, SORTSIZE_CAP_MB) and found:
        text += f"; below {found[1]} → {size_text(value)}, kept: " + KEEP_WHY
    elif value < half:
        text += _cap_text(inv)
    return (
        text + "; bigger bins help external sorts only until they push the box into RAM "
        "shortfall (chew l.63)."
    )


def _sortsize_sources(inv: Inventory, value: int) -> tuple[str, ...]:
    """The papers, plus SAS's documentation where the cap or a kept value is explained."""
    extra: tuple[str, ...] = ()
    if value == sortsize_floor_mb(inv) and value > min(sortsize_half_mb(inv), SORTSIZE_CAP_MB):
        extra = ("sas-memsize-defaults",)
    elif value < sortsize_half_mb(inv):
        extra = ("sas94-config",)
    return ("bartucca2005", "chew", "bogacz2012", *extra)


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
    sources=("bartucca2005", "chew", "bogacz2012", "sas94-config", "sas-memsize-defaults"),
    settings=((SAS_CONFIG, "SORTSIZE"),),
    inputs=(
        *BUDGET_INPUTS,
        "workload.largest_table_gb",
        "storage[].role",
        "storage[].size_gb",
    ),
)
def sortsize(inv: Inventory, out: Emitter) -> None:
    """SORTSIZE = MEMSIZE / 2 (bartucca2005's 4G of 8G), at most 4G, never below the kept
    value; warn on small WORK."""
    value = sortsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "SORTSIZE",
        size_text(value),
        rationale=_sortsize_rationale(inv, value),
        sources=_sortsize_sources(inv, value),
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


RULES: tuple[Rule, ...] = (memsize, sortsize, realmemsize, *memory_host.RULES)
