"""Charts drawn as hand-written SVG, so the HTML page and the PDF carry the same picture.

Each function takes plain numbers and returns one `<svg>` element as text; nothing here
reads the database. Colours follow the run-queue zones chew quotes from Cockcroft
(green up to 2 runnable threads per CPU, amber up to 5, red beyond).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

WIDTH = 640
FONT = "font-family='DejaVu Sans, sans-serif' font-size='11'"
GREEN, AMBER, RED, BLUE, GREY = "#2e7d32", "#f9a825", "#c62828", "#1f5f99", "#9e9e9e"
RUNQ_GREEN_PER_CPU = 2  # chew, quoting Cockcroft: RunQ per CPU up to 2 is green
RUNQ_AMBER_PER_CPU = 5  # up to 5 amber, above red
ROLE_COLOURS = {
    "data": "#1f5f99", "work": "#e65100", "utilloc": "#ef6c00", "spds_data": "#283593",
    "spds_index": "#5e35b1", "spds_meta": "#00838f", "spds_work": "#ad1457", "other": GREY,
}  # fmt: skip


def _svg(height: int, body: Sequence[str], title: str) -> str:
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' class='chart' role='img' "
        f"viewBox='0 0 {WIDTH} {height}' width='{WIDTH}' height='{height}' {FONT}>"
        f"<title>{escape(title)}</title>{''.join(body)}</svg>"
    )


def _text(x: float, y: float, text: str, anchor: str = "start", extra: str = "") -> str:
    return f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' {extra}>{escape(text)}</text>"


def _bar(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f"<rect x='{x:.1f}' y='{y:.1f}' width='{max(w, 0.5):.1f}' height='{h}' fill='{fill}'/>"


def _label_after_bar(left: float, width: float, span: float, y: float, text: str) -> str:
    """A value label right of its bar, or inside it when the bar fills the plot."""
    if width > span * 0.8:
        return _text(left + width - 6, y, text, "end", "fill='white'")
    return _text(left + width + 4, y, text)


def _gb(mb: float) -> str:
    return f"{mb / 1024:.3g} GB"


def memory_budget(*, sessions: int, memsize_mb: float, ram_mb: float) -> str:
    """Sessions × MEMSIZE against RAM: one bar each, the RAM line dashed."""
    total = sessions * memsize_mb
    left, span = 170, WIDTH - 170 - 20
    scale = span / max(total, ram_mb)
    fill = BLUE if total <= ram_mb else RED
    body = [
        _text(8, 32, "RAM"),
        _bar(left, 18, ram_mb * scale, 22, GREY),
        _text(left + 6, 33, _gb(ram_mb), extra="fill='white'"),
        _text(8, 72, f"{sessions} × MEMSIZE {_gb(memsize_mb)}"),
        _bar(left, 58, total * scale, 22, fill),
        _text(left + 6, 73, _gb(total), extra="fill='white'"),
        f"<line x1='{left + ram_mb * scale:.1f}' y1='10' x2='{left + ram_mb * scale:.1f}' "
        f"y2='90' stroke='black' stroke-dasharray='4 3'/>",
        _text(left, 106, f"{100 * total / ram_mb:.0f} % of RAM committed to SAS sessions"),
    ]
    return _svg(116, body, "Memory budget: sessions × MEMSIZE against RAM")


def threads_vs_cpus(*, sessions: int, cpucount: int, cpus: int) -> str:
    """Sessions × CPUCOUNT threads on a scale banded by run-queue zones per CPU."""
    threads = sessions * cpucount
    left, span = 170, WIDTH - 170 - 20
    top = max(threads, cpus * (RUNQ_AMBER_PER_CPU + 1))
    scale = span / top
    green_w = cpus * RUNQ_GREEN_PER_CPU * scale
    amber_w = cpus * (RUNQ_AMBER_PER_CPU - RUNQ_GREEN_PER_CPU) * scale
    per_cpu = threads / cpus
    zone = "green" if per_cpu <= RUNQ_GREEN_PER_CPU else "amber"
    zone = "red" if per_cpu > RUNQ_AMBER_PER_CPU else zone
    body = [
        _bar(left, 12, green_w, 76, "#e8f5e9"),
        _bar(left + green_w, 12, amber_w, 76, "#fff8e1"),
        _bar(left + green_w + amber_w, 12, span - green_w - amber_w, 76, "#ffebee"),
        _text(8, 32, f"CPUs ({cpus})"),
        _bar(left, 20, cpus * scale, 20, GREY),
        _text(8, 70, f"{sessions} × CPUCOUNT {cpucount}"),
        _bar(left, 58, threads * scale, 20, {"green": GREEN, "amber": AMBER}.get(zone, RED)),
        _label_after_bar(left, threads * scale, span, 72, f"{threads} threads"),
        _text(left, 106, f"{per_cpu:.1f} threads per CPU: {zone} (green ≤ 2, amber ≤ 5)"),
    ]
    return _svg(116, body, "Threads against CPUs: sessions × CPUCOUNT")


def data_paths(storage: Sequence[dict[str, Any]]) -> str:
    """One bar per storage entry, length by size, colour by role."""
    if not storage:
        return _svg(30, [_text(8, 20, "No storage in the inventory.")], "Data paths")
    left, span, row = 250, WIDTH - 250 - 90, 18
    biggest = max(float(s["size_gb"]) for s in storage)
    body = []
    for i, s in enumerate(storage):
        y = 8 + i * row
        label = f"{s['mount']} ({s['role']}, RAID {s['raid']}, {s['disks']} disks)"
        body.append(_text(8, y + 12, label[:42]))
        width = float(s["size_gb"]) / biggest * span
        body.append(_bar(left, y + 2, width, row - 5, ROLE_COLOURS.get(s["role"], GREY)))
        body.append(_text(left + width + 4, y + 12, f"{float(s['size_gb']):g} GB"))
    return _svg(16 + len(storage) * row, body, "Data paths and their sizes")


def tick_label(value: float) -> str:
    """'0.25', '40', '1,250,000': never '1.25e+06', which reads as a typo on an axis."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"


