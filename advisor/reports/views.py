"""Report pages (htmx): thin views over the services and selectors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from advisor.assessments.selectors import assessment_or_404
from advisor.core.downloads import stored_file
from advisor.core.errors import Busy, busy_page
from advisor.core.http import PageRequest
from advisor.models import Assessment, Report
from advisor.reports import selectors, services
from advisor.reports.options import ReportOptionsForm

HTMX_STOP_POLLING = 286  # htmx stops polling on this status
PANEL = "reports/assessment_panel.html"
FINISHED = (Report.Status.DONE, Report.Status.FAILED)


@login_required
@require_POST
def report_create(request: PageRequest, assessment_id: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, assessment_id)
    form = ReportOptionsForm(request.POST)
    if not form.is_valid():
        return refused(request, assessment, form)
    try:
        report = services.report_request(
            assessment=assessment, user=request.user, options=form.options()
        )
    except services.TooManyReports as exc:
        context = {"assessment": assessment, "form": form}
        return busy(request, exc, f"{PANEL}#report-status", context)
    # In-process (eager) builds have finished by now; show what the row says.
    report = selectors.report_status_or_404(request.user, report.pk)
    if request.htmx:
        context = {"report": report, "assessment": assessment}
        return render(request, f"{PANEL}#report-status", context)
    return redirect("reports:detail", pk=report.pk)


def refused(request: PageRequest, assessment: Assessment, form: ReportOptionsForm) -> HttpResponse:
    """400 with the form and a message per field: the status region for htmx (its
    data-swap-errors lets htmx swap a 400), else a page holding the panel. Nothing stored."""
    context = {"assessment": assessment, "form": form, "report": assessment.reports.first()}
    template = f"{PANEL}#report-status" if request.htmx else "reports/options_page.html"
    return render(request, template, context, status=400)


def busy(
    request: PageRequest, exc: Busy, partial: str, context: dict[str, object] | None = None
) -> HttpResponse:
    """429 with Retry-After: the status region (htmx swaps it in) or a plain page."""
    if not request.htmx:
        return busy_page(exc)
    response = render(request, partial, {**(context or {}), "busy": str(exc)}, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


@login_required
@require_GET
def report_status(request: PageRequest, pk: int) -> HttpResponse:
    report = selectors.report_status_or_404(request.user, pk)
    status = HTMX_STOP_POLLING if report.status in FINISHED and request.htmx else 200
    context = {"report": report, "assessment": report.assessment}
    return render(request, f"{PANEL}#report-status", context, status=status)


@login_required
@require_GET
def report_detail(request: PageRequest, pk: int) -> HttpResponse:
    report = selectors.report_or_404(request.user, pk)
    body = ""
    if report.status == Report.Status.DONE:
        start, end = "<!-- report:start -->", "<!-- report:end -->"
        body = report.html.split(start, 1)[-1].split(end, 1)[0]
    return render(request, "reports/detail.html", {"report": report, "body": body})


@login_required
@require_GET
def report_pdf(request: PageRequest, pk: int) -> HttpResponseBase:
    report = selectors.report_or_404(request.user, pk)
    if report.status != Report.Status.DONE or not report.pdf_file:
        return HttpResponse("The report is not ready yet.", status=409, content_type="text/plain")
    name = f"sas-tuning-{report.assessment.hostname}-{report.pk}.pdf"
    return stored_file(report.pdf_file, name, "application/pdf")
