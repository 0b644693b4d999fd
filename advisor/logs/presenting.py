"""A log's analysis shaped for its page: the timeline as SVG geometry, durations as text."""

from __future__ import annotations

from typing import Any, NamedTuple

from rules.logs.findings import fmt

CHART_WIDTH = 640  # the bars' area in SVG units; labels sit left of it
ROW_HEIGHT = 18
MAX_ROWS = 40
MIN_SHARE = 0.01  # steps under 1 % of the job are summed, not drawn


class Bar(NamedTuple):
    step: int
    label: str
    y: int
    x: float
    width: float
    cpu_width: float
    duration: str
    flagged: bool


def chart(analysis: dict[str, Any]) -> dict[str, Any]:
    """Rows for the longest steps at their place in the job, CPU share shaded in."""
    bars = analysis.get("timeline", [])
    total = sum(bar["real"] for bar in bars) or 1.0
    flagged = {f["step"] for f in analysis.get("findings", []) if f.get("saving", 0) > 0}
    shown = sorted(
        (bar for bar in bars if bar["real"] >= MIN_SHARE * total),
        key=lambda bar: -bar["real"],
    )[:MAX_ROWS]
    shown.sort(key=lambda bar: bar["start"])
    rows = [
        Bar(
            bar["step"],
            f"{bar['step']} {bar['name']}",
            index * ROW_HEIGHT,
            bar["start"] / total * CHART_WIDTH,
            max(1.0, bar["real"] / total * CHART_WIDTH),
            max(0.0, min(bar["cpu"], bar["real"]) / total * CHART_WIDTH),
            fmt(bar["real"]),
            bar["step"] in flagged,
        )
        for index, bar in enumerate(shown)
    ]
    hidden = [bar for bar in bars if bar not in shown]
    return {
        "rows": rows,
        "height": max(1, len(rows)) * ROW_HEIGHT + 24,
        "width": CHART_WIDTH,
        "hidden_count": len(hidden),
        "hidden_time": fmt(sum(bar["real"] for bar in hidden)),
        "total": fmt(total),
        "axis_y": max(1, len(rows)) * ROW_HEIGHT + 14,
    }


def duration(value: float | None) -> str:
    return "—" if value is None else fmt(value)
