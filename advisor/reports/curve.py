"""The capacity curve: predicted average job time against concurrent jobs, with the measured
runs labelled, the extrapolated part dashed and this server's session count marked. Drawn
with the primitives of advisor/reports/svg.py; advisor/reports/charts.py re-exports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from advisor.reports import svg
from advisor.reports.svg import BLUE, CHAR_PX, MARK, MAX_POINT_LABELS, RED, WIDTH, Entry


def tick_label(value: float) -> str:
    """'0.25', '40', '1,250,000': never '1.25e+06', which reads as a typo on an axis."""
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.6f}".rstrip("0").rstrip(".") if value else "0"


def _ticks(top: float, count: int = 5) -> list[float]:
    raw = top / count
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 0.1
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return [step * i for i in range(int(top / step) + 2)]


def job_ticks(x_max: int, count: int = 8) -> list[int]:
    """Whole-number ticks from 1 to x_max: 1 and the multiples of a 1-2-5 step, so an
    axis that counts jobs or sessions never shows 2.5 of one."""
    raw = max(x_max - 1, 1) / count
    step = next(m * 10**e for e in range(12) for m in (1, 2, 5) if m * 10**e >= raw)
    return sorted({1, *range(step, x_max + 1, step)})


@dataclass(frozen=True)
class _Plot:
    """The capacity plot's area: concurrent jobs (from 1) across, minutes up."""

    x_max: int
    y_max: float
    left: int = 56
    right: int = WIDTH - 24
    top: int = 40
    bottom: int = 222

    def x(self, jobs: float) -> float:
        return self.left + (jobs - 1) / max(self.x_max - 1, 1) * (self.right - self.left)

    def y(self, minutes: float) -> float:
        return self.bottom - minutes / self.y_max * (self.bottom - self.top)


def _frame(plot: _Plot, y_ticks: Sequence[float]) -> list[str]:
    """Both axes, a grid line and label per minute tick, a tick and label per job tick."""
    left, right, top, bottom = plot.left, plot.right, plot.top, plot.bottom
    body = [svg.line(left, bottom, right, bottom), svg.line(left, top, left, bottom)]
    grid = "stroke='currentColor' stroke-opacity='0.15'"
    for t in y_ticks:
        body.append(svg.line(left, plot.y(t), right, plot.y(t), grid))
        body.append(svg.text(left - 4, plot.y(t) + 4, tick_label(t), "end"))
    body.append("<g class='x-ticks'>")
    for n in job_ticks(plot.x_max):
        body.append(svg.line(plot.x(n), bottom, plot.x(n), bottom + 4))
        body.append(svg.text(plot.x(n), bottom + 15, tick_label(n), "middle"))
    return [*body, "</g>"]


def _points(plot: _Plot, curve: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{plot.x(n):.1f},{plot.y(m):.1f}" for n, m in curve)


def _at(curve: Sequence[tuple[float, float]], jobs: float) -> float:
    """The curve's value at `jobs` (or a pixel line's y at x), read between the two nearest
    points."""
    before = max(((n, m) for n, m in curve if n <= jobs), default=curve[0])
    after = min(((n, m) for n, m in curve if n >= jobs), default=curve[-1])
    if after[0] == before[0]:
        return before[1]
    return before[1] + (after[1] - before[1]) * (jobs - before[0]) / (after[0] - before[0])


def _curve_lines(plot: _Plot, curve: Sequence[tuple[int, float]], upto: int | None) -> list[str]:
    """The curve: solid up to `upto` jobs (the measured range), dashed beyond it."""
    solid = "fill='none' stroke='" + BLUE + "' stroke-width='2'"
    if upto is None or upto >= curve[-1][0]:
        return [f"<polyline points='{_points(plot, curve)}' {solid}/>"]
    edge = (upto, _at(curve, upto))
    inside = [p for p in curve if p[0] < upto] + [edge]
    beyond = [edge] + [p for p in curve if p[0] > upto]
    dashed = "M " + _points(plot, beyond).replace(" ", " L ")
    return [
        f"<polyline points='{_points(plot, inside)}' {solid}/>",
        f"<path class='extrapolated' d='{dashed}' {solid} stroke-dasharray='6 4'/>",
    ]


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels
# Label offsets to try, nearest first; the further ones (up and clear of a steep curve)
# get a leader line back to their dot.
SPOTS = ((8, 16), (-8, -8), (8, -8), (-8, 16), *((8, -8 - 16 * k) for k in range(1, 8)))


def _clear(box: Box, plot: _Plot, line: Sequence[tuple[float, float]], taken: list[Box]) -> bool:
    """Inside the plot, off every label already placed, and not crossed by the curve."""
    x0, y0, x1, y1 = box
    if x0 < plot.left or x1 > plot.right or y0 < plot.top or y1 > plot.bottom:
        return False
    if any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in taken):
        return False
    ys = [_at(line, x) for x in (x0, x1)] + [y for x, y in line if x0 <= x <= x1]
    return not (min(ys) < y1 and max(ys) > y0)


