"""Rule aix.vmo: keep the file cache from paging SAS out, by AIX release (bartucca2005
l.279-285; ibm-aix72-vmm, oracle19c-aix for 6.1+).

bartucca2005 changed maxperm only after topas showed part of SAS paging out to make room
for the file cache while PROC SORT read a 60 GB data set on a 16 GB box through cached I/O
(l.269, l.279). The rule changes it where the inventory describes that case: a sort-heavy
mix (ETL at least half, the advisor's stand-in for "large sorts", shared with direct I/O)
over tables larger than RAM. Elsewhere it checks for paging instead.

vmo keeps minperm% < maxperm% and maxclient% ≤ maxperm% at every change (IBM "Values for
minperm and maxperm parameters"), and the script checks both before its first change. The
paper gives no minperm% (l.279-283 change maxperm and strict_maxperm only), so where the
server runs a minperm% at or above the paper's maxperm% 60 the rule lowers it first, to
AIX 5.3's default 20 (aix-defaults-secondary, unconfirmed against IBM); and maxperm% goes
before maxclient% where it rises, after it where it falls, so each step is one vmo takes.

On AIX 5.3 the rule also sets lru_file_repage=0, IBM's later VMM guidance (5.3 TL1+, the
6.1 default; ibm-aix-lru-file-repage, the TL unconfirmed), marked as later guidance: with it
the page stealer takes only file pages while the file cache is above minperm%, so SAS's
computational pages are protected without a hard cap. The paper's maxperm% 60 with
strict_maxperm 1 stays the paper's where its case holds (cited); the rationale says how the
two interact, and that IBM's later set (minperm% 3, maxperm%/maxclient% 90, strict_maxperm 0)
avoids the hard cap's page stealing when several sessions read through the cache.
"""

from __future__ import annotations

from rules.catalog.aix.common import (
    AIX61,
    AIX71,
    MAXCLIENT_53,
    MULTIUSER_CAVEAT,
    VMO_PAPER,
    check,
    tune,
    with_tuning_commands,
)
from rules.derive.io import DIRECT_IO_MIN_ETL_SHARE
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule

AIX53 = (5, 3)
PAPER_EFFECT = (
    "bartucca2005 l.285: SAS and other programs then held 39.2 % of real memory without "
    "paging, and filemon showed no page-space activity."
)


def _paper_case(inv: Inventory) -> bool:
    """bartucca2005's trigger: large sorts of tables bigger than RAM through the cache."""
    work = inv.workload
    return work.largest_table_gb > inv.server.ram_gb and work.mix.etl >= DIRECT_IO_MIN_ETL_SHARE


MINPERM_53 = "20"  # AIX 5.3's default minperm% (aix-defaults-secondary, unconfirmed)


def _current_vmo(inv: Inventory, name: str) -> int | None:
    table = inv.current.aix_vmo if inv.current is not None else None
    value = (table or {}).get(name, "")
    return int(value) if value.isdigit() else None


def _lower_minperm(inv: Inventory, out: Emitter) -> None:
    """minperm% down to 5.3's default where the server's would sit at or above maxperm% 60."""
    now, maxperm = _current_vmo(inv, "minperm%"), int(VMO_PAPER["maxperm%"][1])
    if now is None or now < maxperm:
        return
    tune(
        out, inv, "vmo", "minperm%", MINPERM_53, MINPERM_53,
        rationale=f"The server runs minperm% {now}, at or above the paper's maxperm% {maxperm}: "
        "vmo refuses a maxperm% below minperm% (IBM 'Values for minperm and maxperm "
        "parameters'), so minperm% goes first, to AIX 5.3's default 20 (the paper changed "
        "only maxperm and strict_maxperm, bartucca2005 l.279-283; the 5.3 default is from a "
        "secondary source, unconfirmed against IBM).",
        sources=("bartucca2005", "ibm-aix72-vmm", "aix-defaults-secondary"),
    )  # fmt: skip


def _maxperm_rises(inv: Inventory) -> bool:
    now = _current_vmo(inv, "maxperm%")
    return now is not None and now < int(VMO_PAPER["maxperm%"][1])


LATER_VMM = "minperm% 3, maxperm% 90, maxclient% 90, strict_maxperm 0"


def _lru_file_repage(inv: Inventory, out: Emitter, paper_case: bool) -> None:
    """AIX 5.3: lru_file_repage 1 → 0, IBM's later guidance, and how it meets strict_maxperm."""
    sessions = inv.workload.concurrent_sessions
    with_paper = (
        " With the paper's strict_maxperm 1 also set, maxperm% 60 stays a hard ceiling: the "
        "file cache can never pass it, even with memory free, so at the ceiling lrud steals "
        "file pages without pause"
        + (
            f"; with {sessions} sessions reading through the cache that risks heavy page "
            "stealing (watch vmstat's fr and sr columns at peak). If it shows, IBM's later "
            f"set ({LATER_VMM}) leaves protection to lru_file_repage 0 instead of the cap"
            if sessions > 1
            else ""
        )
        + "."
        if paper_case
        else f" IBM's later set goes with it ({LATER_VMM}); the paper's hard cap is not needed."
    )
    tune(
        out, inv, "vmo", "lru_file_repage", "0", "1",
        rationale="Later guidance, not the paper's: IBM's VMM guidance for AIX 5.3 TL1 and "
        "later (the default from 6.1) sets lru_file_repage 0, so while the file cache is "
        "above minperm% the page stealer takes only file pages, whatever the repage rates, "
        "and SAS's computational pages stay in memory (ibm-aix-lru-file-repage; the 5.3 TL "
        "that brought it is unconfirmed: on a 5.3 level without it the script skips it)."
        + with_paper,
        sources=("ibm-aix-lru-file-repage", "bartucca2005"),
    )  # fmt: skip


