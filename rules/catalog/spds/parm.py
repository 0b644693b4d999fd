"""The rest of bogacz2012's spdsserv.parm: buffers, server switches, planner, SQL, paths.

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

from rules.derive.scope import with_spds
from rules.derive.spds import (
    SPDS_STRIPE_KB,
    TMP_DOMAIN,
    domain_dir,
    is_5x,
    path_list,
    tmp_domain_home,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SPDSSERV, Rule, rule

PAPER_ONLY = "bogacz2012's production value; the paper gives no derivation"

# (setting, value, what it does, already the 5.x default); a value of "on" is a switch.
Fixed = tuple[str, str, str, bool]
BUFFERS: tuple[Fixed, ...] = (
    ("BINBUFSIZE", "32K", "buffer per spill bin when a sort merges", False),
    ("INDEX_MAXMEMORY", "30M", "memory for each open index when tables are read", False),
    ("RANIOBUFMIN", "4K", "smallest buffer for random (indexed) reads", False),
)
SERVER: tuple[Fixed, ...] = (
    (
        "NOCOREFILE",
        "on",
        "a crashing server process writes no core file that could fill a file system",
        True,
    ),
)
PLANNER: tuple[Fixed, ...] = (
    (
        "MAXSEGRATIO",
        "75",
        "share of index segments tried before a WHERE falls back to a scan",
        True,
    ),
    ("WHERECOSTING", "on", "the WHERE planner weighs index use against a scan", True),
    (
        "RANDOMPLACEDPF",
        "on",
        "each table's first DPF goes to a random data path, so small tables do not all "
        "start on the first one",
        True,
    ),
    ("SQLOPTS", "reset plljoin", "parallel joins in SPD SQL", False),
)


def _fixed(inv: Inventory, out: Emitter, table: tuple[Fixed, ...]) -> None:
    five = is_5x(inv)
    for name, value, purpose, default5 in table:
        note = (
            " Already the 5.x default; written so the file states it." if five and default5 else ""
        )
        out.set(
            SPDSSERV,
            name,
            value,
            rationale=f"{purpose[0].upper()}{purpose[1:]}: {PAPER_ONLY}.{note}",
            evidence="bogacz2012 spdsserv.parm listing",
        )


def _settings(table: tuple[Fixed, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((SPDSSERV, name) for name, *_ in table)


def _seqiobufmin(inv: Inventory, out: Emitter) -> None:
    stripes = sorted({s.stripe_kb for s in inv.by_role("spds_data") if s.stripe_kb})
    match = (
        f"it matches the {SPDS_STRIPE_KB}K stripe unit of the data paths"
        if stripes == [SPDS_STRIPE_KB]
        else f"the data paths' stripe units are "
        f"{', '.join(f'{k}K' for k in stripes) or 'unknown'}, not the paper's "
        f"{SPDS_STRIPE_KB}K — keep 64K until a test says otherwise"
    )
    out.set(
        SPDSSERV,
        "SEQIOBUFMIN",
        "64K",
        rationale=f"Smallest buffer for sequential reads: {PAPER_ONLY}; {match}.",
        evidence="bogacz2012 spdsserv.parm listing; 64K hardware stripes",
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
    )


def _no_tmp_home(inv: Inventory, out: Emitter) -> None:
    missing = "or work file system" if inv.by_role("spds_data") else "nor spds_data file system"
    out.skip("storage", f"no spds_work {missing} for the TMP domain")
    out.warn(
        f"TMPDOMAIN is left unset: no spds_work {missing} is listed, and the advisor "
        "never puts the SQL query rewrite facility's intermediate tables on the metadata "
        "file system (every table's metadata lives there; bogacz2012 l.22 gave it 30 GB "
        "beside 2.88 TB) nor on one data path of the set the tables are spread over.",
        action="Add a file system marked SPD Server work (spds.layout says how "
        "large) and run the advisor again. Until then the SQL query rewrite facility, which "
        "requires TMPDOMAIN=, has no domain for its intermediate tables unless a user names "
        "one with the SQL pass-through RESET TMPDOMAIN= (spds5-docs).",
        severity="medium",
    )


def _tmp_on_sas_work(home: Storage, out: Emitter) -> None:
    out.warn(
        f"TMPDOMAIN's domain {TMP_DOMAIN} is on SAS WORK ({home.mount}): no file system "
        "marked SPD Server work is listed. Its intermediate tables then share WORK's space "
        "and disks with the SAS sessions.",
        action="Add file systems marked SPD Server work (bogacz2012 l.24 gave "
        "temporary files two of their own) and run the advisor again: TMP moves there.",
        severity="low",
    )


def _tmpdomain(inv: Inventory, out: Emitter) -> None:
    home = tmp_domain_home(inv)
    if home is None:
        _no_tmp_home(inv, out)
        return
    if home.role != "spds_work":
        _tmp_on_sas_work(home, out)
    out.set(
        SPDSSERV,
        "TMPDOMAIN",
        TMP_DOMAIN,
        rationale=f"Intermediate tables of the SQL query rewrite facility go to domain "
        f"{TMP_DOMAIN}, declared in libnames.parm at {domain_dir(home.mount, TMP_DOMAIN)} "
        f"(on {home.role} {home.mount}): temporary tables belong on a work area "
        "(bogacz2012 l.24), never on the metadata file system.",
        evidence="bogacz2012: TMPDOMAIN=TMP; spds5-docs: the domain must be in libnames.parm",
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
    id="spds.buffers",
    title="SPD Server buffer sizes from the paper's parm file",
    sources=("bogacz2012", "spds5-docs"),
    settings=(*_settings(BUFFERS), (SPDSSERV, "SEQIOBUFMIN")),
    applies=with_spds,
    inputs=("sas.spds.version", "storage[].role", "storage[].stripe_kb"),
)
def buffers(inv: Inventory, out: Emitter) -> None:
    """BINBUFSIZE, INDEX_MAXMEMORY, RANIOBUFMIN as the paper ran them; SEQIOBUFMIN 64K."""
    _fixed(inv, out, BUFFERS)
    _seqiobufmin(inv, out)


@rule(
    id="spds.server",
    title="No core files from a crashing SPD Server process",
    sources=("bogacz2012", "spds5-docs"),
    settings=_settings(SERVER),
    applies=with_spds,
    inputs=("sas.spds.version",),
)
def server(inv: Inventory, out: Emitter) -> None:
    """NOCOREFILE, as the paper's server ran (a 5.x default)."""
    _fixed(inv, out, SERVER)


