"""I/O facts: the transfer size SAS pages should match, and when direct I/O fits.

Source: bartucca2005 — every hdisk behind /raid0 and /raid5 took 256 KB transfers
("Results from running dd"); direct I/O paid off only when the data outgrew RAM and the
job reused almost nothing from the file cache ("First run analysis": 1.3 % reuse).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.inventory import Inventory, Storage

# bartucca2005 "Results from running dd": every hdisk behind /raid0 and /raid5 took 256 KB.
BARTUCCA_MAX_TRANSFER_KB = 256
# SAS page sizes step in 8K: with BUFSIZE=0 "the engine calculates … the smallest multiple
# of 8K that can hold 80 observations, but is not larger than 64K" (BUFSIZE= data set
# option, SAS 9.2/9.3 Companion for UNIX). So 64K is the largest page SAS picks by itself:
# the floor below which matching a small max transfer would only shrink pages.
PAGE_STEP_KB = 8
PAGE_FLOOR_KB = 64
# bartucca2005 measured one page size, 256K (l.486, l.495, l.543): the advisor goes no
# higher; every open data set holds BUFNO pages of this size.
PAGE_CAP_KB = BARTUCCA_MAX_TRANSFER_KB
# A sort-heavy ETL share of at least half stands in for "poor cache reuse" — a project
# threshold, not a paper figure.
DIRECT_IO_MIN_ETL_SHARE = 0.5
DATA_ROLES = ("data",)
SCRATCH_ROLES = ("work", "utilloc")


@dataclass(frozen=True)
class TransferChoice:
    """The transfer size that SAS pages should match, and how it was chosen."""

    kb: int | None
    missing: str | None  # JSON path of the first missing max_transfer_kb
    reason: str


def transfer_choice(inv: Inventory, roles: tuple[str, ...] = DATA_ROLES) -> TransferChoice:
    """The transfer size for storage with these roles (scratch storage if none has them)."""
    entries = inv.by_role(*roles) or inv.by_role(*SCRATCH_ROLES)
    if not entries:
        return TransferChoice(None, "storage", "no data, work or utilloc storage is listed")
    return choose_transfer(entries)


def choose_transfer(entries: Iterable[Storage]) -> TransferChoice:
    """The largest known max transfer among these storage entries.

    The largest wins: a page bigger than a LUN's max transfer is split into full-size
    transfers on that LUN, while a smaller page leaves the bigger LUN's transfers part-empty.
    """
    entries = list(entries)
    known = [s for s in entries if s.max_transfer_kb is not None]
    missing = [s for s in entries if s.max_transfer_kb is None]
    if not known:
        path = f"{missing[0].path}.max_transfer_kb"
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
        paths = ", ".join(f"{s.path}.max_transfer_kb" for s in missing)
        reason += f"; {paths} not given (measure with lsattr -El hdiskN -a max_transfer)"
    return TransferChoice(kb, None, reason)


@dataclass(frozen=True)
class PageChoice:
    """A SAS page size for a max transfer, and the adjustment that shaped it ("" if none)."""

    kb: int
    note: str


def page_choice(transfer_kb: int) -> PageChoice:
    """The transfer rounded down to 8K, at least 64K, at most the paper's measured 256K."""
    stepped = transfer_kb // PAGE_STEP_KB * PAGE_STEP_KB
    if transfer_kb > PAGE_CAP_KB:
        return PageChoice(
            PAGE_CAP_KB,
            f", capped to {PAGE_CAP_KB}K, the one page size bartucca2005 measured (larger "
            "pages are untested and multiply every buffer)",
        )
    if stepped < PAGE_FLOOR_KB:
        return PageChoice(
            PAGE_FLOOR_KB,
            f", raised to {PAGE_FLOOR_KB}K: SAS picks up to {PAGE_FLOOR_KB}K pages by itself, "
            "so a smaller page would only add I/Os",
        )
    if stepped != transfer_kb:
        return PageChoice(
            stepped, f", rounded down to {stepped}K: SAS page sizes step in {PAGE_STEP_KB}K"
        )
    return PageChoice(stepped, "")


def direct_io_fits(inv: Inventory) -> bool:
    """Tables larger than RAM and a sort-heavy mix: the case where bartucca2005 chose it."""
    work = inv.workload
    return work.largest_table_gb > inv.server.ram_gb and work.mix.etl >= DIRECT_IO_MIN_ETL_SHARE


def direct_io_why(inv: Inventory) -> str:
    work = inv.workload
    return (
        f"the largest table ({work.largest_table_gb:g} GB) exceeds RAM "
        f"({inv.server.ram_gb:g} GB) and ETL is {work.mix.etl:.0%} of the mix, so the file "
        "cache is filled with data read once (bartucca2005 saw 1.3 % reuse)"
    )


def direct_io_path(inv: Inventory) -> str | None:
    """How this box gets direct I/O, or None where the advisor knows no way (io.direct_io)."""
    if inv.sas.at_least_92 and inv.server.os != "windows":
        return "LIBNAME ENABLEDIRECTIO and USEDIRECTIO=YES (SAS 9.2+)"
    if inv.server.os == "aix" and inv.by_role(*DATA_ROLES, *SCRATCH_ROLES):
        return "a second mount of the file systems with -o dio (AIX, as bartucca2005)"
    return None


def needs_direct_io(inv: Inventory) -> str | None:
    """Applicability: the reason direct I/O does not fit, or None where it does."""
    if direct_io_fits(inv):
        return None
    work = inv.workload
    return (
        f"direct I/O does not fit: it needs the largest table ({work.largest_table_gb:g} GB) "
        f"above RAM ({inv.server.ram_gb:g} GB) and ETL at least "
        f"{DIRECT_IO_MIN_ETL_SHARE:.0%} of the mix ({work.mix.etl:.0%} here)"
    )
