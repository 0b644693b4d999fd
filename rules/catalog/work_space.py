"""WORK's room: space for the largest sort, and WORK on the root file system.

Sort space. A sort too big for SORTSIZE writes a utility file of about its input,
uncompressed: bartucca2005 sorted a 17 GB compressed data set, 60 GB uncompressed (l.269),
and the utility file moved 120,804 MB, written once and read once (l.312-316), about 60 GB.
The sorted result needs a full copy of the data set in its output library besides ("there
must be at least enough space in the output library for a copy of the original data set",
Base SAS PROC SORT, source `sas-proc-sort-space`). A sort whose output lands in WORK, with
UTILLOC on WORK's file system, so needs about twice the table there; three times when its
input sits in WORK too.

The root file system. The operating system writes its logs, spool and package state on
`/`; a WORK or utility file that fills it stops those writes, and with them services and
logins, and SAS itself where its installation is on / (general administration knowledge,
unconfirmed by the papers, as the warning says). WORK belongs on a file system of its own
(xu gave it dedicated disks; bartucca2005 put WORK and UTILLOC on /raid0, set up for
temporary storage, l.269). The other system file systems, SAS's installation and SPD
Server's file systems are rules.catalog.placement_system's and placement_data's.
"""

from __future__ import annotations

from rules.catalog.placement_system import UNCONFIRMED, holds_install
from rules.catalog.placement_words import own_file_system, scratch_label
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.parse.paths import holder

ROOT = "/"
# The utility file (≈ the input, uncompressed) plus the sorted copy of the data set.
SORT_COPIES = 2
# bartucca2005 l.269, l.312-316: 17 GB compressed, 60 GB uncompressed, 120,804 MB moved
# through the utility file.
BARTUCCA_SORT = "17 GB compressed, 60 GB uncompressed (l.269), 120,804 MB through its utility file"


def sort_text(table: float) -> str:
    """'2 × 300 GB = 600 GB: the utility file and the sorted copy'."""
    return (
        f"{SORT_COPIES} × {table:g} GB = {SORT_COPIES * table:g} GB: the utility file and the "
        "sorted copy"
    )


def dual_pair(work: list[Storage], table: float) -> tuple[Storage, Storage] | None:
    """(fast, big) of WORK entries ranked fastest first: the fastest cannot hold the
    largest sort and another one can."""
    need = SORT_COPIES * table
    if len(work) < 2 or work[0].size_gb >= need:
        return None
    big = max(work[1:], key=lambda s: s.size_gb)
    return (work[0], big) if big.size_gb >= need else None


def on_root(s: Storage) -> bool:
    return s.mount == ROOT


def _root_install(out: Emitter, entries: tuple[Storage, ...] | list[Storage]) -> str:
    """', and SAS itself (installed at /opt/sas/SASHome)' where / holds SAS's installation."""
    inv = out.inventory
    if any(holds_install(inv, s) for s in entries):
        return f", and SAS itself, installed at {inv.sas.install_path} on /"
    return ""


RERUN = (
    "List it as a file system marked SAS WORK and run the advisor again. Until then check "
    "where SAS's WORK is now (proc options option=work; run;) and that df shows it off /."
)
# Where SAS on UNIX puts WORK when nothing names it (sas94-config: the shipped sasv9.cfg
# points WORK at the temporary directory).
DEFAULT_WORK = "/tmp"


def _default_on_root(inv: Inventory) -> Storage | None:
    """The root file system where it holds the default WORK location; else None."""
    if inv.server.os == "windows":
        return None
    i = holder(DEFAULT_WORK, [s.mount for s in inv.storage])
    return inv.storage[i] if i is not None and on_root(inv.storage[i]) else None


def _root_words(inv: Inventory, root: Storage) -> str:
    """'root, the only file system listed' / 'root; no file system of its own … /tmp'."""
    if all(on_root(s) for s in inv.storage):
        return f"{root.name}, the only file system listed"
    return f"{root.name}; no file system of its own is listed for {DEFAULT_WORK}"


