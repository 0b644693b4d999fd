"""Rules: SAS I/O buffers and direct I/O (bartucca2005; SAS 9.2+ direct I/O from sgf2009-327).

bartucca2005 sorted a 60 GB (17 GB compressed) data set on a 16 GB AIX 5.3 box and timed
five PROC SORT runs. Its run times are the measured effects quoted below:
run 1 cached I/O 33:35.62; run 2 direct I/O 52:32.08 (56 % slower); run 3 data set
PAGESIZE=256K 38:59.46 (−25.8 %); run 4 utility file PAGESIZE=256K too 33:59.30 (−12.8 %);
final run BUFNO=16 31:32.07 (−7.2 %, CPU −11.5 %). Final vs run 1: −6 % time, −68 %
system CPU.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.inventory import Inventory, Storage
from rules.model import PROGRAM, SAS_CONFIG, SYSTEM, Emitter, Rule, rule
from rules.units import kb_text, parse_size_mb

# bartucca2005 "Results from running dd": every hdisk behind /raid0 and /raid5 took 256 KB.
BARTUCCA_MAX_TRANSFER_KB = 256
# SAS BUFSIZE range (SAS 9.4 Companion for UNIX): 1K to 2G−1 bytes, i.e. at most 2G−1K
# in whole kilobytes.
SAS_BUFSIZE_MIN_KB = 1
SAS_BUFSIZE_MAX_KB = 2 * 1024 * 1024 - 1
# The paper measured 256K pages only; past 4 × that (1M) the advisor does not extrapolate:
# every open data set holds BUFNO pages of this size.
PAGE_CAP_KB = 4 * BARTUCCA_MAX_TRANSFER_KB
# bartucca2005 "Final run": BUFNO=16 vs the default; SAS keeps 2 buffers at least, so 16
# added 14 × 256 KB; BUFNO=64 added another 48 × 256 KB and took 16 s off 31:32.07.
BARTUCCA_BUFNO = 16
BARTUCCA_BUFNO_MAX_TESTED = 64
SAS_MIN_BUFFERS = 2
BUFNO64_SAVED_S = 16
FINAL_RUN_S = 31 * 60 + 32
# Direct I/O only paid off when the data outgrew RAM (60 GB table, 16 GB RAM) and the job
# reused almost nothing from cache (1.3 % more data through the file system than the
# disks, "First run analysis"). A sort-heavy ETL share of at least half stands in for
# "poor cache reuse" — a project threshold, not a paper figure.
DIRECT_IO_MIN_ETL_SHARE = 0.5
DATA_ROLES = ("data",)
SCRATCH_ROLES = ("work", "utilloc")

_CACHED_NOTE = (
    " The paper measured the gain under direct I/O; through the file cache it is smaller "
    "(not measured)."
)
DIRECT_IO_EFFECT = (
    "Run 2 (direct I/O, 16K pages) took 52:32.08 vs 33:35.62 cached — 56 % slower — but "
    "system CPU fell 53 % and 60 % of memory was freed; with 256K pages and BUFNO=16 the "
    "final run took 31:32.07, 6 % faster than cached, with 68 % less system CPU."
)


@dataclass(frozen=True)
class TransferChoice:
    """The transfer size that SAS pages should match, and how it was chosen."""

    kb: int | None
    missing: str | None  # JSON path of the first missing max_transfer_kb
    reason: str


def _indexed(inv: Inventory, roles: tuple[str, ...]) -> list[tuple[int, Storage]]:
    return [(i, s) for i, s in enumerate(inv.storage) if s.role in roles]


def transfer_choice(inv: Inventory, roles: tuple[str, ...] = DATA_ROLES) -> TransferChoice:
    """The transfer size for storage with these roles (scratch storage if none has them)."""
    entries = _indexed(inv, roles) or _indexed(inv, SCRATCH_ROLES)
    if not entries:
        return TransferChoice(None, "storage", "no data, work or utilloc storage is listed")
    return choose_transfer(entries)


def choose_transfer(entries: list[tuple[int, Storage]]) -> TransferChoice:
    """The largest known max transfer among (inventory index, storage) entries.

    The largest wins: a page bigger than a LUN's max transfer is split into full-size
    transfers on that LUN, while a smaller page leaves the bigger LUN's transfers part-empty.
    """
    known = [s for _, s in entries if s.max_transfer_kb is not None]
    missing = [i for i, s in entries if s.max_transfer_kb is None]
    if not known:
        path = f"storage[{missing[0]}].max_transfer_kb"
        return TransferChoice(None, path, "the device's max transfer size is not known")
    sizes = sorted({s.max_transfer_kb for s in known if s.max_transfer_kb is not None})
    kb = sizes[-1]
    names = ", ".join(f"{s.name} {s.max_transfer_kb} KB" for s in known)
    reason = f"max transfer of {names}"
    if len(sizes) > 1:
        reason += (
            f"; the LUNs differ, so the largest ({kb} KB) is used: smaller LUNs split each "
            "page into full-size transfers instead of leaving the larger LUN's part-empty"
        )
    if missing:
        paths = ", ".join(f"storage[{i}].max_transfer_kb" for i in missing)
        reason += f"; {paths} not given (measure with lsattr -El hdiskN -a max_transfer)"
    return TransferChoice(kb, None, reason)


def _capped_kb(kb: int) -> int:
    return max(SAS_BUFSIZE_MIN_KB, min(kb, SAS_BUFSIZE_MAX_KB, PAGE_CAP_KB))


def _cap_note(choice_kb: int, kb: int) -> str:
    if kb == choice_kb:
        return ""
    return (
        f", capped to {kb_text(kb)} (4 × the paper's 256K; larger pages are untested and "
        "multiply every buffer)"
    )


@rule(
    id="io.bufsize",
    title="Data set page size matches the LUNs' max transfer",
    sources=("bartucca2005", "sas94-config"),
    settings=((SAS_CONFIG, "BUFSIZE"),),
)
def bufsize(inv: Inventory, out: Emitter) -> None:
    """BUFSIZE = the data LUNs' max transfer size, so each page moves in one disk transfer."""
    choice = transfer_choice(inv)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"BUFSIZE needs it: {choice.reason}")
        return
    kb = _capped_kb(choice.kb)
    capped = _cap_note(choice.kb, kb)
    out.set(
        SAS_CONFIG,
        "BUFSIZE",
        kb_text(kb),
        rationale=(
            f"New data sets get {kb_text(kb)} pages to match the {choice.reason}{capped}. "
            "Existing data sets keep their page size until rewritten (bartucca2005 Listing 3)."
            + ("" if direct_io_fits(inv) else _CACHED_NOTE)
        ),
        evidence="bartucca2005, 'Results from running dd' (256 KB max transfer) and Listing 3",
        effect="Run 3 (data set PAGESIZE=256K, direct I/O): 38:59.46 vs 52:32.08, −25.8 %.",
    )


