"""Rules: where WORK and UTILLOC live (xu; bartucca2005 put both on /raid0).

xu timed seven SAS programs with WORK on one disk (the benchmark, 100), on four striped
disks and on a solid-state disk, all behind a dedicated controller. Table 2: solid state
251–283 (2.5–2.8× faster), striping 118–151 (1.2–1.5×); the best block size was 8K on
solid state and 4K on the stripe (HP-UX; synchronous vs asynchronous made no difference).
"""

from __future__ import annotations

from rules.catalog.work_blocks import block_size
from rules.catalog.work_space import (
    dual_pair,
    on_root,
    sort_text,
    warn_no_work,
    warn_root_dropped,
    warn_root_only,
    warn_sort_space,
)
from rules.derive.storage_layers import same_disks
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import PROGRAM, SAS_CONFIG, Rule, rule
from rules.payloads import CodeExample

WORK_ROLES = ("work", "utilloc")
DATA_ROLES = ("data",)
# xu Table 2, performance relative to WORK on one unstriped disk (= 100).
XU_SOLID_STATE = (251, 283)
XU_STRIPING = (118, 151)


def _span(pair: tuple[int, int]) -> str:
    return f"{pair[0] / 100:.1f}–{pair[1] / 100:.1f}× faster ({pair[0]}–{pair[1]} vs 100)"


XU_FIGURES = (
    f"xu (Table 2) measured WORK on solid state {_span(XU_SOLID_STATE)} and on 4-disk "
    f"striping {_span(XU_STRIPING)} than on one disk, each behind a dedicated controller"
)
# xu's best block sizes were HP-UX 10's: said on HP-UX only (work_blocks says what other
# systems offer).
XU_HPUX_BLOCKS = "; best file system block size (HP-UX) 8K solid state, 4K striping"


def xu_figures(inv: Inventory) -> str:
    """xu's Table 2 ratios, with the HP-UX block sizes on HP-UX."""
    return XU_FIGURES + (XU_HPUX_BLOCKS if inv.server.os == "hpux" else "")


# RAID 5 rewrites parity on every small write: read data + parity, write data + parity
# (4 I/Os per write; RAID 6 adds a second parity, 6 I/Os). General storage knowledge
# (source `raid-small-write`, unconfirmed): none of the papers measures it. A full-stripe
# write skips the reads, and bartucca2005 l.244–245 measured lemans's RAID 5 LUN at
# 164 MB/s sequential dd writes against 119 MB/s on its RAID 0 LUN (a SAN array's cache).
RAID_WRITE_IOS = {"5": 4, "6": 6}
BARTUCCA_RAID5_WRITE_MB_S = 164


def _rank(s: Storage) -> tuple[int, int, float]:
    """Solid state before striped before single disks; then more spindles, then size."""
    tier = 2 if s.solid_state else 1 if s.striped and s.raid not in RAID_WRITE_IOS else 0
    return (tier, s.disks, s.size_gb)


def _describe(s: Storage) -> str:
    layout = "JBOD" if s.raid == "jbod" else f"RAID {s.raid}"
    return f"{s.name} ({s.mount}: {layout}, {s.disks} × {s.media})"


def _utilloc_value(paths: list[str]) -> str:
    """One path as is; several rotate with the parenthesised list form."""
    return paths[0] if len(paths) == 1 else "(" + " ".join(paths) + ")"


def _apart(inv: Inventory) -> str:
    data = inv.by_role(*DATA_ROLES)
    return f", apart from permanent data on {', '.join(d.mount for d in data)}" if data else ""


def _gain_pct(s: Storage) -> float | None:
    """xu's slowest measured program on this kind of WORK, as a run-time cut in %."""
    if s.solid_state:
        return round(100 * (1 - 100 / XU_SOLID_STATE[0]), 1)
    if s.striped and s.raid not in RAID_WRITE_IOS:
        return round(100 * (1 - 100 / XU_STRIPING[0]), 1)
    return None


def _set_work(inv: Inventory, out: Emitter, work: list[Storage]) -> None:
    best, others = work[0], work[1:]
    which = "the fastest of the work storage listed" if others else "the work storage listed"
    out.set(
        SAS_CONFIG,
        "WORK",
        best.mount,
        rationale=f"WORK on {_describe(best)}, {which}{_apart(inv)}. {xu_figures(inv)}.",
        evidence="xu Table 2; bartucca2005 'Data mart setup' (work files on /raid0)",
        effect=f"xu: solid state {_span(XU_SOLID_STATE)}, striping {_span(XU_STRIPING)}.",
        gain_pct=_gain_pct(best),
    )


