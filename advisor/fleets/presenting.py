"""A fleet shaped for its page, its API answers and its CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from typing import Any

from django.db.models import QuerySet

from advisor.fleets import selectors
from advisor.models import Fleet, FleetItem, FleetSummary

CSV_COLUMNS = (
    "position", "label", "host", "status", "high", "medium", "low", "config_name",
    "config_key", "assessment_id", "problems",
)  # fmt: skip
MAX_GROUPS = 50


def filtered(fleet: Fleet, params: Mapping[str, Any]) -> QuerySet[FleetItem]:
    return selectors.servers(
        fleet, q=str(params.get("q", ""))[:100], severity=str(params.get("severity", "")),
        group=str(params.get("group", ""))[:64], status=str(params.get("status", "")),
        sort=str(params.get("sort", "position")),
    )  # fmt: skip


def page_number(raw: Any) -> int:
    try:
        return max(1, min(int(str(raw)), 10_000))
    except (TypeError, ValueError):
        return 1


def row(item: FleetItem) -> dict[str, Any]:
    return {
        "position": item.position, "label": item.label, "host": item.host,
        "status": item.status, "warnings": {"high": item.high, "medium": item.medium,
                                            "low": item.low},
        "config_name": item.config_name, "config_key": item.config_key,
        "assessment": item.assessment_id, "problems": item.problems,
    }  # fmt: skip


def summary(fleet: Fleet) -> dict[str, Any]:
    """The groups, disagreements and drift: a finished fleet's as stored when it finished,
    a running one's computed from its servers."""
    if fleet.status == Fleet.Status.DONE:
        try:
            # One row by its key, or none: read with the fleet where the caller asked
            # (selectors.fleet_or_404's with_summary).
            stored: dict[str, Any] = fleet.stored_summary.data
        except FleetSummary.DoesNotExist:
            pass  # finished before summaries were stored, or the row was removed
        else:
            return stored
    return compute_summary(fleet)


def compute_summary(fleet: Fleet) -> dict[str, Any]:
    """The summary from every server's settings: hundreds of milliseconds for a fleet of
    thousands, so computed once, when the fleet is done (services.fleet_finish)."""
    drift = selectors.drift(fleet)
    previous = drift["previous"]
    return {
        "groups": selectors.groups(fleet)[:MAX_GROUPS],
        "disagreements": selectors.disagreements(fleet),
        "drift": {
            "previous": previous.pk if previous else None,
            "rules_versions": drift.get("rules"),
            "compared": drift["compared"], "changed": drift.get("changed", 0),
            "hosts": [
                {"host": h["host"], "changes": [
                    {"setting": s, "old": old, "new": new} for s, old, new in h["changes"]]}
                for h in drift["hosts"]
            ],
        },
    }  # fmt: skip


def csv_lines(items: QuerySet[FleetItem]) -> Iterator[str]:
    """The CSV a line at a time (a 10,000-server fleet streams, never sits in memory)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def take() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    writer.writerow(CSV_COLUMNS)
    yield take()
    for item in items.iterator(chunk_size=2000):
        values = row(item)
        writer.writerow(
            [item.position, _safe(item.label), _safe(item.host), item.status, item.high,
             item.medium, item.low, item.config_name, item.config_key,
             item.assessment_id or "", _safe("; ".join(values["problems"]))]
        )  # fmt: skip
        yield take()


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
