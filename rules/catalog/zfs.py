"""Rules zfs.recordsize and zfs.arc: ZFS's own settings, past the papers.

A ZFS dataset reads and writes its files in records of `recordsize` (default 128K), set per
dataset and read with `zfs get recordsize`; it has no device block size that `fstyp` could
show, and a change applies to files written afterwards (oracle-zfs-recordsize). SAS pages
(BUFSIZE, io.bufsize) that are larger than the record span several records.

The ZFS cache (ARC) takes free memory and gives it back slowly, so a large SAS memory budget
(sessions × MEMSIZE) beside it needs a bound: `user_reserve_hint_pct` from Solaris 11.2
(Oracle's replacement for capping the ARC, at most 75 on 11.4 per the domain notes' reading
of Doc 1663862.1), else `zfs_arc_max`, which Oracle says to lower when a known workload
needs part of memory (oracle-zfs-arc).
"""

from __future__ import annotations

import math

from rules.derive.io import page_choice, transfer_choice
from rules.derive.labels import os_label
from rules.derive.memory import mb_text, memsize_mb, os_reserve_mb, spds_total_mb
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule
from rules.payloads import Watch
from rules.units import kb_text, size_text

RECORDSIZE_DEFAULT_KB = 128
USER_RESERVE_SINCE = (11, 2)
USER_RESERVE_CAP_114 = 75  # 11.4 caps user_reserve_hint_pct (Doc 1663862.1, medium)
USER_RESERVE_MAX = 99  # the 11.3 reference's range, 0-99


def _zfs(inv: Inventory) -> list[Storage]:
    return [s for s in inv.storage if s.filesystem == "zfs" and s.role != "other"]


def _has_zfs(inv: Inventory) -> str | None:
    if not _zfs(inv):
        return "no SAS storage on ZFS (no file system of type ZFS)"
    return None


def _sas_page_kb(inv: Inventory) -> int | None:
    choice = transfer_choice(inv)
    return page_choice(choice.kb).kb if choice.kb else None


def _recordsize_text(s: Storage, page: int | None) -> str:
    if s.zfs_recordsize_kb is None:
        return f"{s.mount}: recordsize not recorded (default {RECORDSIZE_DEFAULT_KB}K)"
    fits = page is None or s.zfs_recordsize_kb >= page
    return f"{s.mount}: recordsize {kb_text(s.zfs_recordsize_kb)}" + ("" if fits else " (small)")


@rule(
    id="zfs.recordsize",
    title="ZFS recordsize of each SAS dataset against the SAS page size",
    sources=("oracle-zfs-recordsize", "bartucca2005"),
    settings=((SYSTEM, "check:zfs get recordsize"), (SYSTEM, "ZFS recordsize")),
    applies=_has_zfs,
    inputs=("storage[].filesystem", "storage[].zfs_recordsize_kb", "storage[].mount"),
)
def recordsize(inv: Inventory, out: Emitter) -> None:
    """zfs get recordsize per dataset; raise a record smaller than the SAS page."""
    page = _sas_page_kb(inv)
    entries = _zfs(inv)
    want = f"{kb_text(page)} SAS pages (io.bufsize)" if page else "the SAS page size (BUFSIZE)"
    out.set(
        SYSTEM, "check:zfs get recordsize", "zfs get -o name,value recordsize " +
        " ".join(s.mount for s in entries), kind="check",
        rationale=f"A ZFS dataset's I/O size is its recordsize, not a file system block size "
        f"(fstyp shows none for ZFS): expect it at least {want}. "
        + "; ".join(_recordsize_text(s, page) for s in entries) + ".",
        payload=Watch("zfs get recordsize <dataset or mount point>"),
    )  # fmt: skip
    small = [s for s in entries if page and s.zfs_recordsize_kb and s.zfs_recordsize_kb < page]
    for s in small:
        out.set(
            SYSTEM, "ZFS recordsize", f"zfs set recordsize={kb_text(page or 0)} <dataset of "
            f"{s.mount}>", kind="advice",
            rationale=f"{s.mount} writes {kb_text(s.zfs_recordsize_kb or 0)} records while SAS "
            f"pages are {kb_text(page or 0)} (bartucca2005 matched the page to the "
            "transfer, l.486-495): each page spans several records. The new size applies to "
            "files written afterwards; WORK files are rewritten by every session, data sets "
            "when they are next rewritten. Records above 128K need a pool release that "
            "allows them (zpool get all: large blocks); undo with zfs inherit recordsize.",
        )  # fmt: skip


