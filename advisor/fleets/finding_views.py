"""The fleet by finding: each warning and each setting to change, its severity, how many
servers it affects and links to them, sortable; and the same as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from advisor.core.downloads import as_attachment
from advisor.core.http import PageRequest
from advisor.fleets import findings, presenting, selectors
from advisor.models import Fleet, FleetItem

PAGE_SIZE = 100
SHOWN_SERVERS = 5  # linked in a finding's row; "all N servers" opens the filtered list
CSV_COLUMNS = ("#", "finding", "kind", "severity", "servers", "rule", "action", "hosts")


@login_required
@require_GET
def fleet_findings(request: PageRequest, pk: int) -> HttpResponse:
    fleet = selectors.fleet_with_summary_or_404(request.user, pk)
    sort = request.GET.get("sort", "count")
    context: dict[str, Any] = {"fleet": fleet, "sort": sort, "sorts": findings.SORTS}
    if sort not in findings.SORTS:
        context["error"] = f"sort: choose one of {', '.join(findings.SORTS)} (not {sort[:40]!r})."
        return render(request, "fleets/findings.html", context, status=400)
    if fleet.status != Fleet.Status.DONE:
        return render(request, "fleets/findings.html", context)
    found = findings.ordered(presenting.fleet_findings(fleet), sort)
    page = presenting.page_number(request.GET.get("page"))
    pages = max(1, -(-len(found) // PAGE_SIZE))
    page = min(page, pages)
    start = (page - 1) * PAGE_SIZE
    shown = found[start : start + PAGE_SIZE]
    context |= {
        "rows": _with_servers(fleet, shown, start),
        "count": len(found),
        "page": page,
        "pages": pages,
    }
    return render(request, "fleets/findings.html", context)


def _with_servers(fleet: Fleet, shown: list[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """Each finding with its number (from 1) and its first servers: one query for the page."""
    firsts = {id(f): findings.expand(f["positions"], SHOWN_SERVERS) for f in shown}
    wanted = {p for positions in firsts.values() for p in positions}
    servers = {
        row["position"]: row
        for row in FleetItem.objects.filter(fleet=fleet, position__in=wanted).values(
            "position", "host", "label", "assessment_id"
        )
    }
    return [
        f | {"number": start + n, "servers": [servers[p] for p in firsts[id(f)] if p in servers]}
        for n, f in enumerate(shown, start=1)
    ]


@login_required
@require_GET
def fleet_findings_csv(request: PageRequest, pk: int) -> HttpResponseBase:
    fleet = selectors.fleet_with_summary_or_404(request.user, pk)
    sort = request.GET.get("sort", "count")
    if sort not in findings.SORTS:
        text = f"sort: choose one of {', '.join(findings.SORTS)}.\n"
        return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
    if fleet.status != Fleet.Status.DONE:  # read from every result: only once it is done
        text = (
            f"The fleet is {fleet.status}: its findings are listed once every server is assessed.\n"
        )
        return HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")
    found = findings.ordered(presenting.fleet_findings(fleet), sort)
    response = StreamingHttpResponse(_csv_lines(fleet, found), content_type="text/csv")
    as_attachment(response, f"fleet-{fleet.pk}-findings.csv")
    return response


def _csv_lines(fleet: Fleet, found: list[dict[str, Any]]) -> Iterator[str]:
    hosts = dict(
        FleetItem.objects.filter(fleet=fleet).values_list("position", "host").iterator(2000)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for n, f in enumerate(found, start=1):
        names = [hosts.get(p) or f"#{p + 1}" for p in findings.expand(f["positions"], fleet.total)]
        writer.writerow(
            [n, safe(f["title"]), f["kind"], f["severity"], f["count"], safe(f["rule"]),
             safe(f["action"]), safe("; ".join(names))]
        )  # fmt: skip
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    if not found:
        yield buffer.getvalue()


def safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (CSV injection)."""
    return presenting.safe_cell(text)
