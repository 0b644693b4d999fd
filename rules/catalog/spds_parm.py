"""The rest of bogacz2012's spdsserv.parm: buffers, WORKPATH, planner and SQL switches.

Source: bogacz2012's listing (BINBUFSIZE=32K, INDEX_MAXMEMORY=30M, WORKPATH on the two
work file systems, NOCOREFILE, SEQIOBUFMIN=64K, RANIOBUFMIN=4K, MAXSEGRATIO=75,
WHERECOSTING, RANDOMPLACEDPF, TMPDOMAIN=TMP, SQLOPTS="reset plljoin", WHEREAUDIT). The
paper gives no derivation for most of these; the rationale says so rather than invent one.
spds5-docs: MAXSEGRATIO 75, WHERECOSTING, RANDOMPLACEDPF and NOCOREFILE are 5.x defaults;
TMPDOMAIN must name a domain declared in libnames.parm; WHEREAUDIT logs every WHERE clause.
The 4.x guide documents only M and G suffixes, yet the paper's 4.4 file ran for two years
with 32K, 64K and 4K values, so the K values are kept as the paper wrote them.
"""

from __future__ import annotations

from rules.catalog.spds_common import (
    SPDS_STRIPE_KB,
    TMP_DOMAIN,
    domain_dir,
    is_5x,
    parm_extra,
    path_list,
    tmp_domain_home,
)
from rules.inventory import Inventory
from rules.model import SPDSSERV, Emitter, rule

PAPER_ONLY = "bogacz2012's production value; the paper gives no derivation"

# (setting, value, line, what it does, already the 5.x default)
FIXED: tuple[tuple[str, str, str, str, bool], ...] = (
    ("BINBUFSIZE", "32K", "BINBUFSIZE=32K;", "buffer per spill bin when a sort merges", False),
    (
        "INDEX_MAXMEMORY",
        "30M",
        "INDEX_MAXMEMORY=30M;",
        "memory for each open index when tables are read",
        False,
    ),
    (
        "NOCOREFILE",
        "on",
        "NOCOREFILE;",
        "a crashing server process writes no core file that could fill a file system",
        True,
    ),
    ("RANIOBUFMIN", "4K", "RANIOBUFMIN=4K;", "smallest buffer for random (indexed) reads", False),
    (
        "MAXSEGRATIO",
        "75",
        "MAXSEGRATIO=75;",
        "share of index segments tried before a WHERE falls back to a scan",
        True,
    ),
    (
        "WHERECOSTING",
        "on",
        "WHERECOSTING;",
        "the WHERE planner weighs index use against a scan",
        True,
    ),
    (
        "RANDOMPLACEDPF",
        "on",
        "RANDOMPLACEDPF;",
        "each table's first DPF goes to a random data path, so small tables do not all "
        "start on the first one",
        True,
    ),
    ("SQLOPTS", "reset plljoin", 'SQLOPTS="reset plljoin";', "parallel joins in SPD SQL", False),
)


def _fixed(inv: Inventory, out: Emitter) -> None:
    five = is_5x(inv)
    for name, value, line, purpose, default5 in FIXED:
        note = (
            " Already the 5.x default; written so the file states it." if five and default5 else ""
        )
        out.set(
            SPDSSERV,
            name,
            value,
            rationale=f"{purpose[0].upper()}{purpose[1:]}: {PAPER_ONLY}.{note}",
            evidence="bogacz2012 spdsserv.parm listing",
            extra=parm_extra(name, line),
        )


def _seqiobufmin(inv: Inventory, out: Emitter) -> None:
    stripes = sorted({s.stripe_kb for s in inv.by_role("spds_data") if s.stripe_kb})
    match = (
        f"it matches the {SPDS_STRIPE_KB}K stripe unit of the data paths"
        if stripes == [SPDS_STRIPE_KB]
        else f"the data paths' stripe units are {stripes or 'unknown'}K, not the paper's "
        f"{SPDS_STRIPE_KB}K — keep 64K until a test says otherwise"
    )
    out.set(
        SPDSSERV,
        "SEQIOBUFMIN",
        "64K",
        rationale=f"Smallest buffer for sequential reads: {PAPER_ONLY}; {match}.",
        evidence="bogacz2012 spdsserv.parm listing; 64K hardware stripes",
        extra=parm_extra("SEQIOBUFMIN", "SEQIOBUFMIN=64K;"),
    )


def _workpath(inv: Inventory, out: Emitter) -> None:
    work = inv.by_role("spds_work")
    if not work:
        out.skip("storage", "no spds_work file system to put WORKPATH on")
        return
    value = path_list([s.mount for s in work])
    out.set(
        SPDSSERV,
        "WORKPATH",
        value,
        rationale=f"Utility files of sorts, index builds and parallel GROUP BY go to the "
        f"{len(work)} spds_work file system(s) {', '.join(s.mount for s in work)}; "
        "several paths let parallel processes spread their work files.",
        evidence="bogacz2012: WORKPATH=\"('/spdswork01' '/spdswork02')\", 2 × 177 GB",
        extra=parm_extra("WORKPATH", f'WORKPATH="{value}";'),
    )


def _tmpdomain(inv: Inventory, out: Emitter) -> None:
    home = tmp_domain_home(inv)
    if home is None:
        out.skip(
            "storage",
            "no SPD Server file system (spds_work, spds_meta or spds_data) for the TMP domain",
        )
        return
    out.set(
        SPDSSERV,
        "TMPDOMAIN",
        TMP_DOMAIN,
        rationale=f"Intermediate tables of the SQL query rewrite facility go to domain "
        f"{TMP_DOMAIN}, declared in libnames.parm at {domain_dir(home.mount, TMP_DOMAIN)} "
        f"(on {home.role} {home.mount}).",
        evidence="bogacz2012: TMPDOMAIN=TMP; spds5-docs: the domain must be in libnames.parm",
        extra=parm_extra("TMPDOMAIN", f"TMPDOMAIN={TMP_DOMAIN};"),
    )


def _whereaudit(out: Emitter) -> None:
    out.set(
        SPDSSERV,
        "WHEREAUDIT",
        "off (turn on for a bounded index analysis)",
        rationale="Left out of the file: WHEREAUDIT logs every WHERE clause to the audit "
        "and server logs, a diagnostic rather than a tuning. bogacz2012 used audit logging "
        "for one month to pick 12 index columns; do the same, then remove it.",
        evidence="bogacz2012: audit logging for a month → 14 frequent fields → 12 indexes",
        effect="bogacz2012: 'significantly improved query performance' after indexing",
        kind="advice",
    )


@rule(
    id="spds.parm_rest",
    title="The rest of the paper's spdsserv.parm",
    sources=("bogacz2012", "spds5-docs"),
    settings=tuple(
        (SPDSSERV, name)
        for name in (
            *(f[0] for f in FIXED),
            "SEQIOBUFMIN",
            "WORKPATH",
            "TMPDOMAIN",
            "WHEREAUDIT",
        )
    ),
)
def parm_rest(inv: Inventory, out: Emitter) -> None:
    """Buffers, WORKPATH from the spds_work mounts, switches; WHEREAUDIT as advice only."""
    if inv.sas.spds is None:
        return
    _fixed(inv, out)
    _seqiobufmin(inv, out)
    _workpath(inv, out)
    _tmpdomain(inv, out)
    _whereaudit(out)


RULES = (parm_rest,)