def warn_no_work(out: Emitter, figures: str) -> None:
    """No WORK listed: SAS's default stays, said plainly where that default lands on /."""
    inv = out.inventory
    root = _default_on_root(inv)
    text = (
        "No file system marked SAS WORK is listed, so WORK and UTILLOC stay wherever SAS "
        f"defaults them (often {DEFAULT_WORK}, shared with everything else)."
    )
    action = "Add a striped or solid-state file system marked SAS WORK."
    if root is not None:
        text += (
            f" Here {DEFAULT_WORK} is on the root file system / ({_root_words(inv, root)}): "
            "a WORK or sort utility file that fills / stops the operating system's own "
            "writes (logs, spool, package and login state), and with them services and "
            f"logins{_root_install(out, [root])}. {UNCONFIRMED}."
        )
        action = (
            "Give WORK a dedicated file system, sized for the largest sort: "
            f"{own_file_system(inv)}. {RERUN}"
        )
    out.warn(f"{text} {figures}.", action=action, severity="high")


def warn_root_only(out: Emitter, entries: tuple[Storage, ...]) -> None:
    """The only WORK storage listed is `/`: no -WORK / and a warning saying what to do."""
    names = ", ".join(f"{s.name} ({scratch_label(s, short=True)})" for s in entries)
    sas_too = _root_install(out, entries)
    out.warn(
        f"The only WORK storage listed is the root file system / ({names}), so the advisor "
        "sets neither WORK nor UTILLOC there. / holds the operating system itself: a WORK or "
        "sort utility file that fills / stops the operating system's own writes (logs, spool, "
        f"package and login state), and with them services and logins{sas_too}. "
        f"{UNCONFIRMED}; the papers kept WORK and UTILLOC on storage of their own, set up for "
        "temporary files.",
        action="Give WORK a dedicated file system, sized for the largest sort: "
        f"{own_file_system(out.inventory)}. {RERUN}",
        severity="high",
        sources=("xu", "bartucca2005"),
    )  # fmt: skip


def warn_root_dropped(out: Emitter, entries: list[Storage]) -> None:
    """`/` is listed beside other WORK storage: it is left out of WORK and UTILLOC."""
    names = ", ".join(s.name for s in entries)
    out.warn(
        f"{names} is the root file system /, listed as WORK storage: it is left out of WORK "
        "and UTILLOC, since a WORK or utility file that fills / stops the operating system's "
        f"own writes{_root_install(out, entries)}.",
        action="Keep SAS's scratch files off /: remove the entry, or mark it other instead "
        "of SAS WORK.",
        severity="low",
        sources=("xu", "bartucca2005"),
    )  # fmt: skip


def _short(work: Storage, util: list[Storage], table: float) -> str | None:
    """Where WORK and UTILLOC cannot hold the largest sort, which one and why; else None."""
    if all(u.mount == work.mount for u in util):
        if work.size_gb < SORT_COPIES * table:
            return (
                f"{work.name} ({work.mount}) holds {work.size_gb:g} GB for the utility file "
                "and the sorted copy together"
            )
        return None
    if work.size_gb < table:
        return f"WORK {work.name} holds {work.size_gb:g} GB for the sorted copy"
    biggest = max(util, key=lambda u: u.size_gb)
    if biggest.size_gb < table:
        return f"UTILLOC {biggest.name} holds {biggest.size_gb:g} GB for the utility file"
    return None


def warn_sort_space(inv: Inventory, out: Emitter, work: Storage, util: list[Storage]) -> None:
    """The largest table sorted into WORK needs its utility file and a sorted copy."""
    table = inv.workload.largest_table_gb
    where = _short(work, util, table) if table > 0 else None
    if where is None:
        return
    out.warn(
        f"Sorting the largest table ({table:g} GB) into WORK needs about "
        f"{SORT_COPIES * table:g} GB of scratch space, {table:g} GB for each of two files, but "
        f"{where}. The utility file holds about the input uncompressed (bartucca2005: "
        f"{BARTUCCA_SORT}) and the sorted result a full copy besides (Base SAS PROC SORT: the "
        "output library needs room for a copy of the original data set); a WORK that holds "
        "the input too needs three times the table.",
        action=f"Give WORK and UTILLOC room for {SORT_COPIES}× the largest table (UTILLOC on a "
        "file system of its own takes the utility file), or write the largest sorts to a "
        "permanent library with OUT= so WORK holds only the utility file.",
        severity="medium",
        sources=("bartucca2005", "sas-proc-sort-space"),
    )
