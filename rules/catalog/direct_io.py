"""How direct I/O is reached on each system when SAS itself has no switch for it (SAS 9.1.3
on AIX and Solaris) or has its own (SGIO on Windows): bartucca2005's dio mounts, UFS
forcedirectio (oracle-mount-ufs) and SGIO (sas-win-sgio). io.direct_io decides; these
helpers only say it.

The BUFNO that goes with direct I/O lives here too (io.bufno). bartucca2005 measured
BUFNO=16 only under direct I/O, given on the sort job's command line (-bufno 16, l.647),
so it is advice for the jobs that use direct I/O, never a site-wide option. On Windows SGIO
moves data through the BUFNO buffers, and SAS says to tune BUFNO for each job with it
(sas-win-sgio); so SGIO too is started with the big jobs, beside their BUFNO.
"""

from __future__ import annotations

from rules.derive.io import (
    SCRATCH_ROLES,
    direct_io_path,
    needs_direct_io,
    page_choice,
    transfer_choice,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import PROGRAM, SAS_CONFIG, SYSTEM, Rule, rule
from rules.payloads import CodeExample, DioMounts
from rules.units import kb_text, parse_size_mb

DATA_ROLES = ("data",)
DIRECT_IO_GAIN_PCT = 6.0
DIRECT_IO_EFFECT = (
    "Run 2 (direct I/O, 16K pages) took 52:32.08 vs 33:35.62 cached — 56 % slower — but "
    "system CPU fell 53 % and 60 % of memory was freed; with 256K pages and BUFNO=16 the "
    "final run took 31:32.07, 6 % faster than cached, with 68 % less system CPU."
)


def _dio_mounts(inv: Inventory) -> list[tuple[str, str]]:
    """(file system, its dio mount point): /raid0 -> /raid0dio, as bartucca2005 named them."""
    mounts = [s.mount for s in inv.storage if s.role in DATA_ROLES + SCRATCH_ROLES]
    return [(m, f"{m.rstrip('/') or '/root'}dio") for m in dict.fromkeys(mounts)]


def dio_mount_advice(inv: Inventory, out: Emitter, why: str) -> None:
    """SAS 9.1.3 on AIX: bartucca2005's second mounts with -o dio."""
    mounts = _dio_mounts(inv)
    if not mounts:
        out.skip("storage", "no data, work or utilloc file system to mount with -o dio")
        return
    mkdir = " ".join(point for _, point in mounts)
    out.set(
        SYSTEM,
        "direct I/O mount",
        "; ".join([f"mkdir {mkdir}"] + [f"mount -o dio {fs} {pt}" for fs, pt in mounts]),
        kind="advice",
        rationale=f"Mount the data and work file systems a second time with -o dio and "
        f"point the big sort's libraries at the new paths: {why}. SAS 9.1.3 has no "
        "direct I/O option of its own. aix_tuning.sh --with-dio-mounts makes these "
        "mounts and records their undo.",
        sources=("bartucca2005",),
        evidence="bartucca2005 'Direct I/O mounts' (mount -o dio /raid0 /raid0dio)",
        effect=DIRECT_IO_EFFECT,
        payload=DioMounts(tuple(mounts)),
        gain_pct=DIRECT_IO_GAIN_PCT,
    )


def ufs_mounts(inv: Inventory) -> list[str]:
    return [s.mount for s in inv.storage if s.role in DATA_ROLES + SCRATCH_ROLES
            and s.filesystem == "ufs"]  # fmt: skip


def forcedirectio(inv: Inventory, out: Emitter, why: str) -> None:
    """SAS 9.1.3 on Solaris: direct I/O from the UFS mount, as bartucca2005's dio on AIX."""
    mounts = ufs_mounts(inv)
    out.set(
        SYSTEM, "forcedirectio mount",
        "; ".join(f"mount -F ufs -o remount,forcedirectio {m}" for m in mounts),
        kind="advice",
        rationale=f"Remount the UFS data and work file systems with forcedirectio while the "
        f"big sorts run: {why}. SAS 9.1.3 has no direct I/O option of its own; on Solaris "
        "UFS gives it per mount (mount_ufs(1M)). Undo with mount -F ufs -o "
        "remount,noforcedirectio on each; ZFS file systems take no such option.",
        sources=("bartucca2005", "oracle-mount-ufs"),
        evidence="bartucca2005 'Second run analysis'; mount_ufs(1M) forcedirectio",
        effect=DIRECT_IO_EFFECT, gain_pct=DIRECT_IO_GAIN_PCT,
    )  # fmt: skip


def sgio(inv: Inventory, out: Emitter, why: str) -> None:
    """Windows: SGIO is SAS's own path past the file cache, on every SAS 9 release."""
    out.set(
        PROGRAM, "SGIO", "-SGIO on the big sort jobs' command line",
        rationale=f"Read and write the big sort inputs and outputs past the Windows file "
        f"cache: {why}. On Windows SAS does this with SGIO (scatter-read/gather-write), "
        "a start-up option. SGIO moves data through the BUFNO buffers and SAS says to tune "
        "BUFNO for each job with it (SAS 9.4 Companion for Windows, 'SGIO System Option: "
        "Windows'), so start those jobs with -SGIO and the BUFNO of io.bufno rather than "
        "turn it on site-wide at the default BUFNO of 1.",
        sources=("sas-win-sgio", "bartucca2005"),
        evidence="bartucca2005 'Second run analysis' (the direct I/O gain); sas-win-sgio",
        effect=DIRECT_IO_EFFECT, gain_pct=DIRECT_IO_GAIN_PCT, kind="advice",
        payload=CodeExample(f"sas -sgio -bufno {BARTUCCA_BUFNO} big_sort.sas"),
    )  # fmt: skip


# bartucca2005 "Final run": BUFNO=16 vs the default; SAS keeps 2 buffers at least, so 16
# added 14 × 256 KB; BUFNO=64 added another 48 × 256 KB and took 16 s off 31:32.07.
BARTUCCA_BUFNO = 16
BARTUCCA_BUFNO_MAX_TESTED = 64
SAS_MIN_BUFFERS = 2
BUFNO64_SAVED_S = 16
FINAL_RUN_S = 31 * 60 + 32
FINAL_GAIN_PCT = 7.2
SGIO_PATH = "SGIO (scatter-read/gather-write, Windows)"


def bufno_path(inv: Inventory) -> str | None:
    """The direct I/O the buffers stand in for: SGIO on Windows, else io.direct_io's path."""
    return SGIO_PATH if inv.server.os == "windows" else direct_io_path(inv)


def _bufno_applies(inv: Inventory) -> str | None:
    """BUFNO replaces the read-ahead that direct I/O loses: only where direct I/O is had."""
    reason = needs_direct_io(inv)
    if reason is not None:
        return reason
    if bufno_path(inv) is None:
        return (
            f"direct I/O would fit, but SAS {inv.sas.version} on {inv.server.os} has no "
            "direct I/O path the advisor knows of (see io.direct_io); bartucca2005 measured "
            "BUFNO=16 only under direct I/O (l.647), where the OS read-ahead is lost"
        )
    return None


def _memsize_note(out: Emitter, per_set_kb: int) -> str:
    memsize = out.get(SAS_CONFIG, "MEMSIZE")
    if memsize is None:
        return ""
    share = per_set_kb / 1024 / parse_size_mb(memsize.value) * 100
    return f" ({share:.2f} % of MEMSIZE {memsize.value})"


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


def _bufno_why(inv: Inventory) -> str:
    if inv.server.os == "windows":
        return (
            f"Direct I/O through {SGIO_PATH} moves data through the BUFNO buffers, one page "
            "per transfer at the default BUFNO of 1, and SAS says I/O usually improves as "
            "BUFNO rises (sas-win-sgio)"
        )
    lost = "the VMM's" if inv.server.os == "aix" else "the file cache's"
    return f"Direct I/O through {bufno_path(inv)} loses {lost} read-ahead"


def _bufno_code(inv: Inventory) -> str:
    if inv.server.os == "windows":
        return f"sas -sgio -bufno {BARTUCCA_BUFNO} big_sort.sas"
    return f"sas -bufno {BARTUCCA_BUFNO} big_sort.sas   /* or in the job: */ options bufno=16;"


@rule(
    id="io.bufno",
    title="More SAS I/O buffers for the jobs that use direct I/O",
    sources=("bartucca2005", "sas-win-sgio"),
    settings=((PROGRAM, "BUFNO"),),
    applies=_bufno_applies,
    inputs=("storage[].role", "storage[].max_transfer_kb", "workload", "server.ram_gb"),
    reads=((SAS_CONFIG, "MEMSIZE"),),
)
def bufno(inv: Inventory, out: Emitter) -> None:
    """BUFNO=16 replaces the read-ahead that direct I/O loses; per job, only with it."""
    total, cost64 = _bufno_sizes(inv, out)
    gain = BUFNO64_SAVED_S / FINAL_RUN_S
    out.set(
        PROGRAM,
        "BUFNO",
        str(BARTUCCA_BUFNO),
        kind="advice",
        rationale=(
            f"{_bufno_why(inv)}; {BARTUCCA_BUFNO} buffers let SAS pipeline its own I/O at "
            f"{total} per open data set ({BARTUCCA_BUFNO - SAS_MIN_BUFFERS} buffers more than "
            f"SAS's minimum of {SAS_MIN_BUFFERS}). BUFNO={BARTUCCA_BUFNO_MAX_TESTED} would cost "
            f"another {cost64} per open data set for {BUFNO64_SAVED_S} s of 31:32 ({gain:.1%}). "
            "Give it to the jobs that use direct I/O, on their command line as bartucca2005 did "
            "(-bufno 16, l.647), not site-wide: the paper measured it only under direct I/O, "
            "and every other job would hold the extra buffers for each open data set."
        ),
        evidence="bartucca2005 'Final run analysis' (l.647, l.668–670)",
        effect="Final run: 31:32.07 vs 33:59.30, −7.2 % time and −11.5 % CPU.",
        payload=CodeExample(_bufno_code(inv)),
        gain_pct=FINAL_GAIN_PCT,
    )


BUFNO_RULES: tuple[Rule, ...] = (bufno,)
