"""The memory budget's words: how memory.memsize states the account and its over-commit.

One account (rules.derive.memory): the bounded file system caches, SPD Server's sort
memory, the SAS sessions' ceilings and the OS. When it adds up past RAM the warning says by
how much and what fits: cut sessions, add RAM, or shrink a cache. MEMSIZE itself is not cut
below the kept value (the server's, else SAS's shipped default): a lower ceiling does not
cut what sessions use, it only makes jobs fail (sas-memsize-defaults).
"""

from __future__ import annotations

import math

from rules.derive.memory import (
    SAS_RAM_SHARE,
    SPDS_SORT_CAP_MB,
    budget_total_mb,
    cache_is_file_cache,
    cache_parts,
    caches_mb,
    kept,
    mb_text,
    memsize_mb,
    os_reserve_mb,
    rest_mb,
    session_share_mb,
    spds_session_mb,
    spds_total_mb,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.units import gb, size_text

MEMSIZE_SOURCES = ("bartucca2005", "chew", "sas94-config", "sas-memsize-defaults")


def plural(n: int) -> str:
    return f"{n} session{'s' if n > 1 else ''}"


def os_label(inv: Inventory) -> str:
    if cache_is_file_cache(inv):
        return "OS reserve"
    if inv.server.os == "solaris" and any(s.filesystem == "zfs" for s in inv.storage):
        return "OS and ZFS ARC (bounded by zfs.arc)"
    return "OS and file cache"


def pool_text(inv: Inventory) -> str:
    """'(64 GB RAM − SPD Server's sort memory 50 × 1024M = 14 GB)' or '16 GB RAM'."""
    parts = [f"{name} {mb_text(mb)}" for name, mb in cache_parts(inv)]
    if inv.sas.spds is not None:
        sessions = inv.workload.concurrent_sessions
        parts.append(f"SPD Server's sort memory {sessions} × {spds_session_mb(inv)}M")
    if not parts:
        return f"{gb(inv.server.ram_gb)} RAM"
    return f"({gb(inv.server.ram_gb)} RAM − {' − '.join(parts)} = {mb_text(rest_mb(inv))})"


def share_text(inv: Inventory) -> str:
    """How the account reaches one session's share."""
    sessions = inv.workload.concurrent_sessions
    if cache_is_file_cache(inv):
        head = (
            f"{pool_text(inv)} − OS reserve {mb_text(os_reserve_mb(inv))} (10 % of RAM, at "
            "least 2 GB, the advisor's own figure, unconfirmed; the file cache is the bounded "
            "cache already counted, so no half is kept for it)"
        )
    else:
        head = f"{pool_text(inv)} × {SAS_RAM_SHARE:g} (the rest for the {os_label(inv)})"
    return f"{head} / {plural(sessions)} = {mb_text(session_share_mb(inv))}"


def budget_text(inv: Inventory) -> str:
    sessions, memsize = inv.workload.concurrent_sessions, memsize_mb(inv)
    parts = [f"{name} {mb_text(mb)}" for name, mb in cache_parts(inv)]
    parts.append(
        f"{plural(sessions)} × MEMSIZE {size_text(memsize)} = {mb_text(sessions * memsize)}"
    )
    if inv.sas.spds is not None:
        parts.append(
            f"SPD Server {sessions} × {spds_session_mb(inv)}M = {mb_text(spds_total_mb(inv))}"
        )
    parts.append(f"{os_label(inv)} {mb_text(os_reserve_mb(inv))}")
    return " + ".join(parts) + f" = {mb_text(budget_total_mb(inv))}"


def _fit(inv: Inventory) -> tuple[int, int]:
    """(sessions that fit at this MEMSIZE, GB of RAM every session needs), SPD Server aside."""
    sessions, ram, memsize = inv.workload.concurrent_sessions, inv.server.ram_mb, memsize_mb(inv)
    if cache_is_file_cache(inv):
        reserve = os_reserve_mb(inv)
        need = sessions * (memsize + (SPDS_SORT_CAP_MB if inv.sas.spds else 0)) + reserve
        return math.floor((ram - caches_mb(inv) - reserve) / memsize), math.ceil(
            (need + caches_mb(inv)) / 1024
        )
    per_session = memsize / SAS_RAM_SHARE + (SPDS_SORT_CAP_MB if inv.sas.spds else 0)
    fit = math.floor((ram - caches_mb(inv)) * SAS_RAM_SHARE / memsize)
    return fit, math.ceil((sessions * per_session + caches_mb(inv)) / 1024)


def _shrink_text(inv: Inventory) -> str:
    names = " ".join(name for name, _ in cache_parts(inv))
    shrink = [
        how for key, how in (
            ("GPFS", "a smaller GPFS pagepool (mmchconfig pagepool=…; pinned, never paged out)"),
            ("ZFS", "a lower ZFS ARC bound (zfs_arc_max, or on Solaris 11.2+ the "
             "user_reserve_hint_pct zfs.arc gives)"),
        ) if key in names
    ]  # fmt: skip
    if not shrink:
        return ""
    sas = inv.workload.concurrent_sessions * memsize_mb(inv) + spds_total_mb(inv)
    room = inv.server.ram_mb - sas - os_reserve_mb(inv)
    text = f" The file system caches come off the RAM first: {' or '.join(shrink)} leaves SAS more"
    if cache_is_file_cache(inv) and room > 0:
        text += f"; at this MEMSIZE the caches fit in {mb_text(room)}"
    return text + "."


def budget_action(inv: Inventory) -> str:
    sessions = inv.workload.concurrent_sessions
    fit, need_gb = _fit(inv)
    # Without SPD Server the sessions that fit follow directly; with it SPD Server's share
    # moves with the session count, so only the RAM figure (an upper bound) is given.
    cut = f"cut peak sessions to {fit}, or " if 1 <= fit < sessions and not inv.sas.spds else ""
    text = f"To give every session {size_text(memsize_mb(inv))}, {cut}grow RAM to at least "
    text += f"{need_gb} GB." + _shrink_text(inv)
    if inv.sas.spds is not None:
        text += (
            " Every figure is a ceiling: bogacz2012 (l.211, l.254) ran SPD Server's 1024M for "
            "50 users for two years because SAS sessions that query SPD Server stay small. "
            "Watch paging at peak (vmstat pi/po); if it pages, lower SPD Server's SORTSIZE, "
            "INDEX_SORTSIZE and GRPBYROWCACHE first."
        )
    return text


def cache_sources(inv: Inventory) -> tuple[str, ...]:
    """The rule's sources plus those of the caches in the budget."""
    names = " ".join(name for name, _ in cache_parts(inv))
    zfs = ("oracle-zfs-arc",) if inv.server.os == "solaris" else ("openzfs-arc-max",)
    extra = (("ibm-scale-pinned",) if "GPFS" in names else ()) + (zfs if "ZFS" in names else ())
    return (*MEMSIZE_SOURCES, *extra)


def warn_over_budget(inv: Inventory, out: Emitter) -> None:
    sessions, ram = inv.workload.concurrent_sessions, inv.server.ram_mb
    sas_alone = sessions * memsize_mb(inv) > ram
    floor = kept(inv, "MEMSIZE")
    whose = f" ({floor[1]}, kept)" if floor and floor[0] == memsize_mb(inv) else ""
    out.warn(
        f"Memory budget over RAM: {budget_text(inv)} on {gb(inv.server.ram_gb)} of RAM, over "
        f"by {mb_text(budget_total_mb(inv) - ram)}; each SAS session's real share is "
        f"{mb_text(session_share_mb(inv))}, below its MEMSIZE {size_text(memsize_mb(inv))}"
        f"{whose}, so sorts will page if all run at once (chew l.63: RAM shortfall wipes out "
        "the gains of bigger sort bins). A lower MEMSIZE would not cut what the sessions use; "
        "it would make jobs fail for insufficient memory.",
        action=budget_action(inv),
        severity="high" if sas_alone or inv.sas.spds is None else "medium",
        sources=cache_sources(inv),
    )
