"""Rules: MEMSIZE, SORTSIZE and REALMEMSIZE (sources: bartucca2005, chew, sas94-config).

The anchor is bartucca2005's lemans box: 16 GB of RAM, one 60 GB PROC SORT, MEMSIZE 8G and
SORTSIZE 4G — half the RAM to SAS, the other half to AIX and its file cache, and half of
MEMSIZE to the sort. With several sessions, SAS's half is shared out and each share is
rounded down to a power of two, so sessions × MEMSIZE stays inside RAM. chew warns why not
to go further: bigger SORTSIZE bins help external sorts only until the memory they take
pushes the box into RAM shortfall, and then "all gains will be more than completely lost".
"""

from __future__ import annotations

import math

from rules.derive.memory import (
    MEMSIZE_FLOOR_MB,
    SAS_RAM_SHARE,
    floored,
    mb_text,
    memsize_mb,
    real_mb,
    session_share_mb,
    sortsize_mb,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, Rule, rule
from rules.units import gb, size_text


def _others(inv: Inventory) -> str:
    return "the OS, file cache and SPD Server" if inv.sas.spds else "the OS and file cache"


def _memsize_rationale(inv: Inventory, value: int) -> str:
    sessions = inv.workload.concurrent_sessions
    share = session_share_mb(inv)
    text = (
        f"{gb(inv.server.ram_gb)} RAM × {SAS_RAM_SHARE:g} (the rest for {_others(inv)}) / "
        f"{sessions} session{'s' if sessions > 1 else ''} = {mb_text(share)}"
    )
    if floored(inv):
        return text + f", below the {size_text(MEMSIZE_FLOOR_MB)} floor → {size_text(value)}."
    if value == share:
        return text + f" → {size_text(value)}."
    how = "rounded down to a power of two" if sessions > 1 else "rounded down"
    return text + f" → {size_text(value)}, {how}."


def _warn_short(inv: Inventory, out: Emitter) -> None:
    sessions, ram = inv.workload.concurrent_sessions, inv.server.ram_mb
    total = sessions * memsize_mb(inv)
    fit = (
        f"which overcommits RAM by {mb_text(total - ram)}"
        if total > ram
        else f"which leaves only {mb_text(ram - total)} for {_others(inv)}"
    )
    max_sessions = math.floor(ram * SAS_RAM_SHARE / MEMSIZE_FLOOR_MB)
    need_gb = math.ceil(sessions * MEMSIZE_FLOOR_MB / SAS_RAM_SHARE / 1024)
    cut = f"cut peak sessions to {max_sessions}, or " if max_sessions >= 1 else ""
    out.warn(
        f"{sessions} session{'s' if sessions > 1 else ''} × MEMSIZE "
        f"{size_text(memsize_mb(inv))} = {mb_text(total)} on {gb(inv.server.ram_gb)} of "
        f"RAM, {fit}; each session's share is {mb_text(session_share_mb(inv))}, below the "
        f"{size_text(MEMSIZE_FLOOR_MB)} floor, so sorts will page (chew: RAM shortfall wipes "
        "out the gains of bigger sort bins).",
        action=f"To give every session {size_text(MEMSIZE_FLOOR_MB)}, {cut}grow RAM to at "
        f"least {need_gb} GB.",
        severity="high",
    )


@rule(
    id="memory.memsize",
    title="Size MEMSIZE from RAM and concurrent sessions",
    sources=("bartucca2005", "chew", "sas94-config"),
    settings=((SAS_CONFIG, "MEMSIZE"),),
    inputs=("server.ram_gb", "workload.concurrent_sessions", "sas.spds"),
)
def memsize(inv: Inventory, out: Emitter) -> None:
    """Half the RAM to SAS (bartucca2005), shared by the peak sessions; 512M at least."""
    value = memsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "MEMSIZE",
        size_text(value),
        rationale=_memsize_rationale(inv, value),
        evidence="bartucca2005 'Setup': MEMSIZE 8G on the 16 GB lemans box",
        effect=(
            "bartucca2005: with MEMSIZE 8G and the file cache capped (maxperm 60), SAS held "
            "39.2 % of real memory and the 60 GB sort logged Page Swaps 0"
        ),
    )
    if floored(inv):
        _warn_short(inv, out)


def _sortsize_rationale(inv: Inventory, value: int) -> str:
    basis = (
        f"the session's {size_text(max(1, real_mb(inv)))} real share of RAM (REALMEMSIZE)"
        if floored(inv)
        else f"MEMSIZE {size_text(memsize_mb(inv))}"
    )
    return (
        f"Half of {basis} → {size_text(value)}, as bartucca2005 ran its 60 GB sort; bigger "
        "bins help external sorts only until they push the box into RAM shortfall (chew)."
    )


@rule(
    id="memory.sortsize",
    title="Keep SORTSIZE at half of MEMSIZE",
    sources=("bartucca2005", "chew"),
    settings=((SAS_CONFIG, "SORTSIZE"),),
    inputs=("server.ram_gb", "workload.concurrent_sessions"),
)
def sortsize(inv: Inventory, out: Emitter) -> None:
    """SORTSIZE = MEMSIZE / 2 (bartucca2005's 4G of 8G): strictly below MEMSIZE."""
    value = sortsize_mb(inv)
    out.set(
        SAS_CONFIG,
        "SORTSIZE",
        size_text(value),
        rationale=_sortsize_rationale(inv, value),
        evidence="bartucca2005 'Setup': SORTSIZE 4G under MEMSIZE 8G; chew on SORTSIZE bins",
        effect="chew: larger bins make external sorts more efficient while RAM lasts",
    )


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
    inputs=("server.ram_gb", "workload.concurrent_sessions"),
)
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