def _vmo_53(inv: Inventory, out: Emitter) -> None:
    ram = inv.server.ram_gb
    cache = ram * int(VMO_PAPER["maxperm%"][1]) / 100
    why = (
        f"ETL is {inv.workload.mix.etl:.0%} of the mix and the largest table "
        f"({inv.workload.largest_table_gb:g} GB) exceeds RAM ({ram:g} GB): the case where "
        f"bartucca2005 saw the file cache page SAS out on AIX 5.3 (l.279). maxperm% 60 with "
        f"strict_maxperm 1 makes 60 % of RAM ({cache:g} GB) a hard ceiling on file pages: "
        "at the ceiling the page stealer takes file pages instead of SAS's computational "
        "pages. It caps the cache; it reserves nothing for SAS, whose sessions must still fit "
        "in memory (MEMSIZE × sessions)." + MULTIUSER_CAVEAT
    )
    _lower_minperm(inv, out)
    rises = _maxperm_rises(inv)
    if not rises:
        _maxclient(inv, out)
    for name, (default, new) in VMO_PAPER.items():
        tune(out, inv, "vmo", name, new, default, rationale=why,
             evidence="bartucca2005 l.279-285 'Initial adjustments' (maxperm 80→60, "
             "strict_maxperm 0→1)", effect=PAPER_EFFECT)  # fmt: skip
    if rises:
        _maxclient(inv, out)
    _lru_file_repage(inv, out, paper_case=True)


def _maxclient(inv: Inventory, out: Emitter) -> None:
    tune(
        out, inv, "vmo", "maxclient%", MAXCLIENT_53[1], MAXCLIENT_53[0],
        rationale="JFS2 caches file data as client pages, capped by maxclient%, which IBM "
        "says should stay ≤ maxperm%; lowering it to 60 with maxperm% is an inference, not "
        "a paper figure.",
        sources=("bartucca2005", "ibm-aix72-vmm"),
    )  # fmt: skip


def _vmstat_expect(inv: Inventory) -> str:
    if inv.server.version >= AIX61:
        return (
            "minperm percentage 3.0 and maxperm percentage 90.0 (defaults); paging space "
            "page outs not growing while SAS runs"
        )
    return "numperm percentage below maxperm percentage; paging space page outs not growing"


def _vmo_61(inv: Inventory, out: Emitter) -> None:
    version = inv.server.os_version
    if inv.server.version >= AIX71:
        keeps = "the file-page-first LRU of 5.3 is gone"
    else:
        keeps = "lru_file_repage 0 makes the LRU steal file pages first"
    rationale = (
        f"AIX {version} defaults (minperm% 3, maxperm% 90) already protect SAS's "
        f"computational pages — {keeps} — so the 2005 change for 5.3 is not repeated. "
        "maxperm% is a restricted tunable here (not for end users); if vmstat shows SAS "
        "paging (pi/po) during large sorts, take it to IBM support rather than lowering it."
    )
    check(out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv), rationale)
    if inv.server.version < AIX71:
        check(
            out, "check:vmo -o lru_file_repage", "vmo -o lru_file_repage",
            "lru_file_repage = 0 (a 5.3 nextboot file can carry 1 over a migration)",
            "AIX 6.1 protects computational pages only with lru_file_repage at its default 0.",
        )  # fmt: skip


def _no_paper_case(inv: Inventory, out: Emitter) -> None:
    work = inv.workload
    check(
        out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv),
        f"bartucca2005 lowered maxperm only after SAS paged out during a sort larger than "
        f"RAM (l.279); here ETL is {work.mix.etl:.0%} of the mix (the change needs at least "
        f"{DIRECT_IO_MIN_ETL_SHARE:.0%}) with the largest table {work.largest_table_gb:g} GB "
        f"on {inv.server.ram_gb:g} GB of RAM, so the script only looks. If paging space page "
        "outs grow while SAS sorts, maxperm% 60 with strict_maxperm 1 is the paper's fix.",
    )  # fmt: skip
    if inv.server.version >= AIX53:
        _lru_file_repage(inv, out, paper_case=False)


@rule(
    id="aix.vmo",
    title="Keep the file cache from paging SAS out (vmo, by AIX release)",
    sources=(
        "bartucca2005",
        "ibm-aix72-vmm",
        "oracle19c-aix",
        "aix-defaults-secondary",
        "ibm-aix-lru-file-repage",
    ),
    settings=(
        (AIX_SCRIPT, "lru_file_repage"),
        (AIX_SCRIPT, "minperm%"),
        (AIX_SCRIPT, "maxclient%"),
        (AIX_SCRIPT, "maxperm%"),
        (AIX_SCRIPT, "strict_maxperm"),
        (AIX_SCRIPT, "check:vmstat -v"),
        (AIX_SCRIPT, "check:vmo -o lru_file_repage"),
    ),
    applies=with_tuning_commands,
    inputs=(
        "server.os_version",
        "server.ram_gb",
        "workload.largest_table_gb",
        "workload.mix",
        "current.aix_vmo",
    ),
)
def vmo(inv: Inventory, out: Emitter) -> None:
    """5.2-5.3: the paper's maxperm change in the paper's case; 6.1+: a check only."""
    if inv.server.version >= AIX61:
        _vmo_61(inv, out)
    elif _paper_case(inv):
        _vmo_53(inv, out)
    else:
        _no_paper_case(inv, out)


RULES: tuple[Rule, ...] = (vmo,)
