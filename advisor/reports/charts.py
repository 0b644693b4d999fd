"""Charts drawn as hand-written SVG, so the HTML page and the PDF carry the same picture.

Each function takes plain numbers and returns one `<svg>` element as text; nothing here
reads the database. Colours follow the run-queue zones chew quotes from Cockcroft
(green up to 2 runnable threads per CPU, amber up to 5, red beyond).

Readable in light and dark pages and in print: text, axes and grid lines are drawn in
`currentColor`, which an inline SVG takes from the page's text colour (dark mode included)
and WeasyPrint's PDF resolves to black; coloured marks are mid tones that stand out on
white and on a dark card alike, and background bands are translucent. Every chart with
more than one colour has a legend that says in words what each colour is, and a
`<title>`/`<desc>` for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.reports import svg
from advisor.reports.curve import capacity_curve, job_ticks, tick_label
from advisor.reports.svg import (
    AMBER,
    BLUE,
    GREEN,
    GREY,
    RED,
    ROLE_COLOURS,
    RUNQ_AMBER_PER_CPU,
    RUNQ_GREEN_PER_CPU,
    WIDTH,
)

# The capacity curve lives in curve.py; the pages and the report take every chart from here.
__all__ = [
    "capacity_curve", "data_paths", "job_ticks", "memory_budget", "threads_vs_cpus", "tick_label",
]  # fmt: skip


def _gb(mb: float) -> str:
    """'32 GB', '1.5 GB', '97,656 GB': three figures, thousands grouped, no exponent."""
    gb = mb / 1024
    if gb >= 100:
        return f"{gb:,.0f} GB"
    return f"{gb:.3g} GB" if gb >= 1 else f"{gb:.2f} GB"


def memory_budget(*, sessions: int, memsize_mb: float, ram_mb: float) -> str:
    """Sessions × MEMSIZE against RAM: one bar each, the RAM line dashed."""
    total = sessions * memsize_mb
    left, span = 170, WIDTH - 170 - 20
    scale = span / max(total, ram_mb)
    fill = BLUE if total <= ram_mb else RED
    ram_x = left + ram_mb * scale
    body = [
        svg.text(8, 32, "RAM"),
        svg.bar(left, 18, ram_mb * scale, 22, GREY),
        svg.text(left + 6, 33, _gb(ram_mb), extra=svg.on(GREY)),
        svg.text(8, 72, f"{sessions} × MEMSIZE {_gb(memsize_mb)}"),
        svg.bar(left, 58, total * scale, 22, fill),
        svg.text(left + 6, 73, _gb(total), extra=svg.on(fill)),
        svg.line(ram_x, 10, ram_x, 90, "stroke='currentColor' stroke-dasharray='4 3'"),
        svg.text(left, 106, f"{100 * total / ram_mb:.0f} % of RAM committed to SAS sessions"),
    ]
    fits = "sessions × MEMSIZE, within RAM" if total <= ram_mb else "sessions × MEMSIZE, over RAM"
    legend, height = svg.legend(
        [("box", GREY, "RAM"), ("box", fill, fits), ("dash", "currentColor", "RAM limit")], 114
    )
    desc = f"{sessions} sessions × {_gb(memsize_mb)} = {_gb(total)} against {_gb(ram_mb)} RAM."
    return svg.svg(
        114 + height, body + legend, "Memory budget: sessions × MEMSIZE against RAM", desc
    )


def _zone(per_cpu: float) -> str:
    if per_cpu > RUNQ_AMBER_PER_CPU:
        return "red"
    return "green" if per_cpu <= RUNQ_GREEN_PER_CPU else "amber"


def threads_vs_cpus(*, sessions: int, cpucount: int, cpus: int) -> str:
    """Sessions × CPUCOUNT threads on a scale banded by run-queue zones per CPU."""
    threads = sessions * cpucount
    left, span = 170, WIDTH - 170 - 20
    scale = span / max(threads, cpus * (RUNQ_AMBER_PER_CPU + 1))
    green_w = cpus * RUNQ_GREEN_PER_CPU * scale
    amber_w = cpus * (RUNQ_AMBER_PER_CPU - RUNQ_GREEN_PER_CPU) * scale
    per_cpu = threads / cpus
    zone = _zone(per_cpu)
    fill = {"green": GREEN, "amber": AMBER}.get(zone, RED)
    band = "fill-opacity='0.18'"
    body = [
        svg.bar(left, 12, green_w, 76, GREEN, band),
        svg.bar(left + green_w, 12, amber_w, 76, AMBER, band),
        svg.bar(left + green_w + amber_w, 12, span - green_w - amber_w, 76, RED, band),
        svg.text(8, 32, f"CPUs ({cpus})"),
        svg.bar(left, 20, cpus * scale, 20, GREY),
        svg.text(8, 70, f"{sessions} × CPUCOUNT {cpucount}"),
        svg.bar(left, 58, threads * scale, 20, fill),
        svg.label_after_bar(left, threads * scale, span, 72, f"{threads} threads", fill),
        svg.text(left, 106, f"{per_cpu:.1f} threads per CPU: {zone} (green ≤ 2, amber ≤ 5)"),
    ]
    legend, height = svg.legend(
        [
            ("band", GREEN, f"green zone: ≤ {RUNQ_GREEN_PER_CPU} threads per CPU"),
            ("band", AMBER, f"amber: ≤ {RUNQ_AMBER_PER_CPU}"),
            ("band", RED, f"red: > {RUNQ_AMBER_PER_CPU}"),
            ("box", GREY, "CPUs"),
            ("box", fill, f"threads ({zone})"),
        ],
        114,
    )
    desc = f"{sessions} sessions × CPUCOUNT {cpucount} = {threads} threads on {cpus} CPUs."
    return svg.svg(114 + height, body + legend, "Threads against CPUs: sessions × CPUCOUNT", desc)


MAX_PATH_BARS = 40  # more entries than this are drawn one bar per role (a page holds ~50)


def data_paths(storage: Sequence[dict[str, Any]]) -> str:
    """One bar per storage entry, length by size, colour by role; one bar per role, its
    entries' total size, when there are more than MAX_PATH_BARS entries."""
    if not storage:
        return svg.svg(30, [svg.text(8, 20, "No storage in the inventory.")], "Data paths")
    if len(storage) > MAX_PATH_BARS:
        return _paths_by_role(storage)
    bars = [
        (f"{s['mount']} ({s['role']}, RAID {s['raid']}, {s['disks']} disks)"[:42],
         float(s["size_gb"]), str(s["role"]))
        for s in storage
    ]  # fmt: skip
    return _path_bars(bars, "Data paths and their sizes", f"{len(storage)} storage entries.")