def _utilloc_entries(inv: Inventory, work: list[Storage]) -> list[Storage]:
    util = [s for s in inv.by_role("utilloc") if not on_root(s)]
    return sorted(util, key=_rank, reverse=True) or work


def _set_utilloc(inv: Inventory, out: Emitter, util: list[Storage]) -> None:
    paths = list(dict.fromkeys(s.mount for s in util))
    rotate = " SAS rotates utility files over the listed paths." if len(paths) > 1 else ""
    out.set(
        SAS_CONFIG,
        "UTILLOC",
        _utilloc_value(paths),
        rationale=f"Sort and other utility files on {', '.join(_describe(s) for s in util)}"
        f"{_apart(inv)}.{rotate}",
        evidence="bartucca2005 'Setup' (UTILLOC and WORK on /raid0); xu 'Solution'",
        effect="bartucca2005 kept the 120 GB PROC SORT utility file on RAID 0 scratch "
        "(/raid0), apart from the RAID 5 data (/raid5).",
    )


@rule(
    id="work.placement",
    title="WORK and UTILLOC on fast scratch storage, apart from permanent data and /",
    sources=("xu", "bartucca2005", "sas94-config", "sas-proc-sort-space"),
    settings=((SAS_CONFIG, "WORK"), (SAS_CONFIG, "UTILLOC")),
    inputs=(
        "storage[].role",
        "storage[].media",
        "storage[].raid",
        "storage[].disks",
        "storage[].mount",
        "storage[].size_gb",
        "workload.largest_table_gb",
    ),
)
def placement(inv: Inventory, out: Emitter) -> None:
    """WORK on the best work-role storage; UTILLOC over every utilloc (else work) path;
    never on /, and with room for the largest sort."""
    listed = inv.by_role("work") or inv.by_role("utilloc")
    work = sorted([s for s in listed if not on_root(s)], key=_rank, reverse=True)
    if listed and not work:
        out.skip("storage", "the only work or utilloc storage listed is the root file system /")
        warn_root_only(out, listed)
        return
    if not work:
        out.skip("storage", "no file system marked SAS WORK or UTILLOC")
        warn_no_work(out, xu_figures(inv))
        return
    dropped = [s for s in inv.by_role(*WORK_ROLES) if on_root(s)]
    if dropped:
        warn_root_dropped(out, dropped)
    util = _utilloc_entries(inv, work)
    _set_work(inv, out, work)
    _set_utilloc(inv, out, util)
    warn_sort_space(inv, out, work[0], util)


@rule(
    id="work.single_spindle",
    title="WORK on a single disk",
    sources=("xu",),
    inputs=("storage[].role", "storage[].disks", "storage[].media"),
)
def single_spindle(inv: Inventory, out: Emitter) -> None:
    """A lone HDD saturates first: xu's benchmark disk hit 100 % busy with two programs."""
    for s in inv.by_role(*WORK_ROLES):
        if s.disks == 1 and s.media == "hdd":
            out.warn(
                f"{s.role.upper()} storage {s.name} ({s.mount}) is a single hard disk; xu "
                f"saw it reach 100 % busy with two simulation programs. {xu_figures(inv)}.",
                action="Stripe WORK over several disks or move it to solid-state storage.",
                severity="high",
            )


@rule(
    id="work.raid5",
    title="WORK on parity RAID",
    sources=("raid-small-write", "bartucca2005"),
    inputs=("storage[].role", "storage[].raid", "storage[].media"),
)
def raid5(inv: Inventory, out: Emitter) -> None:
    """RAID 5/6 turns each small WORK write into 4–6 disk I/Os (general knowledge)."""
    for s in inv.by_role(*WORK_ROLES):
        ios = RAID_WRITE_IOS.get(s.raid)
        # A shared file system's RAID is its server's, out of this host's sight: no RAID
        # advice from the client (linux.shared_storage says what to ask the storage admin).
        if ios is not None and not s.solid_state and s.shared_kind is None:
            out.warn(
                f"{s.role.upper()} storage {s.name} ({s.mount}) is RAID {s.raid}: each small "
                f"(partial-stripe) write costs {ios} disk I/Os for the parity, and WORK is "
                "about half writes. This is general storage knowledge, unconfirmed by the "
                "papers: full-stripe sequential writes avoid it, and bartucca2005 measured a "
                f"SAN RAID 5 LUN writing {BARTUCCA_RAID5_WRITE_MB_S} MB/s with dd.",
                action="Measure WORK's write rate (dd, as bartucca2005 Listing 2) before "
                "moving it; scratch data needs no parity, so RAID 0, RAID 10 or solid state "
                "is the usual home.",
                severity="low",
            )