@rule(
    id="spds.planner",
    title="WHERE planner and parallel SQL joins",
    sources=("bogacz2012", "spds5-docs"),
    settings=_settings(PLANNER),
    applies=with_spds,
    inputs=("sas.spds.version",),
)
def planner(inv: Inventory, out: Emitter) -> None:
    """MAXSEGRATIO, WHERECOSTING, RANDOMPLACEDPF and SQLOPTS as the paper ran them."""
    _fixed(inv, out, PLANNER)


@rule(
    id="spds.workpath",
    title="SPD Server utility files on the SPD work file systems",
    sources=("bogacz2012",),
    settings=((SPDSSERV, "WORKPATH"),),
    applies=with_spds,
    inputs=("storage[].role", "storage[].mount"),
)
def workpath(inv: Inventory, out: Emitter) -> None:
    """WORKPATH over every spds_work mount."""
    _workpath(inv, out)


@rule(
    id="spds.tmpdomain",
    title="A TMP domain for the SQL query rewrite facility",
    sources=("bogacz2012", "spds5-docs"),
    settings=((SPDSSERV, "TMPDOMAIN"),),
    applies=with_spds,
    inputs=("storage[].role", "storage[].mount"),
)
def tmpdomain(inv: Inventory, out: Emitter) -> None:
    """TMPDOMAIN=TMP on the first SPD work, else SAS WORK file system; else unset."""
    _tmpdomain(inv, out)


@rule(
    id="spds.whereaudit",
    title="WHERE auditing only for a bounded index analysis",
    sources=("bogacz2012",),
    settings=((SPDSSERV, "WHEREAUDIT"),),
    applies=with_spds,
)
def whereaudit(inv: Inventory, out: Emitter) -> None:
    """WHEREAUDIT as advice, never a line in the file."""
    _whereaudit(out)


RULES: tuple[Rule, ...] = (buffers, server, planner, workpath, tmpdomain, whereaudit)
