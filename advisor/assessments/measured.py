"""Measured storage throughput as the result page, the report and verify draw it.

`rules.measured.bars` decides every figure and verdict (read and write MB/s per core in use
against SAS's 100–150 MB/s per core); this module only lays them out: a row per file
system of the inline SVG chart in assessments/_measured_chart.html (coordinates in the
SVG's own units), its axis labels (`measured_axis`), and the rows of the table that gives
the same figures in words. Verify's before → after per mount point is
`rules.measured_verify`'s, shared with the API and the command line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from advisor.assessments.measured_axis import Tick, ticks
from rules.measured import Bar, Direction
from rules.measured_verify import BeforeAfter, before_after, directions, inventory_bars

__all__ = ["BeforeAfter", "Chart", "before_after", "chart", "chart_of", "directions"]

# The SVG's layout, in its own units (it scales to the width it is given).
WIDTH = 640
LABEL_W = 64  # "read", "write" left of the bars
PLOT_W = 340  # the bars' axis, 0 … scale MB/s per core
FIGURE_X = LABEL_W + PLOT_W + 14  # the figures right of the axis
TITLE_H = 20  # a file system's name line
BAR_H = 14
BAR_GAP = 6
AXIS_Y = 16  # where the band and the marker start, under the axis labels
TOP = 22  # the first row's top
ROW_GAP = 12
# The axis ends at most here, 4 × the band's top, so the band stays readable next to a
# figure read back from the page cache (thousands of MB/s per core); a longer bar is drawn
# to the end with an arrow, and its figure is written beside it.
SCALE_MAX = 600


@dataclass(frozen=True)
class Line:
    """One direction's bar: its label, figures and verdict, and where it is drawn."""

    label: str  # "read", "write", or "lower" (of the two, when not measured apart)
    figure: Direction
    y: float
    width: float  # the bar's length in SVG units
    clipped: bool  # longer than the axis: drawn to its end, with an arrow

    @property
    def text_y(self) -> float:
        return self.y + BAR_H - 3

    @property
    def arrow(self) -> str:
        """The points of the arrow at a clipped bar's end."""
        x = LABEL_W + PLOT_W
        return f"{x},{self.y - 2} {x + 8},{self.y + BAR_H / 2} {x},{self.y + BAR_H + 2}"

    @property
    def words(self) -> str:
        return "lower of read and write" if self.label == "lower" else self.label

    @property
    def css(self) -> str:
        return self.figure.verdict.replace(" ", "-")  # short, in-band, above-band, may-be-cache

    @property
    def drawn(self) -> str:
        """The verdict beside the bar: a cached read's words are too long for the SVG, so
        its name line says the read may be the page cache's, and this "not judged"."""
        return "not judged" if self.figure.verdict == "may be cache" else self.figure.words


@dataclass(frozen=True)
class Row:
    bar: Bar
    y: float  # the name line's baseline
    lines: list[Line]


@dataclass(frozen=True)
class Chart:
    rows: list[Row]
    height: float
    scale: int  # MB/s per core at the axis's right end
    band_x: float  # where 100 MB/s per core is drawn
    band_w: float  # 100 … 150
    cores: int

    @property
    def band(self) -> tuple[int, int]:
        return self.rows[0].bar.band

    @property
    def clipped(self) -> bool:
        return any(line.clipped for row in self.rows for line in row.lines)

    @property
    def band_h(self) -> float:
        return self.height - AXIS_Y

    @property
    def plot_x(self) -> int:
        return LABEL_W

    @property
    def figure_x(self) -> int:
        return FIGURE_X

    @property
    def axis_end(self) -> int:
        return LABEL_W + PLOT_W

    @property
    def ticks(self) -> list[Tick]:
        """The axis's labels, none overlapping another (advisor.assessments.measured_axis)."""
        return ticks(LABEL_W, PLOT_W, self.scale, self.band, FIGURE_X)


def _scale(found: list[Bar]) -> int:
    """The axis's end: past the band and the largest figure, rounded up to 50."""
    top = max(d.per_core for b in found for _, d in directions(b))
    return min(SCALE_MAX, max(200, math.ceil(top * 1.05 / 50.0) * 50))


def _x(per_core: float, scale: int) -> float:
    return round(min(per_core, scale) / scale * PLOT_W, 1)


def chart_of(found: list[Bar]) -> Chart | None:
    """The SVG's layout of `found`; None when nothing was measured."""
    if not found:
        return None
    scale = _scale(found)
    rows: list[Row] = []
    y = float(TOP)
    for bar in found:
        lines = []
        for i, (label, d) in enumerate(directions(bar)):
            at = y + TITLE_H + i * (BAR_H + BAR_GAP)
            lines.append(Line(label, d, at, _x(d.per_core, scale), d.per_core > scale))
        rows.append(Row(bar, y + TITLE_H - 6, lines))
        y += TITLE_H + len(lines) * (BAR_H + BAR_GAP) + ROW_GAP
    low, high = found[0].band
    band_x = LABEL_W + _x(low, scale)
    return Chart(rows, y, scale, band_x, LABEL_W + _x(high, scale) - band_x, found[0].cores)


def chart(document: Any) -> Chart | None:
    """The chart of a stored inventory's measured file systems, or None."""
    return chart_of(inventory_bars(document))