def _shared_adapters(s: Storage, data: list[tuple[Storage, frozenset[str]]]) -> list[str]:
    """Adapters WORK shares with data (mounts are unique in the contract, so adapters are
    the one shared resource an inventory can show)."""
    mine = set(s.adapters)
    found: list[str] = []
    for d, theirs in data:
        if same_disks(s, d):
            continue  # one set of disks: placement.work_in_data says so plainly
        common = sorted(mine & theirs)
        if common:
            found.append(f"adapters {', '.join(common)} with {d.name}")
    return found


@rule(
    id="work.shared_disks",
    title="WORK sharing adapters with data",
    sources=("xu",),
    inputs=("storage[].role", "storage[].adapters"),
)
def shared_disks(inv: Inventory, out: Emitter) -> None:
    """xu gave WORK a dedicated controller: heavy I/O on neighbours slows WORK down."""
    # Each data entry's adapters as a set once, not once per WORK entry (up to 512 of each).
    data = [(d, frozenset(d.adapters)) for d in inv.by_role(*DATA_ROLES) if d.adapters]
    data_adapters = frozenset().union(*(theirs for _, theirs in data))
    for s in inv.by_role(*WORK_ROLES):
        shared = _shared_adapters(s, data) if s.adapters else []
        if not shared:
            continue
        everything = set(s.adapters) <= data_adapters
        out.warn(
            f"{s.role.upper()} storage {s.name} shares {'; '.join(shared)}. xu ran every "
            f"setup on a dedicated disk controller. {xu_figures(inv)}.",
            action="Where the adapters run busy (iostat, fcstat), give WORK its own adapter "
            "(xu 'Using a dedicated disk controller').",
            severity="medium" if everything and len(s.adapters) == 1 else "low",
        )


def _dual_work(inv: Inventory) -> tuple[Storage, Storage] | None:
    work = [s for s in inv.by_role("work") if not on_root(s)]
    return dual_pair(sorted(work, key=_rank, reverse=True), inv.workload.largest_table_gb)


def _one_fast_work(inv: Inventory) -> str | None:
    """Applicability: xu's dual set-up needs a fast small WORK and a big one."""
    if _dual_work(inv) is None:
        return (
            "no pair of work file systems where the fastest cannot hold the largest sort and "
            f"another can ({sort_text(inv.workload.largest_table_gb)})"
        )
    return None


@rule(
    id="work.dual",
    title="A second, larger WORK for the jobs the fast one cannot hold",
    sources=("xu",),
    settings=((PROGRAM, "WORK for large jobs"),),
    applies=_one_fast_work,
    inputs=("storage[].role", "storage[].size_gb", "workload.largest_table_gb"),
)
def dual(inv: Inventory, out: Emitter) -> None:
    """xu's final set-up: solid-state WORK for most programs, a striped one for big ones."""
    pair = _dual_work(inv)
    assert pair is not None  # applies guarantees it
    fast, big = pair
    out.set(
        PROGRAM,
        "WORK for large jobs",
        f"-WORK {big.mount}",
        kind="advice",
        rationale=(
            f"WORK stays on {_describe(fast)} for most jobs, but its {fast.size_gb:g} GB cannot "
            f"hold the largest sort ({sort_text(inv.workload.largest_table_gb)}): start the jobs "
            f"that need more with -WORK {big.mount} ({big.size_gb:g} GB). xu ran this dual "
            "set-up for over a year: solid state for all programs but those needing more "
            "space, a striped WORK for those (l.96–98)."
        ),
        evidence="xu 'Final SAS Work Directory Setup' (l.96–100)",
        payload=CodeExample(f"sas -work {big.mount} big_job.sas"),
    )


RULES: tuple[Rule, ...] = (placement, single_spindle, raid5, shared_disks, block_size, dual)
