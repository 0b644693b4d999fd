"""A log's analysis shaped for its page: the timeline as SVG geometry, durations as text,
and what the bounded analysis leaves out said as counts."""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from typing import Any, NamedTuple

from advisor.models import JobLog
from rules.logs.findings import fmt

CHART_WIDTH = 640  # the bars' area in SVG units; labels sit left of it
ROW_HEIGHT = 18
MAX_ROWS = 40
MIN_SHARE = 0.01  # steps under 1 % of the job are summed, not drawn


class Listed(NamedTuple):
    """A stored log as the list shows it, read without its analysis; `state` says what a
    log not yet diagnosed is doing (empty once done)."""

    log: JobLog
    job: str
    state: str = ""


STATES: dict[str, str] = {
    JobLog.Status.QUEUED: "queued",
    JobLog.Status.RUNNING: "being read",
    JobLog.Status.FAILED: "failed",
}


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
    """Rows for the longest steps at their place in the job, CPU share shaded in; when no
    step reaches MIN_SHARE of the job (thousands of like steps), MAX_ROWS runs of them."""
    bars = analysis.get("timeline", [])
    total = sum(bar["real"] for bar in bars) or 1.0
    flagged = sorted({f["step"] for f in analysis.get("findings", []) if f.get("saving", 0) > 0})
    shown = sorted(
        (bar for bar in bars if bar["real"] >= MIN_SHARE * total),
        key=lambda bar: -bar["real"],
    )[:MAX_ROWS]
    shown.sort(key=lambda bar: bar["start"])
    hidden = [bar for bar in bars if bar not in shown]
    if not shown and bars:
        shown, hidden = _runs(bars, MAX_ROWS), []
    rows = [_row(index, bar, total, flagged) for index, bar in enumerate(shown)]
    return {
        "rows": rows,
        "height": max(1, len(rows)) * ROW_HEIGHT + 24,
        "width": CHART_WIDTH,
        "hidden_count": sum(bar.get("steps", 1) for bar in hidden),
        "hidden_time": fmt(sum(bar["real"] for bar in hidden)),
        "total": fmt(total),
        "axis_y": max(1, len(rows)) * ROW_HEIGHT + 14,
    }


def _row(index: int, bar: dict[str, Any], total: float, flagged: list[int]) -> Bar:
    last = bar["step"] + bar.get("steps", 1) - 1
    at = bisect.bisect_left(flagged, bar["step"])  # a finding on any step the bar holds
    return Bar(
        bar["step"],
        bar["name"] if "steps" in bar else f"{bar['step']} {bar['name']}",
        index * ROW_HEIGHT,
        bar["start"] / total * CHART_WIDTH,
        max(1.0, bar["real"] / total * CHART_WIDTH),
        max(0.0, min(bar["cpu"], bar["real"]) / total * CHART_WIDTH),
        fmt(bar["real"]),
        at < len(flagged) and flagged[at] <= last,
    )


def _runs(bars: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """Consecutive bars joined into at most `count` runs."""
    size = -(-len(bars) // count)
    runs = []
    for at in range(0, len(bars), size):
        group = bars[at : at + size]
        first, steps = group[0]["step"], sum(bar.get("steps", 1) for bar in group)
        runs.append(
            {
                "step": first,
                "name": f"steps {first}-{first + steps - 1}",
                "steps": steps,
                "start": group[0]["start"],
                "real": sum(bar["real"] for bar in group),
                "cpu": sum(bar["cpu"] for bar in group),
            }
        )
    return runs


def duration(value: float | None) -> str:
    return "—" if value is None else fmt(value)


def unshown(analysis: dict[str, Any]) -> dict[str, Any]:
    """What the page does not list: steps past the top ones, findings past the largest
    of each kind (analyses stored before the bound have neither key)."""
    omitted = [
        row | {"saving": fmt(row["saving_seconds"]), "count_text": f"{row['count']:,}"}
        for row in analysis.get("findings_omitted", [])
    ]
    steps = max(0, analysis["step_count"] - len(analysis["top_steps"]))
    return {
        "steps": steps,
        "steps_text": f"{steps:,}",
        "findings": omitted,
        "procedures": [
            row | {"real_text": fmt(row["real"]), "cpu_text": fmt(row["cpu"])}
            for row in analysis.get("procedures", [])
        ],
    }


def listed(logs: Iterable[JobLog]) -> list[Listed]:
    return [Listed(log, fmt(log.job_seconds), STATES.get(log.status, "")) for log in logs]
