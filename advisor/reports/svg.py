"""The drawing primitives of the charts (advisor/reports/charts.py, curve.py): hand-written
SVG text, colours, legends. Text, axes and grid lines are `currentColor`, readable in
light and dark pages and black in the PDF; coloured marks are mid tones.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

WIDTH = 640
FONT = "font-family='DejaVu Sans, sans-serif' font-size='11'"
INK = "fill='currentColor'"
GREEN, AMBER, RED, BLUE, GREY = "#2e7d32", "#f9a825", "#d03b2f", "#2f7dc0", "#757575"
MARK = "#c25e00"  # the sessions marker: orange, apart from the curve's blue and dots' red
RUNQ_GREEN_PER_CPU = 2  # chew, quoting Cockcroft: RunQ per CPU up to 2 is green
RUNQ_AMBER_PER_CPU = 5  # up to 5 amber, above red
ROLE_COLOURS = {
    "data": "#1f5f99", "work": "#e65100", "utilloc": "#ef6c00", "spds_data": "#283593",
    "spds_index": "#5e35b1", "spds_meta": "#00838f", "spds_work": "#ad1457", "other": GREY,
}  # fmt: skip
CHAR_PX = 6.4  # a character's width at 11 px, near enough to lay out legend entries
MAX_POINT_LABELS = 8  # more measured points than this are listed in the description only


def svg(height: float, body: Sequence[str], title: str, desc: str = "") -> str:
    described = f"<desc>{escape(desc)}</desc>" if desc else ""
    return (
        f"<svg xmlns='http://www.w3.org/2000/svg' class='chart' role='img' "
        f"viewBox='0 0 {WIDTH} {height:.0f}' width='{WIDTH}' height='{height:.0f}' {FONT}>"
        f"<title>{escape(title)}</title>{described}{''.join(body)}</svg>"
    )


def text(x: float, y: float, words: str, anchor: str = "start", extra: str = INK) -> str:
    return f"<text x='{x:.1f}' y='{y:.1f}' text-anchor='{anchor}' {extra}>{escape(words)}</text>"


def bar(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return (
        f"<rect x='{x:.1f}' y='{y:.1f}' width='{max(w, 0.5):.1f}' height='{h}' "
        f"fill='{fill}' {extra}/>"
    )


def line(x1: float, y1: float, x2: float, y2: float, extra: str = "stroke='currentColor'") -> str:
    return f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' {extra}/>"


def on(fill: str) -> str:
    """Text colour for a label inside a bar of this fill: dark on amber, else white."""
    return "fill='#1a1a1a'" if fill == AMBER else "fill='white'"


# A legend entry: the kind of swatch ("box", "band", "line", "dash", "dot"), its colour,
# and the words that say what it stands for (never colour alone).
Entry = tuple[str, str, str]


def swatch(kind: str, colour: str, x: float, y: float) -> str:
    """A legend's sample mark, drawn as a <path> so that counting a chart's <rect> and
    <circle> elements still counts its bars and measured points."""
    if kind == "dot":
        return (
            f"<path d='M {x + 4:.1f} {y - 4:.1f} a4 4 0 1 0 8 0 a4 4 0 1 0 -8 0' fill='{colour}'/>"
        )
    if kind in ("line", "dash"):
        dash = " stroke-dasharray='5 3'" if kind == "dash" else ""
        return f"<path d='M {x:.1f} {y - 4:.1f} h16' stroke='{colour}' stroke-width='2'{dash}/>"
    band = " fill-opacity='0.25' stroke='currentColor' stroke-opacity='0.3'" * (kind == "band")
    return f"<path d='M {x + 2:.1f} {y - 10:.1f} h12 v12 h-12 z' fill='{colour}'{band}/>"


def legend(entries: Sequence[Entry], top: float) -> tuple[list[str], float]:
    """Entries laid out left to right, wrapping; returns the SVG and the height used."""
    body, x, y = ["<g class='legend'>"], 8.0, top + 12
    for kind, colour, words in entries:
        width = 22 + len(words) * CHAR_PX + 16
        if x > 8 and x + width > WIDTH:
            x, y = 8.0, y + 18
        body += [swatch(kind, colour, x, y), text(x + 22, y, words)]
        x += width
    return [*body, "</g>"], y - top + 8


def label_after_bar(left: float, width: float, span: float, y: float, words: str, fill: str) -> str:
    """A value label right of its bar, or inside it when the bar fills the plot."""
    if width > span * 0.8:
        return text(left + width - 6, y, words, "end", on(fill))
    return text(left + width + 4, y, words)