def _measured_dots(
    plot: _Plot,
    measured: Sequence[tuple[int, float]],
    line: Sequence[tuple[float, float]],
    unit: str,
) -> list[str]:
    """A dot per measured run, labelled '4 jobs: 12.5 min' at the first spot around it
    that neither the curve nor another label covers."""
    body: list[str] = []
    taken: list[Box] = []
    for n, m in sorted(measured):
        x, y = plot.x(n), plot.y(m)
        body.append(f"<circle class='measured' cx='{x:.1f}' cy='{y:.1f}' r='4' fill='{RED}'/>")
        if len(measured) > MAX_POINT_LABELS:
            continue
        words = f"{n} job{'s' * (n != 1)}: {m:,.1f} {unit}"
        width = len(words) * CHAR_PX
        boxes = [
            (x + dx - width * (dx < 0), y + dy - 10, x + dx + width * (dx > 0), y + dy + 2)
            for dx, dy in SPOTS
        ]
        box = next((b for b in boxes if _clear(b, plot, line, taken)), boxes[0])
        taken.append(box)
        if box[3] < y - 20:
            leader = "stroke='currentColor' stroke-opacity='0.5'"
            body.append(svg.line(x + 3, y - 3, box[0] - 1, box[3] - 3, leader))
        body.append(svg.text(box[0], box[3] - 2, words))
    return body


def _sessions_mark(plot: _Plot, sessions: int) -> list[str]:
    """A dashed vertical line at the server's own session count, labelled in words."""
    x = plot.x(sessions)
    words = f"this server: {sessions} session{'s' * (sessions != 1)}"
    anchor, dx = ("end", -4) if x > plot.right - len(words) * CHAR_PX else ("start", 4)
    stroke = f"stroke='{MARK}' stroke-width='2' stroke-dasharray='3 3'"
    return [
        f"<g class='sessions-mark' data-sessions='{sessions}'>",
        svg.line(x, plot.top - 8, x, plot.bottom, stroke),
        svg.text(x + dx, plot.top - 10, words, anchor),
        "</g>",
    ]


def capacity_curve(
    curve: Sequence[tuple[int, float]],
    *,
    measured: Sequence[tuple[int, float]] = (),
    y_label: str = "average job time (min)",
    sessions_mark: int | None = None,
    measured_up_to: int | None = None,
    unit: str = "min",
) -> str:
    """The predicted average job time against concurrent jobs; measured runs as labelled
    dots, the curve dashed past `measured_up_to` jobs (extrapolated), and the server's own
    peak session count as a labelled vertical line (`sessions_mark`)."""
    y_ticks = _ticks(max([m for _, m in curve] + [m for _, m in measured]) or 1.0)
    x_max = max([n for n, _ in curve] + [n for n, _ in measured] + [sessions_mark or 1, 2])
    plot = _Plot(x_max=int(x_max), y_max=y_ticks[-1])
    body = _frame(plot, y_ticks) + _curve_lines(plot, curve, measured_up_to)
    line = [(plot.x(n), plot.y(m)) for n, m in curve]
    body += _measured_dots(plot, measured, line, unit)
    if sessions_mark is not None:
        body += _sessions_mark(plot, sessions_mark)
    body.append(
        svg.text((plot.left + plot.right) / 2, plot.bottom + 32, "concurrent jobs", "middle")
    )
    body.append(svg.text(plot.left, 14, y_label))
    entries = _curve_legend(measured, sessions_mark, measured_up_to, curve[-1][0])
    legend, extra = svg.legend(entries, plot.bottom + 40) if len(entries) > 1 else ([], 0.0)
    title = "Capacity curve: average job time against concurrent jobs"
    desc = _curve_desc(curve, measured, sessions_mark, unit)
    return svg.svg(plot.bottom + 40 + extra, body + legend, title, desc)


def _curve_legend(
    measured: Sequence[tuple[int, float]], sessions: int | None, upto: int | None, last: int
) -> list[Entry]:
    entries: list[Entry] = [("line", BLUE, "predicted")]
    if upto is not None and upto < last:
        entries.append(("dash", BLUE, f"extrapolated past {upto} job{'s' * (upto != 1)}"))
    if measured:
        entries.append(("dot", RED, "measured run"))
    if sessions is not None:
        entries.append(("dash", MARK, "this server's peak SAS sessions"))
    return entries


def _curve_desc(
    curve: Sequence[tuple[int, float]],
    measured: Sequence[tuple[int, float]],
    sessions: int | None,
    unit: str,
) -> str:
    (n0, m0), (n1, m1) = curve[0], curve[-1]
    parts = [f"Predicted: {m0:,.1f} {unit} at {n0} job, {m1:,.1f} {unit} at {n1} jobs."]
    if measured:
        runs = ", ".join(f"{n} jobs {m:,.1f} {unit}" for n, m in sorted(measured))
        parts.append(f"Measured: {runs}.")
    if sessions is not None:
        parts.append(f"This server's peak: {sessions} SAS sessions.")
    return " ".join(parts)
