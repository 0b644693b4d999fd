"""What bogacz2012's spindle-era rules of thumb mean on the storage SPD Server runs on now.

The paper's two data paths per CPU (l.22) and its 64K stripe (l.32) were laid out for the
disks of an 8-CPU AIX server of 2012 (l.20), to put several read/write heads to work at
once (l.32); its own striped/unstriped test showed no significant difference in run time,
only reads and writes spread evenly over the disks (l.34, Figures 1-2). Flash and SSD
have no heads, and a SAN LUN's disks, cache and strips are the array's, out of the host's
sight: there the advisor says what the paper measured, and what to measure instead, and
never asks for production storage to be rebuilt. `spds.layout` and `spds.data_paths`
call these helpers.
"""

from __future__ import annotations

from rules.derive.hardware import processors
from rules.derive.spds import BOGACZ_HARDWARE, SPDS_PATHS_PER_CPU, SPDS_STRIPE_KB, on_spindles
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM
from rules.payloads import PathCount

PAPER_TEST = (
    "its own test of a striped against an unstriped 4-disk volume group (a 30 GB file, five "
    "jobs) showed no significant difference in run time, only reads and writes spread "
    "evenly over the disks (l.34)"
)


def medium(s: Storage) -> str:
    """'ssd SAN LUN', 'SAN LUN' (disks out of sight), 'nvme', 'hdd'."""
    if s.san is True:
        return f"{s.media} SAN LUN" if s.solid_state else "SAN LUN"
    return s.media


def _described(entries: list[Storage] | tuple[Storage, ...]) -> str:
    return ", ".join(f"{s.mount} ({medium(s)})" for s in entries)


def _queue_watch(inv: Inventory) -> str:
    if inv.server.os == "aix":
        return "iostat -D (avgserv, sqfull) on their hdisks and fcstat on their adapters"
    if inv.server.os == "linux":
        return "iostat -x (r_await, w_await, aqu-sz) on their devices"
    return "the OS's per-device service times and queue lengths"


def paths_off_spindles(inv: Inventory, out: Emitter) -> None:
    """spds.data_paths where every data path is solid state or a SAN LUN: advice, no warning."""
    have = inv.by_role("spds_data")
    count, cpus = processors(inv)
    needed = SPDS_PATHS_PER_CPU * count
    out.set(
        SYSTEM,
        "SPD Server data paths",
        str(len(have)),
        rationale=(
            f"{cpus} × {SPDS_PATHS_PER_CPU} data paths per CPU would be {needed}, but "
            "bogacz2012's 'two data paths for each available CPU' (l.22) is a rule of thumb "
            f"for spinning disks: it was laid out on {BOGACZ_HARDWARE}, and {PAPER_TEST}. "
            f"The data paths here are {_described(have)}: no heads to spread, or an array's "
            "disks the host cannot see, so more file systems are not by themselves more "
            f"parallel I/O. Keep the {len(have)} listed and measure instead: time one large "
            "table read in parallel (the %IOSCALE test of spds.threads) while watching "
            f"{_queue_watch(inv)}; add LUNs or data paths only if the curve flattens while "
            "their service times grow or their queues fill."
        ),
        evidence="bogacz2012 l.20 (the server), l.22 (two data paths per CPU), l.32-34 "
        "(striping for read/write heads; no significant run-time difference)",
        effect="not measured on solid state or SAN LUNs",
        kind="advice",
        payload=PathCount(len(have), len(have)),
    )


def stripe_advice(out: Emitter, odd: list[Storage]) -> None:
    """spds.layout: stripe units other than the paper's 64K, as advice for new storage."""
    spinning = [s for s in odd if on_spindles(s)]
    other = [s for s in odd if not on_spindles(s)]
    listed = ", ".join(f"{s.mount} {s.stripe_kb}K" for s in odd)
    parts = [
        f"Stripe units here: {listed}. bogacz2012 used {SPDS_STRIPE_KB}K, the size SAS "
        "documentation then called common (l.32: 64K pieces over a five-disk RAID, 320K a "
        f"round); it was laid out on {BOGACZ_HARDWARE}, and {PAPER_TEST}. It is a figure "
        "for new storage being laid out on disks, not a reason to rebuild storage in use."
    ]
    if spinning:
        parts.append(
            f"On {_described(spinning)}: if storage is laid out anew for SPD Server, "
            f"consider {SPDS_STRIPE_KB}K and time a parallel read of one large table "
            "(%IOSCALE) against the current layout before choosing."
        )
    if other:
        parts.append(
            f"On {_described(other)}: solid state has no heads, and a SAN LUN's strips are "
            "the array's, which the host cannot see; keep the array vendor's layout."
        )
    out.set(
        SYSTEM,
        "SPD Server stripe unit",
        f"{SPDS_STRIPE_KB}K for new disk storage only; keep the existing stripes",
        rationale=" ".join(parts),
        evidence="bogacz2012 l.32 (64K, per SAS documentation), l.34 (striped vs unstriped)",
        effect="bogacz2012 l.34: no significant run-time difference in its test",
        kind="advice",
    )