@rule(
    id="io.utility_pagesize",
    title="PROC SORT utility file page size",
    sources=("bartucca2005",),
    settings=((PROGRAM, "PROC SORT PAGESIZE"),),
)
def utility_pagesize(inv: Inventory, out: Emitter) -> None:
    """PAGESIZE= on PROC SORT sets the utility file's page size (BUFSIZE= is a syntax error)."""
    choice = transfer_choice(inv, SCRATCH_ROLES)
    if choice.kb is None:
        out.skip(choice.missing or "storage", f"PAGESIZE needs it: {choice.reason}")
        return
    kb = _capped_kb(choice.kb)
    version_note = (
        " The paper found the option on SAS 9.1.3; on later releases check the log for a "
        "syntax error before relying on it."
        if inv.sas.at_least_92
        else ""
    )
    out.set(
        PROGRAM,
        "PROC SORT PAGESIZE",
        kb_text(kb),
        kind="advice",
        rationale=(
            f"Add PAGESIZE={kb_text(kb)} to large PROC SORT steps so the utility file uses "
            f"{kb_text(kb)} pages ({choice.reason}{_cap_note(choice.kb, kb)}); BUFSIZE= "
            f"there is a syntax error, the paper found.{version_note}"
        ),
        evidence="bartucca2005, 'PROC SORT performance using direct I/O (data set and "
        "utility file PAGESIZE=256K)'",
        effect="Run 4: 33:59.30 vs 38:59.46, −12.8 % time and −17.6 % CPU.",
        extra={"example": f"proc sort data=in.big out=out.big pagesize={kb_text(kb)};"},
    )


def direct_io_fits(inv: Inventory) -> bool:
    """Tables larger than RAM and a sort-heavy mix: the case where bartucca2005 chose it."""
    work = inv.workload
    return work.largest_table_gb > inv.server.ram_gb and work.mix.etl >= DIRECT_IO_MIN_ETL_SHARE


