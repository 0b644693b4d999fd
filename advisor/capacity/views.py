"""The capacity what-if on the assessment page (htmx), with a plain page of its own: GET
shows the form filled in from the assessment (with `?example=chew`, the paper's worked
example instead: the link that fills it without JavaScript), POST without JavaScript
answers with that page, the result under the form and a link back to the assessment."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from advisor.assessments.selectors import assessment_or_404
from advisor.capacity import whatif
from advisor.capacity.forms import CapacityForm
from advisor.core.http import PageRequest

PANEL = "capacity/assessment_panel.html"
PAGE = "capacity/page.html"


@login_required
@require_http_methods(["GET", "POST"])
def capacity(request: PageRequest, assessment_id: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, assessment_id)
    if request.method == "GET":
        chew = request.GET.get("example") == "chew"
        values = whatif.example() if chew else whatif.initial(assessment)
        context = {"assessment": assessment, "capacity_values": values}
        return render(request, PAGE, context)
    form = CapacityForm(request.POST)
    values = {name: request.POST.get(name, "") for name in form.fields}
    context = {"assessment": assessment, "capacity_values": values, **whatif.run(form, assessment)}
    template = f"{PANEL}#capacity" if request.htmx else PAGE
    # htmx swaps only 2xx answers, so the fragment with the field errors comes back as 200.
    status = 400 if "errors" in context and not request.htmx else 200
    return render(request, template, context, status=status)
