"""Rules: SAS I/O buffers and direct I/O (bartucca2005; SAS 9.2+ direct I/O from sgf2009-327).

bartucca2005 sorted a 60 GB (17 GB compressed) data set on a 16 GB AIX 5.3 box and timed
five PROC SORT runs. Its run times are the measured effects quoted below:
run 1 cached I/O 33:35.62; run 2 direct I/O 52:32.08 (56 % slower); run 3 data set
PAGESIZE=256K 38:59.46 (−25.8 %); run 4 utility file PAGESIZE=256K too 33:59.30 (−12.8 %);
final run BUFNO=16 31:32.07 (−7.2 %, CPU −11.5 %). Final vs run 1: −6 % time, −68 %
system CPU.
"""

from __future__ import annotations

from rules.catalog.direct_io import (
    DIRECT_IO_EFFECT,
    DIRECT_IO_GAIN_PCT,
    dio_mount_advice,
    forcedirectio,
    sgio,
    ufs_mounts,
)
from rules.derive.io import (
    SCRATCH_ROLES,
    direct_io_fits,
    direct_io_path,
    direct_io_why,
    needs_direct_io,
    page_choice,
    transfer_choice,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import PROGRAM, SAS_CONFIG, SYSTEM, Rule, rule
from rules.payloads import CodeExample
from rules.units import kb_text, parse_size_mb

# bartucca2005 "Final run": BUFNO=16 vs the default; SAS keeps 2 buffers at least, so 16
# added 14 × 256 KB; BUFNO=64 added another 48 × 256 KB and took 16 s off 31:32.07.
BARTUCCA_BUFNO = 16
BARTUCCA_BUFNO_MAX_TESTED = 64
SAS_MIN_BUFFERS = 2
BUFNO64_SAVED_S = 16
FINAL_RUN_S = 31 * 60 + 32
# bartucca2005's run times, as run-time cuts in %: run 3 vs run 2, run 4 vs run 3, the
# final run vs run 4, and the final run vs run 1 (cached I/O, the starting point).
RUN3_GAIN_PCT = 25.8
RUN4_GAIN_PCT = 12.8
FINAL_GAIN_PCT = 7.2

_CACHED_NOTE = (
    " The paper measured the gain under direct I/O; through the file cache it is smaller "
    "(not measured)."
)


def _per_job_code(page: str) -> str:
    return (
        f"sas -bufsize {page} big_sort.sas   "
        f"/* or per data set: */ data out.big (bufsize={page}); set in.big; run;"
    )


@rule(
    id="io.bufsize",
    title="Data set page size matches the LUNs' max transfer, for the big jobs",
    sources=("bartucca2005", "sas94-config"),
    settings=((PROGRAM, "BUFSIZE"),),
    inputs=("storage[].role", "storage[].max_transfer_kb", "workload", "server.ram_gb"),
)
def bufsize(inv: Inventory, out: Emitter) -> None:
    """BUFSIZE = the data LUNs' max transfer, per job as the paper set it, not site-wide."""
    choice = transfer_choice(inv)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"BUFSIZE needs it: {choice.reason}")
        return
    page = page_choice(choice.kb)
    out.set(
        PROGRAM,
        "BUFSIZE",
        kb_text(page.kb),
        kind="advice",
        rationale=(
            f"Give the big jobs' new data sets {kb_text(page.kb)} pages to match the "
            f"{choice.reason}{page.note}. Set it per job, as bartucca2005 did (BUFSIZE= on "
            "the output data set, l.486; -bufsize 256K on the sort job's command line, "
            "l.495), not site-wide: a site-wide BUFSIZE gives every new data set, small ones "
            "too, pages this large. Existing data sets keep their page size until rewritten."
            + ("" if direct_io_fits(inv) else _CACHED_NOTE)
        ),
        evidence="bartucca2005 l.244–252 (256 KB max transfer), Listing 3 (l.483–491), l.495",
        effect="Run 3 (data set PAGESIZE=256K, direct I/O): 38:59.46 vs 52:32.08, −25.8 %.",
        payload=CodeExample(_per_job_code(kb_text(page.kb))),
        gain_pct=RUN3_GAIN_PCT,
    )