def _direct_io_why(inv: Inventory) -> str:
    work = inv.workload
    return (
        f"the largest table ({work.largest_table_gb:g} GB) exceeds RAM "
        f"({inv.server.ram_gb:g} GB) and ETL is {work.mix.etl:.0%} of the mix, so the file "
        "cache is filled with data read once (bartucca2005 saw 1.3 % reuse)"
    )


def _dio_mounts(inv: Inventory) -> list[tuple[str, str]]:
    """(file system, its dio mount point): /raid0 -> /raid0dio, as bartucca2005 named them."""
    mounts = [s.mount for s in inv.storage if s.role in DATA_ROLES + SCRATCH_ROLES]
    return [(m, f"{m.rstrip('/') or '/root'}dio") for m in dict.fromkeys(mounts)]


@rule(
    id="io.direct_io",
    title="Direct I/O for large sorts that do not reuse the file cache",
    sources=("bartucca2005", "sgf2009-327"),
    settings=((SYSTEM, "direct I/O mount"), (PROGRAM, "ENABLEDIRECTIO/USEDIRECTIO")),
)
def direct_io(inv: Inventory, out: Emitter) -> None:
    """Direct I/O only when tables exceed RAM and cache reuse is poor (sort-heavy ETL)."""
    if not direct_io_fits(inv):
        return
    why = _direct_io_why(inv)
    if inv.sas.at_least_92 and inv.server.os != "windows":
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
        )
    elif inv.server.os == "aix":
        mounts = _dio_mounts(inv)
        mkdir = " ".join(point for _, point in mounts)
        out.set(
            SYSTEM,
            "direct I/O mount",
            "; ".join([f"mkdir {mkdir}"] + [f"mount -o dio {fs} {pt}" for fs, pt in mounts]),
            kind="advice",
            rationale=f"Mount the data and work file systems a second time with -o dio and "
            f"point the big sort's libraries at the new paths: {why}. SAS 9.1.3 has no "
            "direct I/O option of its own.",
            sources=("bartucca2005",),
            evidence="bartucca2005 'Direct I/O mounts' (mount -o dio /raid0 /raid0dio)",
            effect=DIRECT_IO_EFFECT,
            extra={"mkdir": mkdir},
        )
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


@rule(
    id="io.bufno",
    title="More SAS I/O buffers to pipeline direct I/O",
    sources=("bartucca2005",),
    settings=((SAS_CONFIG, "BUFNO"),),
)
def bufno(inv: Inventory, out: Emitter) -> None:
    """BUFNO=16 replaces the read-ahead that direct I/O loses; only with direct I/O."""
    if not direct_io_fits(inv):
        return
    choice = transfer_choice(inv)
    page_kb = _capped_kb(choice.kb) if choice.kb else None
    page = kb_text(page_kb) if page_kb else "BUFSIZE"
    extra64 = BARTUCCA_BUFNO_MAX_TESTED - BARTUCCA_BUFNO
    total = f"{BARTUCCA_BUFNO} × {page}"
    if page_kb:
        per_set_kb = BARTUCCA_BUFNO * page_kb
        total += f" = {kb_text(per_set_kb)}{_memsize_note(out, per_set_kb)}"
    cost64 = f"{extra64} × {page}" + (f" = {kb_text(extra64 * page_kb)}" if page_kb else "")
    gain = BUFNO64_SAVED_S / FINAL_RUN_S
    out.set(
        SAS_CONFIG,
        "BUFNO",
        str(BARTUCCA_BUFNO),
        rationale=(
            f"Direct I/O fits here, and it loses the VMM's read-ahead; {BARTUCCA_BUFNO} "
            f"buffers let SAS pipeline its own I/O at {total} per open data set "
            f"({BARTUCCA_BUFNO - SAS_MIN_BUFFERS} buffers more than SAS's minimum of "
            f"{SAS_MIN_BUFFERS}). "
            f"BUFNO={BARTUCCA_BUFNO_MAX_TESTED} would cost another {cost64} per open "
            f"data set for {BUFNO64_SAVED_S} s of 31:32 ({gain:.1%})."
        ),
        evidence="bartucca2005 'Final run analysis'",
        effect="Final run: 31:32.07 vs 33:59.30, −7.2 % time and −11.5 % CPU.",
    )


RULES: tuple[Rule, ...] = (bufsize, utility_pagesize, direct_io, bufno)
