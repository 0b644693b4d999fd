"""SAS log pages: upload or paste a night's logs, see them ranked by the time their
findings could save, open one for its timeline, findings and what-if, tie it to an
assessment so its options are compared with that server's advice. A large log is
diagnosed on a worker: its page shows it queued or being read, polled with htmx until it
is done (the page then reloads) or failed (the reason, and polling stops with 286)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from advisor.assessments.selectors import assessment_or_404, assessments_for_user
from advisor.core.http import PageRequest
from advisor.core.selectors import organisation_for_user
from advisor.logs import presenting, services
from advisor.logs.selectors import log_or_404, log_status_or_404, log_summaries_for_user
from advisor.models import Assessment, JobLog

MAX_FILES = 50  # a night's batch; more is a fleet job, not a page upload
HTMX_STOP_POLLING = 286  # htmx stops polling on this status


class LogForm(forms.Form):
    text = forms.CharField(
        label="or paste a log",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
    )
    assessment = forms.IntegerField(required=False, widget=forms.HiddenInput)


def _assessment(request: PageRequest, raw: Any) -> Assessment | None:
    if raw in (None, ""):
        return None
    try:
        return assessment_or_404(request.user, int(raw))
    except (TypeError, ValueError, Http404):
        return None


def _store(request: PageRequest, form: LogForm) -> tuple[list[int], list[str]]:
    """Store every uploaded and pasted log; (stored ids, one error per refused log)."""
    org = organisation_for_user(request.user)
    if org is None:
        return [], ["Your account belongs to no organisation."]
    assessment = _assessment(request, request.POST.get("assessment"))
    uploads = request.FILES.getlist("files")
    sources: list[tuple[str, Any]] = [(f.name or "upload", f.chunks()) for f in uploads]
    text = form.cleaned_data.get("text") or ""
    if text.strip():
        sources.append(("pasted log", [text.encode("utf-8")]))
    if not sources:
        return [], ["Choose log files or paste a log."]
    if len(sources) > MAX_FILES:
        return [], [f"{len(sources)} logs at once; send at most {MAX_FILES}."]
    stored, errors = [], []
    for name, chunks in sources:
        try:
            row = services.log_submit(
                organisation=org,
                user=request.user,
                name=name,
                chunks=chunks,
                assessment=assessment,
            )
        except services.LogError as exc:
            errors.append(str(exc))
        else:
            stored.append(row.pk)
    return stored, errors


@login_required
@require_http_methods(["GET", "POST"])
def log_list(request: PageRequest) -> HttpResponse:
    form = LogForm(request.POST if request.method == "POST" else None)
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        stored, errors = _store(request, form)
        if stored and not errors:
            target = reverse("logs:detail", args=[stored[0]]) if len(stored) == 1 else None
            return HttpResponseRedirect(target or reverse("logs:list"))
    context = {
        "form": form,
        "errors": errors,
        "logs": presenting.listed(log_summaries_for_user(request.user)[:200]),
        "limit_mb": settings.MAX_LOG_BYTES // (1024 * 1024),
        "assessment_id": request.GET.get("assessment", ""),
    }
    return render(request, "logs/list.html", context, status=400 if errors else 200)


log_list.max_body_bytes = settings.MAX_LOG_BYTES  # type: ignore[attr-defined]


@login_required
@require_GET
def log_detail(request: PageRequest, pk: int) -> HttpResponse:
    job_log = log_or_404(request.user, pk)
    if job_log.status != JobLog.Status.DONE:
        return render(request, "logs/detail.html", {"log": job_log})
    analysis = job_log.analysis
    context = {
        "log": job_log,
        "a": analysis,
        "chart": presenting.chart(analysis),
        "unshown": presenting.unshown(analysis),
        "what": {
            k: presenting.duration(v)
            for k, v in analysis["what_if"].items()
            if k.endswith("seconds")
        },
        "assessments": assessments_for_user(request.user)[:100],
    }
    return render(request, "logs/detail.html", context)


@login_required
@require_GET
def log_status(request: PageRequest, pk: int) -> HttpResponse:
    """The status region of a log's page, for htmx to poll: a log done makes the page
    reload to show its analysis; done or failed, polling stops."""
    job_log = log_status_or_404(request.user, pk)
    finished = job_log.status in (JobLog.Status.DONE, JobLog.Status.FAILED)
    status = HTMX_STOP_POLLING if finished and request.htmx else 200
    response = render(request, "logs/detail.html#log-status", {"log": job_log}, status=status)
    if job_log.status == JobLog.Status.DONE and request.htmx:
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def log_attach(request: PageRequest, pk: int) -> HttpResponse:
    job_log = log_or_404(request.user, pk)
    assessment = _assessment(request, request.POST.get("assessment"))
    services.log_attach(job_log=job_log, assessment=assessment)
    return HttpResponseRedirect(reverse("logs:detail", args=[pk]) + "#options")
