"""Fleet pages: upload a fleet, watch its progress (htmx polls until done), then read it:
servers with warnings by severity (sorted, filtered), groups of identical advice, the
settings the fleet disagrees on, drift against the previous run, CSV, re-evaluation."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase, HttpResponseRedirect, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from advisor.assessments.services import NoOrganisation
from advisor.core.downloads import as_attachment, stored_file
from advisor.core.errors import busy_page
from advisor.core.http import PageRequest
from advisor.fleets import presenting, reporting, selectors, services
from advisor.fleets.reading import FleetError, read_fleet
from advisor.reports.services import TooManyReports

PAGE_SIZE = 100
HTMX_STOP_POLLING = 286


@login_required
@require_http_methods(["GET", "POST"])
def fleet_list(request: PageRequest) -> HttpResponse:
    error, status = "", 200
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error, status = "Choose a file: NDJSON, a JSON array or a zip of inventories.", 400
        else:
            try:
                # The upload's file (on disk past 2.5 MB), read in bounded pieces.
                entries = read_fleet(upload.file or b"", upload.content_type or "")
                fleet, _ = services.fleet_create(
                    user=request.user, entries=entries,
                    name=request.POST.get("name", "") or upload.name or "",
                )  # fmt: skip
            except FleetError as exc:
                where = "" if exc.field in ("file", "servers") else f"{exc.field}: "
                error, status = f"{upload.name}: {where}{exc.message}", exc.status
            except NoOrganisation:
                error, status = "Your account belongs to no organisation.", 400
            else:
                return HttpResponseRedirect(reverse("fleets:detail", args=[fleet.pk]))
    fleets = [(f, selectors.progress(f)) for f in selectors.fleets_for_user(request.user)[:50]]
    context = {
        "fleets": fleets,
        "error": error,
        "limit_mb": settings.MAX_FLEET_BYTES // (1024 * 1024),
    }
    return render(request, "fleets/list.html", context, status=status)


fleet_list.max_body_bytes = settings.MAX_FLEET_BYTES  # type: ignore[attr-defined]


@login_required
@require_GET
def fleet_detail(request: PageRequest, pk: int) -> HttpResponse:
    # A finished fleet's counts and summary, stored when it finished, come with it.
    fleet = selectors.fleet_with_summary_or_404(request.user, pk)
    services.requeue_stalled(fleet)
    progress = selectors.progress(fleet)
    context = {"fleet": fleet, "progress": progress}
    if request.htmx and request.GET.get("progress"):
        status = HTMX_STOP_POLLING if progress["status"] == "done" else 200
        if status == HTMX_STOP_POLLING:
            # The whole page now has the fleet view: tell htmx to load it.
            response = HttpResponse(status=status)
            response["HX-Refresh"] = "true"
            return response
        return render(request, "fleets/detail.html#progress", context)
    if progress["status"] == "done":
        items = presenting.filtered(fleet, request.GET)
        page = presenting.page_number(request.GET.get("page"))
        count = items.count()
        context |= {
            "report": fleet.reports.first(),
            "summary": presenting.summary(fleet),
            "items": presenting.with_os_names(items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]),
            "count": count,
            "page": page,
            "pages": max(1, -(-count // PAGE_SIZE)),
            "params": request.GET,
            "sorts": list(selectors.SORTS),
            "finding": presenting.finding(fleet, request.GET.get("finding", "")[:300]),
        }
    return render(request, "fleets/detail.html", context)


@login_required
@require_GET
def fleet_csv(request: PageRequest, pk: int) -> StreamingHttpResponse:
    fleet = selectors.fleet_or_404(request.user, pk)
    items = presenting.filtered(fleet, request.GET)
    response = StreamingHttpResponse(presenting.csv_lines(items), content_type="text/csv")
    as_attachment(response, f"fleet-{fleet.pk}.csv")
    return response


@login_required
@require_POST
def fleet_reevaluate(request: PageRequest, pk: int) -> HttpResponse:
    fleet = selectors.fleet_or_404(request.user, pk)
    fresh = services.fleet_reevaluate(user=request.user, fleet=fleet)
    return HttpResponseRedirect(reverse("fleets:detail", args=[fresh.pk]))


@login_required
@require_POST
def fleet_report(request: PageRequest, pk: int) -> HttpResponse:
    fleet = selectors.fleet_or_404(request.user, pk)
    try:
        reporting.fleet_report_request(fleet=fleet, user=request.user)
    except TooManyReports as exc:
        return busy_page(exc)
    return HttpResponseRedirect(reverse("fleets:detail", args=[pk]) + "#report")


@login_required
@require_GET
def fleet_report_status(request: PageRequest, pk: int) -> HttpResponse:
    fleet = selectors.fleet_or_404(request.user, pk)
    report = fleet.reports.first()
    finished = report is None or report.status in ("done", "failed")
    context = {"fleet": fleet, "report": report}
    status = HTMX_STOP_POLLING if finished and request.htmx else 200
    return render(request, "fleets/detail.html#report", context, status=status)


@login_required
@require_GET
def fleet_report_pdf(request: PageRequest, pk: int, report_pk: int) -> HttpResponseBase:
    fleet = selectors.fleet_or_404(request.user, pk)
    report = get_object_or_404(fleet.reports.exclude(pdf_file=""), pk=report_pk, status="done")
    return stored_file(report.pdf_file, f"fleet-{fleet.pk}-report.pdf", "application/pdf")
