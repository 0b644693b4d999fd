"""Rules: SAS I/O buffers and direct I/O (bartucca2005; SAS 9.2+ direct I/O from sgf2009-327).

bartucca2005 sorted a 60 GB (17 GB compressed) data set on a 16 GB AIX 5.3 box and timed
five PROC SORT runs. Its run times are the measured effects quoted below:
run 1 cached I/O 33:35.62; run 2 direct I/O 52:32.08 (56 % slower); run 3 data set
PAGESIZE=256K 38:59.46 (−25.8 %); run 4 utility file PAGESIZE=256K too 33:59.30 (−12.8 %);
final run BUFNO=16 31:32.07 (−7.2 %, CPU −11.5 %). Final vs run 1: −6 % time, −68 %
system CPU.
"""

from __future__ import annotations

from rules.catalog import placement
from rules.catalog.direct_io import (
    BUFNO_RULES,
    DIRECT_IO_EFFECT,
    DIRECT_IO_GAIN_PCT,
    dio_mount_advice,
    forcedirectio,
    sgio,
    ufs_mounts,
)
from rules.derive.io import (
    SCRATCH_ROLES,
    TransferChoice,
    direct_io_fits,
    direct_io_why,
    needs_direct_io,
    page_choice,
    transfer_choice,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import PROGRAM, SYSTEM, Rule, rule
from rules.payloads import CodeExample
from rules.units import kb_text

# bartucca2005's run times, as run-time cuts in %: run 3 vs run 2, run 4 vs run 3 (the
# final run's BUFNO=16, −7.2 %, is io.bufno's, in direct_io).
RUN3_GAIN_PCT = 25.8
RUN4_GAIN_PCT = 12.8

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
    inputs=(
        "storage[].role",
        "storage[].max_transfer_kb",
        "workload",
        "server.ram_gb",
        "storage[].gpfs_block_size_kb",
    ),
)
def bufsize(inv: Inventory, out: Emitter) -> None:
    """BUFSIZE = the data LUNs' max transfer, per job as the paper set it, not site-wide."""
    choice = transfer_choice(inv)
    gpfs = _gpfs_block(inv) if choice.kb is None else None
    choice = gpfs or choice
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
        sources=("bartucca2005", "sas94-config", "ibm-scale-blocksize") if gpfs else None,
    )


def _gpfs_block(inv: Inventory) -> TransferChoice | None:
    """On Spectrum Scale (GPFS) the file system's block size is its unit of transfer to the
    disks (ibm-scale-blocksize, unconfirmed here): the stand-in for a max transfer the client
    cannot see."""
    known = [
        s
        for s in inv.by_role("data")
        if "gpfs" in (s.filesystem, s.shared) and s.gpfs_block_size_kb is not None
    ]
    if not known:
        return None
    kb = max(s.gpfs_block_size_kb or 0 for s in known)
    names = ", ".join(f"{s.name} {s.gpfs_block_size_kb} KB" for s in known)
    return TransferChoice(
        kb,
        None,
        f"Spectrum Scale (GPFS) block size of {names} (GPFS block size, KB), the "
        "unit in which GPFS moves a file's data to its disks, standing in for the max "
        "transfer the cluster's disks hide from this node (ibm-scale-blocksize: unconfirmed)",
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
        (PROGRAM, "SGIO"),
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


# placement: where SAS's files land and how their pages meet the stripe.
RULES: tuple[Rule, ...] = (bufsize, utility_pagesize, direct_io, *BUFNO_RULES, *placement.RULES)