def _ticks(top: float, count: int = 5) -> list[float]:
    raw = top / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(int(top / step) + 2)]


@dataclass(frozen=True)
class _Plot:
    """The capacity plot's area: concurrent jobs (from 1) across, minutes up."""

    x_max: float
    y_max: float
    left: int = 56
    right: int = WIDTH - 16
    top: int = 28
    bottom: int = 210

    def x(self, jobs: float) -> float:
        return self.left + (jobs - 1) / max(self.x_max - 1, 1) * (self.right - self.left)

    def y(self, minutes: float) -> float:
        return self.bottom - minutes / self.y_max * (self.bottom - self.top)


def _frame(plot: _Plot, y_ticks: Sequence[float]) -> list[str]:
    """Both axes, a grid line and label per minute tick, a label per job tick."""
    left, right, top, bottom = plot.left, plot.right, plot.top, plot.bottom
    body = [f"<line x1='{left}' y1='{bottom}' x2='{right}' y2='{bottom}' stroke='black'/>"]
    body.append(f"<line x1='{left}' y1='{top}' x2='{left}' y2='{bottom}' stroke='black'/>")
    for t in y_ticks:
        body.append(f"<line x1='{left}' y1='{plot.y(t):.1f}' x2='{right}' y2='{plot.y(t):.1f}' "
                    "stroke='#e0e0e0'/>")  # fmt: skip
        body.append(_text(left - 4, plot.y(t) + 4, tick_label(t), "end"))
    for t in _ticks(plot.x_max - 1 or 1, 8):
        if t + 1 <= plot.x_max:
            body.append(_text(plot.x(t + 1), bottom + 14, tick_label(t + 1), "middle"))
    return body


def capacity_curve(
    curve: Sequence[tuple[int, float]],
    *,
    measured: Sequence[tuple[int, float]] = (),
    y_label: str = "average job time (min)",
) -> str:
    """The predicted average job time against concurrent jobs; measured runs as dots."""
    y_ticks = _ticks(max([m for _, m in curve] + [m for _, m in measured]))
    plot = _Plot(x_max=max([n for n, _ in curve] + [n for n, _ in measured]), y_max=y_ticks[-1])
    body = _frame(plot, y_ticks)
    points = " ".join(f"{plot.x(n):.1f},{plot.y(m):.1f}" for n, m in curve)
    body.append(f"<polyline points='{points}' fill='none' stroke='{BLUE}' stroke-width='2'/>")
    for n, m in measured:
        body.append(f"<circle cx='{plot.x(n):.1f}' cy='{plot.y(m):.1f}' r='4' fill='{RED}'/>")
    body.append(_text((plot.left + plot.right) / 2, plot.bottom + 30, "concurrent jobs", "middle"))
    body.append(_text(plot.left, 14, y_label))
    title = "Capacity curve: average job time against concurrent jobs"
    return _svg(plot.bottom + 38, body, title)
