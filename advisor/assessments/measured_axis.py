"""The measured chart's axis labels, laid out so that none overlaps another.

SAS's band edges (100 and 150 MB/s per core) are always labelled, outside the band; the
axis's end only where its number stands clear of the band's top; the unit, "MB/s per core",
once, right of the axis over the figures' column, so no number runs into it (a 200 MB/s
per core axis once printed "200 MB/s per core" over "150": "20015MB/s per core" on the page
and in the PDF).
Widths are estimated from the font's size: DejaVu Sans's digits and most letters are at
most 0.64 em wide.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

FONT = 11  # the SVG's font-size
CHAR_W = 0.64 * FONT  # the widest digit of DejaVu Sans, at FONT
GAP = 8  # the least space between two labels
PAD = 2  # between a band edge's line and its number
UNIT = "MB/s per core"

Anchor = Literal["start", "middle", "end"]


@dataclass(frozen=True)
class Tick:
    x: float
    text: str
    anchor: Anchor

    @property
    def width(self) -> float:
        return len(self.text) * CHAR_W

    @property
    def left(self) -> float:
        shift = {"start": 0.0, "middle": self.width / 2, "end": self.width}[self.anchor]
        return self.x - shift

    @property
    def right(self) -> float:
        return self.left + self.width


def ticks(
    plot_x: float, plot_w: float, scale: int, band: tuple[int, int], unit_x: float
) -> list[Tick]:
    """The labels over an axis from `plot_x` (0) to `plot_x + plot_w` (`scale`), left to
    right: the band's edges, the axis's end where there is room, and the unit."""

    axis_end = round(plot_x + plot_w, 1)

    def x(value: int) -> float:
        return round(plot_x + min(value, scale) / scale * plot_w, 1)

    low, high = band
    # The band's bottom ends left of its line, its top starts right of its own (or ends at
    # the axis's end where it would run past it): the band lies between the two numbers.
    top = Tick(x(high) + PAD, str(high), "start")
    if top.right > axis_end:
        top = Tick(axis_end, str(high), "end")
    found = [Tick(x(low) - PAD, str(low), "end"), top]
    end = Tick(axis_end, str(scale), "end")
    if scale > band[1] and end.left >= found[-1].right + GAP:
        found.append(end)
    unit = Tick(unit_x, UNIT, "start")
    return [*found, unit] if unit.left >= found[-1].right + GAP else found


def apart(found: list[Tick]) -> bool:
    """Whether each label ends at least GAP before the next begins."""
    return all(a.right + GAP <= b.left for a, b in itertools.pairwise(found))
