"""A fleet shaped for its page, its API answers and its CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.db.models import QuerySet

from advisor.fleets import findings, group_labels, selectors
from advisor.models import Fleet, FleetItem, FleetSummary
from rules.derive import labels

CSV_COLUMNS = (
    "position", "label", "host", "status", "high", "medium", "low", "config_name",
    "config_key", "assessment_id", "problems", "os", "cpus", "ram_gb",
)  # fmt: skip
MAX_GROUPS = 50


def filtered(fleet: Fleet, params: Mapping[str, Any]) -> QuerySet[FleetItem]:
    return selectors.servers(
        fleet, q=str(params.get("q", ""))[:100], severity=str(params.get("severity", "")),
        group=str(params.get("group", ""))[:64], status=str(params.get("status", "")),
        sort=str(params.get("sort", "position")),
        positions=finding_positions(fleet, str(params.get("finding", ""))[:300]),
    )  # fmt: skip


def finding(fleet: Fleet, key: str) -> dict[str, Any] | None:
    return next((f for f in fleet_findings(fleet) if f["key"] == key), None) if key else None


def finding_positions(fleet: Fleet, key: str) -> list[int] | None:
    """The servers a finding affects (none for a finding the fleet does not have); None
    without a finding asked for."""
    if not key:
        return None
    found = finding(fleet, key)
    return findings.expand(found["positions"], fleet.total) if found else []


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
        "os": os_name(item), "cpus": getattr(item, "cpus", None),
        "ram_gb": getattr(item, "ram_gb", None),
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


def fleet_findings(fleet: Fleet) -> list[dict[str, Any]]:
    """The fleet by finding: as stored when it finished, or read from its servers' results
    (a fleet finished before findings were stored, or one still running)."""
    if fleet.status == Fleet.Status.DONE:
        try:
            stored: dict[str, Any] = fleet.stored_summary.data
        except FleetSummary.DoesNotExist:
            pass
        else:
            if "findings" in stored:
                found: list[dict[str, Any]] = stored["findings"]
                return found
    return findings.compute(fleet)


def compute_summary(fleet: Fleet) -> dict[str, Any]:
    """The summary from every server's settings: hundreds of milliseconds for a fleet of
    thousands, so computed once, when the fleet is done (services.fleet_finish)."""
    drift = selectors.drift(fleet)
    previous = drift["previous"]
    return {
        "groups": group_labels.labelled(fleet, selectors.groups(fleet)[:MAX_GROUPS]),
        "findings": findings.compute(fleet),
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
            [item.position, safe_cell(item.label), safe_cell(item.host), item.status, item.high,
             item.medium, item.low, item.config_name, item.config_key,
             item.assessment_id or "", safe_cell("; ".join(values["problems"])),
             os_name(item), _blank(getattr(item, "cpus", None)),
             _blank(getattr(item, "ram_gb", None))]
        )  # fmt: skip
        yield take()


def _blank(value: object) -> object:
    return "" if value is None else value


def safe_cell(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (CSV injection)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def os_name(item: FleetItem) -> str:
    """'RHEL 9.4', 'Windows Server 2022', 'AIX 7.2': the OS by its product name, from the
    columns `selectors.servers` reads with each server ('' for a server not advised)."""
    os = getattr(item, "os", None)
    if not os:
        return ""
    version = getattr(item, "os_version", "") or ""
    distribution, release = getattr(item, "distribution", None), getattr(item, "release_name", None)
    return labels.os_name(os, version, distribution, release)


def with_os_names(items: Iterable[FleetItem]) -> list[FleetItem]:
    """The page's servers, each with `os_name` for the template."""
    rows = list(items)
    for item in rows:
        item.os_name = os_name(item)  # type: ignore[attr-defined]
    return rows
