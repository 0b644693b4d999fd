"""The fleet report: the fleet's summary for a client, as a PDF built on a worker.

Requested like an assessment's report (queued on commit); the build is idempotent, so a
redelivered task finishes a report whose worker died, and a done report stays done. Its
attempts, time limits and sweep are the assessment report's (advisor/core/lifecycle.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils import timezone

from advisor.core import lifecycle
from advisor.fleets import presenting, selectors
from advisor.models import Fleet, FleetItem, FleetReport
from advisor.reports.pdf import html_to_pdf
from advisor.reports.services import OPEN, STALE_QUEUED_S, check_report_budget

TOP_SERVERS = 50
TOP_FINDINGS = 30  # the findings affecting the most servers; the page and CSV have them all


def fleet_report_request(*, fleet: Fleet, user: User) -> FleetReport:
    """A new report, or the one already queued or running for this fleet (joined).
    Raises TooManyReports past the organisation's limit of reports waiting."""
    with transaction.atomic():
        open_one = fleet.reports.filter(status__in=OPEN).first()
        if open_one is not None:
            return open_one
        check_report_budget(fleet.organisation_id)
        report = FleetReport.objects.create(fleet=fleet, created_by=user)
        enqueue(report.pk)
    return report


def report_context(fleet: Fleet) -> dict[str, Any]:
    done = FleetItem.objects.filter(fleet=fleet, status=FleetItem.Status.DONE)
    totals = done.aggregate(high=Sum("high"), medium=Sum("medium"), low=Sum("low"))
    summary = presenting.summary(fleet)
    top = presenting.with_os_names(
        selectors.servers(fleet, status="done", sort="high")[:TOP_SERVERS]
    )
    # A server's configuration by its group's name (what sets it apart), not its hash.
    named = {g["config_key"]: ", ".join(f"{s} {v}" for s, v in g.get("differs", []))
             for g in summary["groups"]}  # fmt: skip
    for item in top:
        item.group_name = named.get(item.config_key, "")  # type: ignore[attr-defined]
    return {
        "fleet": fleet,
        "organisation": fleet.organisation.name,
        "progress": selectors.progress(fleet),
        "totals": {k: v or 0 for k, v in totals.items()},
        "summary": summary,
        "findings": presenting.fleet_findings(fleet)[:TOP_FINDINGS],
        "top": top,
        "failed": selectors.servers(fleet, status="failed")[:TOP_SERVERS],
        "generated": timezone.now(),
    }


def fleet_report_build(*, report_id: int) -> FleetReport:
    report = lifecycle.start(FleetReport, report_id)
    if report is None:  # done, failed, or out of attempts
        return FleetReport.objects.get(pk=report_id)
    fleet = Fleet.objects.select_related("organisation").get(pk=report.fleet_id)
    html = render_to_string("fleets/report.html", report_context(fleet))
    pdf = html_to_pdf(html)
    report.pdf_file.save(f"fleet-report-{report_id}.pdf", ContentFile(pdf), save=False)
    lifecycle.finish(FleetReport, report_id, pdf_file=report.pdf_file.name)
    report.refresh_from_db()
    return report


def fleet_report_fail(*, report_id: int, error: str) -> None:
    lifecycle.fail(FleetReport, report_id, error)


def enqueue(report_id: int) -> None:
    from advisor.fleets.tasks import build_fleet_report

    # robust: a broker that is down must not fail the request; the sweep queues it later.
    transaction.on_commit(lambda: build_fleet_report.delay(report_id=report_id), robust=True)


def requeue_stuck_reports(*, now: datetime | None = None) -> list[int]:
    """The sweep of fleet reports (run with the reports' sweep): queued ones whose message
    was lost, running ones whose worker is gone; one out of attempts fails instead."""
    return lifecycle.sweep(FleetReport, enqueue, stale_queued_s=STALE_QUEUED_S, now=now)