def _documented_pagesize(inv: Inventory) -> str | None:
    """Applicability: PROC SORT PAGESIZE= is the 9.1.3 finding of bartucca2005 only."""
    if inv.sas.at_least_92:
        return (
            f"PROC SORT PAGESIZE= is not among the PROC SORT options documented for SAS "
            f"{inv.sas.version} (Base SAS Procedures Guide, PROC SORT statement; SORT "
            "Procedure: UNIX lists SORTSIZE= and TAGSORT); bartucca2005 found it on 9.1.3 "
            "only (l.543), so the advisor does not advise it here"
        )
    return None


@rule(
    id="io.utility_pagesize",
    title="PROC SORT utility file page size (SAS 9.1.3)",
    sources=("bartucca2005",),
    settings=((PROGRAM, "PROC SORT PAGESIZE"),),
    applies=_documented_pagesize,
    inputs=("storage[].role", "storage[].max_transfer_kb", "sas.version"),
)
def utility_pagesize(inv: Inventory, out: Emitter) -> None:
    """PAGESIZE= on PROC SORT sets the utility file's page size (BUFSIZE= is a syntax error)."""
    choice = transfer_choice(inv, SCRATCH_ROLES)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"PAGESIZE needs it: {choice.reason}")
        return
    page = page_choice(choice.kb)
    size = kb_text(page.kb)
    out.set(
        PROGRAM,
        "PROC SORT PAGESIZE",
        size,
        kind="advice",
        rationale=(
            f"Add PAGESIZE={size} to large PROC SORT steps so the utility file uses {size} "
            f"pages ({choice.reason}{page.note}); BUFSIZE= there is a syntax error, the paper "
            "found (l.543). The option is undocumented: SAS 9.1.3 accepted it on lemans; "
            "check the log of the first run."
        ),
        evidence="bartucca2005 l.541–543, 'PROC SORT performance using direct I/O (data set "
        "and utility file PAGESIZE=256K)'",
        effect="Run 4: 33:59.30 vs 38:59.46, −12.8 % time and −17.6 % CPU.",
        payload=CodeExample(f"proc sort data=in.big out=out.big pagesize={size};"),
        gain_pct=RUN4_GAIN_PCT,
    )


@rule(
    id="io.direct_io",
    title="Direct I/O for large sorts that do not reuse the file cache",
    sources=("bartucca2005", "sgf2009-327", "sas-win-sgio", "oracle-mount-ufs"),
    settings=(
        (SYSTEM, "direct I/O mount"),
        (PROGRAM, "ENABLEDIRECTIO/USEDIRECTIO"),
        (SAS_CONFIG, "SGIO"),
        (SYSTEM, "forcedirectio mount"),
    ),
    applies=needs_direct_io,
    inputs=("workload", "server.ram_gb", "server.os", "sas.version", "storage[].mount"),
)
def direct_io(inv: Inventory, out: Emitter) -> None:
    """Direct I/O only when tables exceed RAM and cache reuse is poor (sort-heavy ETL)."""
    why = direct_io_why(inv)
    if inv.server.os == "windows":
        sgio(inv, out, why)
    elif inv.sas.at_least_92:
        out.set(
            PROGRAM,
            "ENABLEDIRECTIO/USEDIRECTIO",
            "LIBNAME ... ENABLEDIRECTIO; data set option USEDIRECTIO=YES",
            kind="advice",
            rationale=f"Use direct I/O for the big sort inputs and outputs: {why}. SAS 9.2+ "
            "enables it per library (ENABLEDIRECTIO) and per data set (USEDIRECTIO=YES).",
            sources=("bartucca2005", "sgf2009-327"),
            evidence="bartucca2005 'Second run analysis'; sgf2009-327",
            effect=DIRECT_IO_EFFECT,
            gain_pct=DIRECT_IO_GAIN_PCT,
        )
    elif inv.server.os == "aix":
        dio_mount_advice(inv, out, why)
    elif inv.server.os == "solaris" and ufs_mounts(inv):
        forcedirectio(inv, out, why)
    else:
        out.warn(
            f"Direct I/O would suit this workload ({why}), but SAS {inv.sas.version} on "
            f"{inv.server.os} has no direct I/O path the advisor knows of.",
            action="Upgrade to SAS 9.2+ (ENABLEDIRECTIO/USEDIRECTIO) or use the OS's "
            "direct I/O mount option.",
            severity="low",
        )


