"""Report writes: request a report (queued on commit), build it on a worker, mark failures.

`report_build` is idempotent so a redelivered task finishes the job: a worker that dies
mid-build leaves the report `running` and its message unacknowledged (acks_late), Redis
hands the message to the next worker after the visibility timeout, and that worker builds
the report again from the start. A `done` report is never rebuilt; how often a build is
tried before it fails with the reason is advisor/core/lifecycle.py's.
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.files.base import ContentFile
from django.db import transaction
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from advisor.core import lifecycle
from advisor.core.errors import Busy
from advisor.models import Assessment, FleetReport, Report
from advisor.reports.content import report_context
from advisor.reports.options import ReportOptions
from advisor.reports.pdf import html_to_pdf
from advisor.reports.tasks import build_report

log = logging.getLogger(__name__)

STUCK_AFTER_S = lifecycle.STALLED_AFTER_S  # running this long: its worker is gone
# Queued this long: the message was lost (e.g. Redis flushed). A duplicate of a message
# that was only slow is harmless: a build skips a report that is done.
STALE_QUEUED_S = 5 * 60
RETRY_AFTER_S = 30
OPEN = (Report.Status.QUEUED, Report.Status.RUNNING)
ERROR_MAX_CHARS = lifecycle.ERROR_MAX_CHARS


def _enqueue(report_id: int) -> None:
    # robust: a broker that is down must not fail the request; the sweep queues it later.
    transaction.on_commit(lambda: build_report.delay(report_id), robust=True)


class TooManyReports(Busy):
    """The organisation has REPORTS_OPEN_PER_ORGANISATION reports queued or running."""

    retry_after = RETRY_AFTER_S

    def __init__(self, open_count: int) -> None:
        super().__init__(
            f"{open_count} reports of this organisation are queued or being built; "
            f"try again in {RETRY_AFTER_S} s"
        )


def check_report_budget(organisation_id: int) -> None:
    """Raise TooManyReports when the organisation's queued and running reports (of
    assessments and of fleets together) have reached the limit."""
    found = (
        Report.objects.filter(status__in=OPEN, assessment__organisation_id=organisation_id).count()
        + FleetReport.objects.filter(
            status__in=OPEN, fleet__organisation_id=organisation_id
        ).count()
    )
    if found >= settings.REPORTS_OPEN_PER_ORGANISATION:
        raise TooManyReports(found)


def report_request(
    *, assessment: Assessment, user: User, options: ReportOptions | None = None
) -> Report:
    """The report queued or being built for this assessment (a second request joins it,
    and its options are those of the report it joins), or a new one with `options`
    queued once its row is committed. Raises TooManyReports when the organisation already
    has its limit of reports waiting, so one client cannot fill the workers' queue."""
    with transaction.atomic():
        # The assessment row, locked, orders concurrent requests for it: one creates, the
        # others find its report.
        Assessment.objects.select_for_update().filter(pk=assessment.pk).first()
        open_reports = Report.objects.filter(status__in=OPEN)
        joined = open_reports.filter(assessment=assessment).first()
        if joined is not None:
            return joined
        check_report_budget(assessment.organisation_id)
        chosen = asdict(options or ReportOptions())
        report = Report.objects.create(assessment=assessment, created_by=user, **chosen)
        _enqueue(report.pk)
    return report


def requeue_stuck(*, now: datetime | None = None) -> list[int]:
    """Queue again reports whose worker died or whose message was lost; one that has had
    its attempts fails with the reason. Run by the workers' periodic sweep
    (advisor.reports.tasks.sweep_reports), not by requests."""
    # _enqueue looked up at each call, so a test can stand in for the broker.
    return lifecycle.sweep(Report, lambda pk: _enqueue(pk), stale_queued_s=STALE_QUEUED_S, now=now)


def report_css() -> SafeString:
    """static/advisor/report.css, which the report page links and the PDF holds inline
    (the PDF fetches nothing)."""
    found = finders.find("advisor/report.css")
    if not isinstance(found, str):
        raise RuntimeError("static/advisor/report.css is missing")
    return mark_safe(Path(found).read_text(encoding="utf-8"))  # our own file


def render_report_html(assessment: Assessment, report: Report | None = None) -> str:
    """The self-contained HTML the PDF is made from; `report` gives its options and date
    (without one: the default options, dated today)."""
    context = {**report_context(assessment, report), "report_css": report_css()}
    return render_to_string("reports/document.html", context)


def report_build(*, report_id: int) -> Report:
    """Build the HTML and PDF and mark the report done; a done or failed report is left as
    it is, and one out of attempts fails (lifecycle.start)."""
    report = lifecycle.start(Report, report_id)
    if report is None:
        return Report.objects.get(pk=report_id)
    assessment = Assessment.objects.select_related("organisation").get(pk=report.assessment_id)
    html = render_report_html(assessment, report)
    pdf = html_to_pdf(html)
    # Files first, then the row that names them: a worker killed in between leaves files
    # no row points at, never a row pointing at nothing.
    report.html_file.save(f"report-{report_id}.html", ContentFile(html.encode()), save=False)
    report.pdf_file.save(f"report-{report_id}.pdf", ContentFile(pdf), save=False)
    lifecycle.finish(
        Report, report_id, html_file=report.html_file.name, pdf_file=report.pdf_file.name
    )
    report.refresh_from_db()
    return report


def report_fail(*, report_id: int, error: str) -> None:
    """Record a build that will not be retried; a report already done stays done."""
    lifecycle.fail(Report, report_id, error)
