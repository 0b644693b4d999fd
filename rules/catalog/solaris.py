"""Rule solaris.large_pages: large pages for CPU-bound SAS procedures that thrash the TLB.

chew (l.439-568) measured PROC LOESS spending ~30 % and PROC IML ~20 % of their time on TLB
misses (trapstat -t), and cut LOESS from ~4.5 h to ~1.5 h and IML from ~70 to ~38 min by
giving SAS large pages (ISM MAP, standing in for Solaris 9's MPSS). Her conditions come
first (l.563-568): a CPU-bound job, a fair amount of memory, allocations of 2-4 MB and up
(pmap), trapstat -t above 5-10 %; with too little free, coalesced memory it gets worse
(l.562). MPSS is applied per SAS invocation through mpss.so.1 (oracle-mpss), so it is undone
by starting SAS without it.

That preload is Solaris 9's way in (MPSS came with Solaris 9). From Solaris 10 the kernel
has an out-of-box large-page policy and picks large pages itself (oracle-large-pages-oob;
stated there for shared memory, for a process heap unconfirmed), so on 10 and later the rule
checks with pmap -xs which page sizes SAS got instead of advising the preload.
"""

from __future__ import annotations

from rules.catalog import zfs
from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SYSTEM, Rule, rule

ON_SOLARIS = on_os("solaris")
TLB_SHARE_LIMIT_PCT = "5-10"  # chew l.482: trapstat -t time in TLB misses that is a problem
# chew l.557-559: IML ~70 → ~38 min (the smaller of her two gains; LOESS ~4.5 → ~1.5 h).
GAIN_PCT = round((70 - 38) / 70 * 100, 1)
MPSS_ENV = "LD_PRELOAD_64=/usr/lib/64/mpss.so.1 MPSSHEAP=4M"
OOB_LARGE_PAGES = (10,)  # Solaris 10: the kernel's own large-page policy


@rule(
    id="solaris.large_pages",
    title="Large pages (MPSS) for CPU-bound procedures that thrash the TLB",
    sources=("chew", "oracle-mpss", "oracle-large-pages-oob"),
    settings=(
        (SYSTEM, "check:trapstat -t"),
        (SYSTEM, "MPSS for SAS"),
        (SYSTEM, "check:pmap -xs"),
    ),
    applies=ON_SOLARIS,
    inputs=("workload.mix.analytics", "server.os_version"),
)
def large_pages(inv: Inventory, out: Emitter) -> None:
    """Check TLB miss time first; large pages only where chew's conditions hold."""
    share = inv.workload.mix.analytics
    if share == 0:
        out.skip("workload.mix.analytics", "no CPU-bound analytics in the mix (chew l.563)")
        return
    out.set(
        SYSTEM, "check:trapstat -t", "trapstat -t 5 3", kind="check",
        rationale=f"As root while a big LOESS, IML or other CPU-bound step runs ({share:.0%} "
        f"of the mix is analytics): the dtlb-miss %tim column above {TLB_SHARE_LIMIT_PCT} % "
        "means address translation is holding the job back (chew l.482); pmap -x PID should "
        "show anonymous mappings of 2-4 MB and up (chew l.537, l.566), and pagesize -a the "
        "large page sizes the machine has.",
    )  # fmt: skip
    if inv.server.version >= OOB_LARGE_PAGES:
        _page_sizes(inv, out)
        return
    out.set(
        SYSTEM, "MPSS for SAS", MPSS_ENV, kind="advice", gain_pct=GAIN_PCT,
        rationale="Only where the check shows it: start those SAS jobs with "
        f"`env {MPSS_ENV} sas …` so their heap gets 4 MB pages (mpss.so.1). chew's stand-in "
        "for MPSS cut TLB time to 2-3 % and LOESS from ~4.5 h to ~1.5 h, IML from ~70 to "
        "~38 min (l.557-561), but it can make things worse without enough free, coalesced "
        "memory (l.562). To undo, start SAS without the two variables.",
        evidence="chew 'ISM MAP Results' (l.555-561)",
        effect="chew: LOESS ~4.5 h → ~1.5 h, IML ~70 → ~38 min with large pages",
    )  # fmt: skip


def _page_sizes(inv: Inventory, out: Emitter) -> None:
    """Solaris 10+: no preload; look at the page sizes SAS's heap got."""
    out.set(
        SYSTEM, "check:pmap -xs", "pmap -xs <PID of a SAS session>", kind="check",
        rationale=f"No LD_PRELOAD of mpss.so.1 on Solaris {inv.server.os_version}: that is "
        "Solaris 9's way to large pages (chew's ISM MAP stood in for it, l.555), and from "
        "Solaris 10 the kernel has its own out-of-box large-page policy and picks large "
        "pages itself (oracle-large-pages-oob; documented for shared memory, for the heap "
        "unconfirmed). While the big step runs, the Pgsz column of pmap -xs should show "
        "large pages (4M or more on SPARC, 2M on x86) on SAS's heap. If it shows only the "
        "base size with trapstat's %tim above 5-10 %, memory is too fragmented for large "
        "pages (chew l.562): take it to Oracle support rather than forcing a page size.",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (large_pages, *zfs.RULES)