def _sas_budget_mb(inv: Inventory) -> float:
    return inv.workload.concurrent_sessions * memsize_mb(inv) + spds_total_mb(inv)


def _solaris_zfs(inv: Inventory) -> str | None:
    if inv.server.os != "solaris":
        return f"the server runs {os_label(inv.server.os)}; the ARC bound here is Solaris's"
    return _has_zfs(inv)


def _arc_now(inv: Inventory) -> str:
    now = inv.server.zfs_arc_max_gb
    return f"the ARC's bound now is {now:g} GB" if now else "the ARC's bound now is not recorded"


def _over(inv: Inventory) -> str:
    """Where the recorded bound and the SAS budget together pass RAM, say so: memory.memsize
    counts the same two figures in its account."""
    now, ram = inv.server.zfs_arc_max_gb, inv.server.ram_mb
    if not now or now * 1024 + _sas_budget_mb(inv) <= ram:
        return ""
    room = ram - _sas_budget_mb(inv) - os_reserve_mb(inv)
    return (
        f" The ARC's bound now ({now:g} GB) and this SAS figure ({mb_text(_sas_budget_mb(inv))})"
        f" add up to {mb_text(now * 1024 + _sas_budget_mb(inv))}, more than the RAM: the "
        "memory.memsize warning counts both in one account, and the bound above brings the "
        f"ARC down to what is left (about {mb_text(max(0.0, room))} beside the OS reserve)."
    )


@rule(
    id="zfs.arc",
    title="Bound the ZFS ARC beside the SAS memory budget (Solaris)",
    sources=("oracle-zfs-arc",),
    settings=((SYSTEM, "ZFS ARC bound"),),
    applies=_solaris_zfs,
    inputs=(
        "server.os_version", "server.ram_gb", "server.zfs_arc_max_gb",
        "workload.concurrent_sessions", "storage[].filesystem", "current.sas_options",
    ),
)  # fmt: skip
def arc(inv: Inventory, out: Emitter) -> None:
    """user_reserve_hint_pct on 11.2+, zfs_arc_max before: room for sessions × MEMSIZE."""
    budget, ram = _sas_budget_mb(inv), inv.server.ram_mb
    share = f"{mb_text(budget)} of {mb_text(ram)} RAM"
    why = (
        f"SAS may take {inv.workload.concurrent_sessions} sessions × MEMSIZE "
        f"{mb_text(memsize_mb(inv))}" + (" plus SPD Server's sort memory" if spds_total_mb(inv)
        else "") + f" = {share}; the ZFS ARC grows into free memory and gives it back "
        f"slowly, so SAS sessions can find it taken ({_arc_now(inv)})."
    )  # fmt: skip
    if inv.server.version >= USER_RESERVE_SINCE:
        cap = USER_RESERVE_CAP_114 if inv.server.version >= (11, 4) else USER_RESERVE_MAX
        pct = min(cap, math.ceil(budget / ram * 100))
        value = f"user_reserve_hint_pct={pct}"
        how = (
            f" Solaris {inv.server.os_version} takes user_reserve_hint_pct (11.2+), the "
            f"application footprint as a share of memory: {pct} %"
            + (f" (capped at {cap})" if budget / ram * 100 > cap else "")
            + ". Set it with Oracle's set_user_reserve.sh (Doc 1663862.1), which raises it in "
            "steps while the ARC shrinks, and keep it in /etc/system as the script prints; "
            "lower it again no more than 5 % at a time."
        )
    else:
        arc_mb = max(64, ram - budget)
        value = f"zfs_arc_max={size_text(arc_mb)}"
        how = (
            f" Solaris {inv.server.os_version} has no user_reserve_hint_pct (11.2+): cap the "
            f"ARC at RAM minus the SAS budget, set zfs:zfs_arc_max = {mb_text(arc_mb)} in "
            "/etc/system (bytes; read at boot). Undo by removing the line."
        )
    out.set(SYSTEM, "ZFS ARC bound", value, kind="advice", rationale=why + how + _over(inv),
            evidence="Oracle Solaris Tunable Parameters Reference: zfs_arc_max, "
            "user_reserve_hint_pct")  # fmt: skip


RULES: tuple[Rule, ...] = (recordsize, arc)
