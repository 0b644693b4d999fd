"""The capacity what-if on the assessment page (htmx), with a plain-form fallback page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_POST

from advisor.assessments.selectors import assessment_or_404
from advisor.capacity.forms import CapacityForm
from advisor.core.http import PageRequest
from advisor.reports import charts
from rules.capacity import CapacityError, predict

PANEL = "capacity/assessment_panel.html"


@login_required
@require_POST
def capacity(request: PageRequest, assessment_id: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, assessment_id)
    form = CapacityForm(request.POST)
    context: dict[str, object] = {"assessment": assessment, "form": form}
    if form.is_valid():
        runs = form.runs()
        try:
            prediction = predict(runs.pop("single"), **runs)
        except CapacityError as exc:
            for path, message in exc.problems:
                form.add_error(None, f"{path}: {message}")
        else:
            measured = [(r.jobs, r.minutes) for r in runs["concurrent"]]
            context["prediction"] = prediction
            svg = charts.capacity_curve(prediction.curve, measured=measured)
            context["curve"] = mark_safe(svg)  # built from numbers, labels escaped
    template = f"{PANEL}#capacity" if request.htmx else "capacity/page.html"
    # htmx swaps only 2xx answers, so the fragment with the field errors comes back as 200.
    status = 200 if form.is_valid() or request.htmx else 400
    return render(request, template, context, status=status)