def _paths_by_role(storage: Sequence[dict[str, Any]]) -> str:
    totals: dict[str, list[float]] = {}
    for s in storage:
        totals.setdefault(str(s["role"]), []).append(float(s["size_gb"]))
    bars = [(f"{role}: {len(sizes)} entries", sum(sizes), role) for role, sizes in totals.items()]
    desc = f"{len(storage)} storage entries, one bar per role: the total size of its entries."
    return _path_bars(bars, "Data paths by role and their total sizes", desc)


def _size(gb: float) -> str:
    """'180 GB', '1.5 GB', '13,140 GB': thousands grouped, no exponent."""
    return f"{gb:,.0f} GB" if gb >= 1000 else f"{gb:g} GB"


def _path_bars(bars: Sequence[tuple[str, float, str]], title: str, desc: str) -> str:
    """One labelled bar per (label, GB, role), length by size, colour by role."""
    left, span, row = 250, WIDTH - 250 - 90, 18
    biggest = max(gb for _, gb, _ in bars) or 1.0
    body = []
    for i, (label, gb, role) in enumerate(bars):
        y = 8 + i * row
        body.append(svg.text(8, y + 12, label))
        width = gb / biggest * span
        body.append(svg.bar(left, y + 2, width, row - 5, ROLE_COLOURS.get(role, GREY)))
        body.append(svg.text(left + width + 4, y + 12, _size(gb)))
    height = 16.0 + len(bars) * row
    roles = list(dict.fromkeys(role for _, _, role in bars))
    if len(roles) > 1:
        entries = [("box", ROLE_COLOURS.get(r, GREY), r.replace("_", " ")) for r in roles]
        legend, extra = svg.legend(entries, height - 4)
        body, height = body + legend, height + extra
    return svg.svg(height, body, title, desc)
