"""SPD Server file systems: data paths per CPU, separate index/metadata/work, 64K stripes.

Source: bogacz2012 — 16 data paths for 8 CPUs ("two data paths for each available CPU"),
2.88 TB (space used plus three years of weekly growth, l.22) spread evenly over them, one index file
system (325 GB), one metadata file system (30 GB), two work file systems of 177 GB, and
hardware stripes of 64K (a five-disk RAID moves 64K × 5 = 320K at a time).

Both rules of thumb are about spinning disks (l.32: 'read/write heads'); on solid state or
SAN LUNs whose disks the host cannot see, the rules say so and what to measure instead,
and existing storage is never told to be re-striped.
"""

from __future__ import annotations

from rules.catalog.spds.stripes import paths_off_spindles, stripe_advice
from rules.derive.hardware import processors
from rules.derive.scope import with_spds
from rules.derive.spds import (
    BOGACZ_DATA_GB,
    BOGACZ_INDEX_GB,
    BOGACZ_META_GB,
    BOGACZ_WORK_GB,
    SPDS_MIN_WORK_PATHS,
    SPDS_PATHS_PER_CPU,
    SPDS_PLANNING_WEEKS,
    SPDS_STRIPE_KB,
    ceil_gb,
    mounts,
    on_spindles,
    planned_size_gb,
    spindle_paths,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Severity, rule
from rules.payloads import PathCount
from rules.units import gb

SPDS_ROLES = ("spds_data", "spds_index", "spds_meta", "spds_work")


def _layout_proposal(inv: Inventory, needed: int) -> str:
    w = inv.workload
    total = planned_size_gb(inv)
    if total <= 0:
        return (
            f"Lay out {needed} data file systems of equal size; workload.total_data_gb is 0, "
            "so no size per path can be derived."
        )
    per_path = ceil_gb(total / needed)
    return (
        f"Lay out {needed} data file systems of {per_path} GB each: "
        f"{gb(w.total_data_gb)} of data + {gb(w.growth_gb_per_week)}/week × "
        f"{SPDS_PLANNING_WEEKS} weeks (a three-year horizon, as bogacz2012 planned) = "
        f"{gb(total)}, / {needed} paths = {total / needed:g} GB → {per_path} GB "
        "(bogacz2012 l.22: space used then plus three years of weekly growth came to 2.88 TB, "
        "over 16 × 180 GB; enter today's data as Total data (GB), not a figure that already "
        "includes growth)."
    )


@rule(
    id="spds.data_paths",
    title="Two SPD Server data paths per CPU",
    sources=("bogacz2012",),
    settings=((SYSTEM, "SPD Server data paths"),),
    applies=with_spds,
    inputs=(
        "server.cpus",
        "server.cores",
        "server.smt_threads",
        "storage[].role",
        "storage[].mount",
        "storage[].media",
        "storage[].san",
        "workload.total_data_gb",
        "workload.growth_gb_per_week",
    ),
)
def data_paths(inv: Inventory, out: Emitter) -> None:
    """Two data paths per CPU on spindles; when fewer exist, warn and propose a sized layout.
    On solid-state or SAN data paths, advice on what to measure instead."""
    have = inv.by_role("spds_data")
    count, cpus = processors(inv)
    if not spindle_paths(inv):
        paths_off_spindles(inv, out)
        return
    needed = SPDS_PATHS_PER_CPU * count
    derivation = (
        f"{cpus} × {SPDS_PATHS_PER_CPU} data paths per CPU = {needed}; "
        f"storage lists {len(have)} spds_data file systems ({mounts(have)})."
    )
    proposal = _layout_proposal(inv, max(needed, len(have)))
    if len(have) < needed:
        out.warn(
            f"{cpus} call for {needed} SPD Server data paths "
            f"(two per CPU, bogacz2012); storage lists only {len(have)}.",
            action=proposal,
            severity="high",
        )
    out.set(
        SYSTEM,
        "SPD Server data paths",
        str(max(needed, len(have))),
        rationale=f"{derivation} {proposal}",
        evidence="bogacz2012: 8 CPUs → 16 independent file systems (data paths)",
        effect="DPFs spread over more paths are read in parallel at the disk I/O level",
        kind="change" if len(have) < needed else "check",
        payload=PathCount(len(have), needed),
    )


def _missing_paths(inv: Inventory, out: Emitter) -> list[str]:
    """Warn for each missing separate file system; return the findings for the summary."""
    planned = planned_size_gb(inv)
    scale = planned / BOGACZ_DATA_GB if planned > 0 else 1.0
    findings: list[str] = []
    for role, label, paper_gb, wanted in (
        ("spds_index", "index", BOGACZ_INDEX_GB, 1),
        ("spds_meta", "metadata", BOGACZ_META_GB, 1),
        ("spds_work", "work", BOGACZ_WORK_GB, SPDS_MIN_WORK_PATHS),
    ):
        have = inv.by_role(role)
        findings.append(f"{label}: {len(have)} ({mounts(have)})")
        size = ceil_gb(paper_gb * scale)
        if len(have) >= wanted:
            paper = f"{wanted} × {paper_gb} GB" if wanted > 1 else f"{paper_gb} GB"
            _undersized(inv, out, role, label, paper, wanted * size)
            continue
        basis = (
            f"scaled to {gb(planned)} planned here"
            if planned > 0
            else "unscaled: workload.total_data_gb is 0, so there is nothing to scale by"
        )
        out.warn(
            f"SPD Server needs {wanted} separate {label} file system(s) ({role}); "
            f"storage lists {len(have)}.",
            action=(
                f"Add {wanted - len(have)} {label} file system(s) of about {size} GB each: "
                f"bogacz2012's {paper_gb} GB next to {gb(BOGACZ_DATA_GB)} of data, {basis}."
            ),
            severity="medium",
        )
    return findings


def _undersized(
    inv: Inventory, out: Emitter, role: str, label: str, paper: str, want_gb: int
) -> None:
    """An existing index/metadata/work file system below bogacz2012's ratio to the data."""
    have, planned = _capacity_gb(inv, role), planned_size_gb(inv)
    if planned <= 0 or have >= want_gb:
        return
    out.warn(
        f"The SPD Server {label} file system(s) hold {gb(have)}; bogacz2012 (l.22-24) gave "
        f"{label} {paper} next to {gb(BOGACZ_DATA_GB)} of data, {gb(want_gb)} at the "
        f"{gb(planned)} planned here.",
        action=f"Grow {role} toward {want_gb} GB, or measure its use (df) against the data "
        "already loaded before the data grows.",
        severity="low",
    )


def _stripes(inv: Inventory, out: Emitter) -> list[str]:
    """Skip entries without stripe_kb; where a stripe differs from the paper's 64K, advice
    for storage still to be laid out (a low warning on spindles only); unstriped data."""
    odd: list[Storage] = []
    for s in inv.by_role(*SPDS_ROLES):
        if s.stripe_kb is None:
            out.skip(
                f"{s.path}.stripe_kb",
                f"stripe size of {s.mount} unknown; cannot check it against 64K",
            )
        elif s.stripe_kb != SPDS_STRIPE_KB:
            odd.append(s)
    spinning = [s for s in odd if on_spindles(s)]
    if spinning:
        listed = ", ".join(f"{s.mount} {s.stripe_kb}K" for s in spinning)
        out.warn(
            f"SPD Server file systems on disks with stripe units other than the "
            f"{SPDS_STRIPE_KB}K bogacz2012 used: {listed}.",
            action="Leave the existing storage as it is (see the advice on SPD Server stripe "
            f"units); consider {SPDS_STRIPE_KB}K only for storage still to be laid out.",
            severity="low",
        )
    if odd:
        stripe_advice(out, odd)
    _unstriped_data(inv, out)
    return [
        f"{s.mount} {s.stripe_kb}K × {s.disks} = {s.stripe_kb * s.disks}K"
        for s in inv.by_role("spds_data")
        if s.striped and s.stripe_kb
    ]


def _unstriped_data(inv: Inventory, out: Emitter) -> None:
    flat = [s for s in inv.by_role("spds_data") if not s.striped]
    if flat:
        out.warn(
            "SPD Server data paths not striped across disks: "
            + ", ".join(f"{s.mount} (RAID {s.raid}, {s.disks} disk(s))" for s in flat),
            action="Put each data path on a RAID striped across several disks "
            "(bogacz2012: 64K × 5 disks = 320K per I/O round, reads spread evenly).",
            severity="medium",
        )


def _capacity_gb(inv: Inventory, role: str) -> float:
    return sum(s.size_gb for s in inv.by_role(role))


def _data_capacity(inv: Inventory, out: Emitter) -> None:
    """Data paths that cannot hold today's data, or will not hold the planned growth."""
    w, have = inv.workload, _capacity_gb(inv, "spds_data")
    if not inv.by_role("spds_data") or have >= planned_size_gb(inv):
        return
    if have < w.total_data_gb:
        message = f"today's {gb(w.total_data_gb)} of data does not fit"
        severity: Severity = "high"
    else:
        weeks = (have - w.total_data_gb) / w.growth_gb_per_week
        message = f"at {gb(w.growth_gb_per_week)}/week they are full in {weeks:.0f} weeks"
        severity = "medium"
    out.warn(
        f"The spds_data file systems hold {gb(have)}: {message} (planned over "
        f"{SPDS_PLANNING_WEEKS} weeks: {gb(planned_size_gb(inv))}).",
        action="Grow the data paths to the planned size, spread evenly over them, as "
        "bogacz2012 (l.22) spread 2.88 TB over 16 file systems.",
        severity=severity,
    )


def _work_capacity(inv: Inventory, out: Emitter) -> None:
    """SPD Server's sorts and index builds spill to WORKPATH: about the table's size."""
    have, largest = _capacity_gb(inv, "spds_work"), inv.workload.largest_table_gb
    if not inv.by_role("spds_work") or have >= largest:
        return
    out.warn(
        f"The spds_work file systems hold {gb(have)}, less than the largest table "
        f"({gb(largest)}): a sort or index build of it spills about its own size to WORKPATH "
        "(bartucca2005 l.305-316: the 60 GB sort wrote and read a 60 GB utility file).",
        action=f"Give WORKPATH at least {ceil_gb(largest)} GB, more for concurrent sorts "
        "(bogacz2012 l.24: work file systems 'large enough to accommodate all the concurrent "
        "processes that create temp files').",
        severity="high",
        sources=("bogacz2012", "bartucca2005"),
    )


@rule(
    id="spds.layout",
    title="Separate index, metadata and work file systems on 64K stripes",
    sources=("bogacz2012", "bartucca2005"),
    settings=(
        (SYSTEM, "SPD Server file system layout"),
        (SYSTEM, "SPD Server stripe unit"),
    ),
    applies=with_spds,
    inputs=(
        "storage[].role",
        "storage[].mount",
        "storage[].stripe_kb",
        "storage[].raid",
        "storage[].disks",
        "storage[].size_gb",
        "storage[].media",
        "storage[].san",
        "workload.total_data_gb",
        "workload.growth_gb_per_week",
        "workload.largest_table_gb",
    ),
)
def layout(inv: Inventory, out: Emitter) -> None:
    """Index, metadata and at least two work paths apart from data; 64K striped RAID."""
    findings = _missing_paths(inv, out)
    _data_capacity(inv, out)
    _work_capacity(inv, out)
    widths = _stripes(inv, out)
    stripe_text = "; ".join(widths) if widths else "no striped data path with a known stripe"
    out.set(
        SYSTEM,
        "SPD Server file system layout",
        ", ".join(findings),
        rationale=(
            f"Separate file systems found — {', '.join(findings)}; stripe width of the data "
            f"paths: {stripe_text}."
        ),
        evidence="bogacz2012: index 325 GB, metadata 30 GB, work 2 × 177 GB; 64K × 5 = 320K",
        effect="bogacz2012 Figures 1–2: with striping, reads and writes spread evenly over "
        "the disks instead of one disk at a time",
        kind="check",
    )


RULES = (data_paths, layout)