def _memsize_note(out: Emitter, per_set_kb: int) -> str:
    memsize = out.get(SAS_CONFIG, "MEMSIZE")
    if memsize is None:
        return ""
    share = per_set_kb / 1024 / parse_size_mb(memsize.value) * 100
    return f" ({share:.2f} % of MEMSIZE {memsize.value})"


def _bufno_applies(inv: Inventory) -> str | None:
    """BUFNO replaces the read-ahead that direct I/O loses: only where direct I/O is had."""
    reason = needs_direct_io(inv)
    if reason is not None:
        return reason
    if direct_io_path(inv) is None:
        return (
            f"direct I/O would fit, but SAS {inv.sas.version} on {inv.server.os} has no "
            "direct I/O path the advisor knows of (see io.direct_io); bartucca2005 measured "
            "BUFNO=16 only under direct I/O (l.647), where the OS read-ahead is lost"
        )
    return None


def _bufno_sizes(inv: Inventory, out: Emitter) -> tuple[str, str]:
    """'16 × 256K = 4M (0.05 % of MEMSIZE 8G)' and the cost of 64 buffers."""
    choice = transfer_choice(inv)
    page_size = page_choice(choice.kb).kb if choice.kb else None
    page = kb_text(page_size) if page_size else "BUFSIZE"
    extra64 = BARTUCCA_BUFNO_MAX_TESTED - BARTUCCA_BUFNO
    total = f"{BARTUCCA_BUFNO} × {page}"
    if page_size:
        per_set_kb = BARTUCCA_BUFNO * page_size
        total += f" = {kb_text(per_set_kb)}{_memsize_note(out, per_set_kb)}"
    cost64 = f"{extra64} × {page}" + (f" = {kb_text(extra64 * page_size)}" if page_size else "")
    return total, cost64


@rule(
    id="io.bufno",
    title="More SAS I/O buffers to pipeline direct I/O",
    sources=("bartucca2005",),
    settings=((SAS_CONFIG, "BUFNO"),),
    applies=_bufno_applies,
    inputs=("storage[].role", "storage[].max_transfer_kb", "workload", "server.ram_gb"),
    reads=((SAS_CONFIG, "MEMSIZE"),),
)
def bufno(inv: Inventory, out: Emitter) -> None:
    """BUFNO=16 replaces the read-ahead that direct I/O loses; only with direct I/O."""
    total, cost64 = _bufno_sizes(inv, out)
    gain = BUFNO64_SAVED_S / FINAL_RUN_S
    out.set(
        SAS_CONFIG,
        "BUFNO",
        str(BARTUCCA_BUFNO),
        rationale=(
            f"Direct I/O through {direct_io_path(inv)} loses the VMM's read-ahead; "
            f"{BARTUCCA_BUFNO} buffers let SAS pipeline its own I/O at {total} per open data "
            f"set ({BARTUCCA_BUFNO - SAS_MIN_BUFFERS} buffers more than SAS's minimum of "
            f"{SAS_MIN_BUFFERS}). BUFNO={BARTUCCA_BUFNO_MAX_TESTED} would cost another "
            f"{cost64} per open data set for {BUFNO64_SAVED_S} s of 31:32 ({gain:.1%})."
        ),
        evidence="bartucca2005 'Final run analysis' (l.647, l.668–670)",
        effect="Final run: 31:32.07 vs 33:59.30, −7.2 % time and −11.5 % CPU.",
        gain_pct=FINAL_GAIN_PCT,
    )


RULES: tuple[Rule, ...] = (bufsize, utility_pagesize, direct_io, bufno)
