"""SPD Server file systems: data paths per CPU, separate index/metadata/work, 64K stripes.

Source: bogacz2012 — 16 data paths for 8 CPUs ("two data paths for each available CPU"),
2.88 TB spread evenly over them after estimating three years of growth, one index file
system (325 GB), one metadata file system (30 GB), two work file systems of 177 GB, and
hardware stripes of 64K (a five-disk RAID moves 64K × 5 = 320K at a time).
"""

from __future__ import annotations

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
    planned_size_gb,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, rule
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
        "(the paper: 2.88 TB over 16 × 180 GB)."
    )


@rule(
    id="spds.data_paths",
    title="Two SPD Server data paths per CPU",
    sources=("bogacz2012",),
    settings=((SYSTEM, "SPD Server data paths"),),
    applies=with_spds,
    inputs=(
        "server.cpus",
        "storage[].role",
        "storage[].mount",
        "workload.total_data_gb",
        "workload.growth_gb_per_week",
    ),
)
def data_paths(inv: Inventory, out: Emitter) -> None:
    """Two data paths per CPU; when fewer exist, warn and propose a sized layout."""
    have = inv.by_role("spds_data")
    needed = SPDS_PATHS_PER_CPU * inv.server.cpus
    derivation = (
        f"{inv.server.cpus} CPUs × {SPDS_PATHS_PER_CPU} data paths per CPU = {needed}; "
        f"storage lists {len(have)} spds_data file systems ({mounts(have)})."
    )
    proposal = _layout_proposal(inv, max(needed, len(have)))
    if len(have) < needed:
        out.warn(
            f"{inv.server.cpus} CPUs call for {needed} SPD Server data paths "
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
    planned = planned_size_gb(inv) or BOGACZ_DATA_GB
    scale = planned / BOGACZ_DATA_GB
    findings: list[str] = []
    for role, label, paper_gb, wanted in (
        ("spds_index", "index", BOGACZ_INDEX_GB, 1),
        ("spds_meta", "metadata", BOGACZ_META_GB, 1),
        ("spds_work", "work", BOGACZ_WORK_GB, SPDS_MIN_WORK_PATHS),
    ):
        have = inv.by_role(role)
        findings.append(f"{label}: {len(have)} ({mounts(have)})")
        if len(have) >= wanted:
            continue
        size = ceil_gb(paper_gb * scale)
        out.warn(
            f"SPD Server needs {wanted} separate {label} file system(s) ({role}); "
            f"storage lists {len(have)}.",
            action=(
                f"Add {wanted - len(have)} {label} file system(s) of about {size} GB each: "
                f"bogacz2012's {paper_gb} GB next to {gb(BOGACZ_DATA_GB)} of data, scaled "
                f"to {gb(planned)} planned here."
            ),
            severity="medium",
        )
    return findings


def _stripes(inv: Inventory, out: Emitter) -> list[str]:
    """Skip entries without stripe_kb, warn on other stripe sizes and unstriped data."""
    odd: list[Storage] = []
    for s in inv.by_role(*SPDS_ROLES):
        if s.stripe_kb is None:
            out.skip(
                f"{s.path}.stripe_kb",
                f"stripe size of {s.mount} unknown; cannot check it against 64K",
            )
        elif s.stripe_kb != SPDS_STRIPE_KB:
            odd.append(s)
    if odd:
        listed = ", ".join(f"{s.mount} {s.stripe_kb}K" for s in odd)
        out.warn(
            f"SPD Server file systems not on {SPDS_STRIPE_KB}K hardware stripes: {listed}.",
            action=f"Re-stripe at {SPDS_STRIPE_KB}K, the size bogacz2012 and SAS use.",
            severity="medium",
        )
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


@rule(
    id="spds.layout",
    title="Separate index, metadata and work file systems on 64K stripes",
    sources=("bogacz2012",),
    settings=((SYSTEM, "SPD Server file system layout"),),
    applies=with_spds,
    inputs=(
        "storage[].role",
        "storage[].mount",
        "storage[].stripe_kb",
        "storage[].raid",
        "storage[].disks",
        "workload.total_data_gb",
        "workload.growth_gb_per_week",
    ),
)
def layout(inv: Inventory, out: Emitter) -> None:
    """Index, metadata and at least two work paths apart from data; 64K striped RAID."""
    findings = _missing_paths(inv, out)
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
