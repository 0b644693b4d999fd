"""Measured storage judged read and write apart (throughput.estimate, for rules.catalog
.throughput): each direction's measured MB/s, all streams together, against SAS's need of
100 MB/s per core in use (the lower end of its 100–150 band, sas-io-throughput).

A group (WORK/UTILLOC, or data) is judged this way once any entry in it gives a read or a
write figure measured on this host; an entry measured only as the lower of the two
(storage[].measured_mb_s) or estimated counts that figure for both directions. A read
that may be the page cache's (storage[].measured_read_cached) is not measured: the group's
read is then not judged, neither passed nor called short, and the text says how to measure
it. A
shortfall names the file systems, the short direction(s) with their figures and MB/s per
core in use, the band, and what would close it: more LUNs in the stripe, a dedicated
adapter, WORK on solid state, with xu's Table 2 ratios (rules.catalog.work).
"""

from __future__ import annotations

from rules.catalog.work import XU_SOLID_STATE, XU_STRIPING
from rules.derive.throughput import (
    NEED_HIGH_MB_S_PER_CORE,
    NEED_LOW_MB_S_PER_CORE,
    Flow,
    Need,
    Rate,
    direction_rate,
    entry_rate,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage

FLOWS: tuple[Flow, ...] = ("read", "write")
SHORTFALL_MEDIUM = 0.5  # below half of the need: medium; otherwise low
BAND_PER_CORE = (
    f"SAS's {NEED_LOW_MB_S_PER_CORE}–{NEED_HIGH_MB_S_PER_CORE} MB/s per core in use "
    "(sas-io-throughput)"
)
SOURCES = ("sas-io-throughput", "xu", "bartucca2005")


def judged_apart(entries: tuple[Storage, ...]) -> bool:
    """Whether the group is judged read and write apart: some entry gives a read or write
    figure, and none is only bounded (a cluster's total) or unknown."""
    bases = {entry_rate(s).basis for s in entries}
    given = any(s.measured_read_storage or s.measured_write_mb_s for s in entries)
    return given and not bases & {"bound", "unknown"}


def _ratio(pair: tuple[int, int]) -> str:
    return f"{pair[0] / 100:.1f}–{pair[1] / 100:.1f}×"


def _fixes(label: str, entries: tuple[Storage, ...]) -> str:
    """What would close the gap, with xu's Table 2 ratios against one disk."""
    capped = any(s.throughput_cap_mb_s is not None for s in entries)
    steps = ["raise the provisioned throughput (Throughput cap, MB/s)"] if capped else []
    steps += [
        f"more LUNs in the stripe (xu Table 2: WORK striped over 4 disks ran {_ratio(XU_STRIPING)} "
        "the speed of one disk)",
        "a dedicated adapter for it (xu ran each setup behind its own controller)",
    ]
    if label in ("WORK", "UTILLOC") and not all(s.solid_state for s in entries):
        steps.append(f"{label} on solid state (xu Table 2: {_ratio(XU_SOLID_STATE)} one disk)")
    return "; ".join(steps)


def _per_core(mb_s: float, need: Need) -> str:
    return f"{mb_s:g} MB/s ÷ {need.busy} cores in use = {mb_s / need.busy:.1f} MB/s per core"


def _sums(entries: tuple[Storage, ...]) -> dict[Flow, tuple[float, list[Rate]]]:
    out: dict[Flow, tuple[float, list[Rate]]] = {}
    for flow in FLOWS:
        rates = [direction_rate(s, flow) for s in entries]
        out[flow] = (sum(r.mb_s or 0 for r in rates), rates)
    return out


def _where(entries: tuple[Storage, ...]) -> str:
    return ", ".join(f"{s.name} ({s.mount})" for s in entries)


def _by(entries: tuple[Storage, ...]) -> str:
    """The tools, dates and streams the measurements name, where given."""
    parts = [
        f"{s.name} was measured"
        + (f" with {s.measured_by}" if s.measured_by else "")
        + (f" on {s.measured_at}" if s.measured_at else "")
        + (f" over {s.measured_streams} streams" if s.measured_streams else "")
        for s in entries
        if s.measured_by or s.measured_at or s.measured_streams
    ]
    return f" {'; '.join(parts)}." if parts else ""


def _said(inv: Inventory, flow: Flow, rates: list[Rate]) -> str:
    """A direction that is not judged, and how to measure it: a read that may be the page
    cache's (storage[].measured_read_cached) is no measurement of the storage."""
    how = (
        "with DiskSpd -Sh or sasiotest -sgio, or a file larger than the RAM"
        if inv.server.os == "windows"
        else "with files totalling at least the RAM, or the collector's --measure with --direct"
    )
    why = "; ".join(r.text for r in rates if r.mb_s is None)
    return f"{flow} not judged ({why}; measure it {how})"


def check_apart(out: Emitter, inv: Inventory, label: str, entries: tuple[Storage, ...],
                need: Need) -> str:  # fmt: skip
    """Judge read and write apart; warn once for the short direction(s). The summary for
    the target's rationale."""
    sums = _sums(entries)
    unjudged = {flow for flow, (_, rates) in sums.items() if any(r.mb_s is None for r in rates)}
    texts = [_said(inv, flow, rates) if flow in unjudged
             else f"{flow} {have:g} MB/s ({' + '.join(r.text for r in rates)})"
             for flow, (have, rates) in sums.items()]  # fmt: skip
    summary = f"{label} on {_where(entries)}: {', '.join(texts)}, each vs {need.text}"
    short = [flow for flow, (have, _) in sums.items() if flow not in unjudged and have < need.mb_s]
    if not short:
        return summary
    worst = min(sums[f][0] for f in short) / need.mb_s
    figures = "; ".join(f"{flow} {_per_core(sums[flow][0], need)}" for flow in short)
    how = "Measured" if all(s.measured_lower for s in entries) else "Partly measured"
    out.warn(
        f"{how} {label} {' and '.join(short)} throughput is short on {_where(entries)}: "
        f"{figures}, below {BAND_PER_CORE}: {need.text} ({worst:.0%} of the need)."
        f"{_by(entries)}",
        action=f"Check the measurement with the sessions running at peak, then close the "
        f"gap: {_fixes(label, entries)}.",
        severity="medium" if worst < SHORTFALL_MEDIUM else "low",
        sources=SOURCES + (("sas-win-iotest", "ms-diskspd") if inv.server.os == "windows" else ()),
    )
    return summary
