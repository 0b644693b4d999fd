"""Re-evaluate an assessment on the current rules (a new assessment, then the comparison
page, which leads with what the new rules change setting by setting, and why), archive it
(hidden from the lists, kept for audit), or give it another name (its label: the result is
untouched)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from advisor.assessments import result_views, services
from advisor.assessments.result_views import NAME_MAX_LENGTH
from advisor.assessments.selectors import assessment_or_404
from advisor.core.http import PageRequest
from advisor.models import Assessment


@login_required
@require_POST
def assessment_reevaluate(request: PageRequest, pk: int) -> HttpResponse:
    old = assessment_or_404(request.user, pk)
    new = services.assessment_reevaluate(user=request.user, assessment=old)
    return HttpResponseRedirect(reverse("web:compare", args=[old.pk, new.pk]))


@login_required
@require_POST
def assessment_archive(request: PageRequest, pk: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk)
    services.assessment_archive(user=request.user, assessment=assessment)
    messages.success(
        request, f"{assessment.hostname} is archived: no longer listed, kept for audit."
    )
    return HttpResponseRedirect(reverse("web:list"))


class RenameForm(forms.Form):
    name = forms.CharField(
        label="Assessment name", max_length=NAME_MAX_LENGTH,
        error_messages={
            "required": "Assessment name: write a name; it cannot be empty.",
            "max_length": "Assessment name: at most %(limit_value)d characters "
                          "(this one has %(show_value)d).",
        },
    )  # fmt: skip


@login_required
@require_POST
def assessment_rename_view(request: PageRequest, pk: int) -> HttpResponse:
    """The result page's name form: htmx swaps the title in place; a plain POST comes back
    to the page. A refused name is shown in the form with what is wrong (400)."""
    assessment = assessment_or_404(request.user, pk, defer=("result_json",))
    form = RenameForm(request.POST)
    if not form.is_valid():
        rename = {"value": request.POST.get("name", ""), "error": str(form.errors["name"][0])}
        if request.htmx:
            return _title(request, assessment, rename, status=400)
        return result_views.detail_page(request, assessment, rename=rename, status=400)
    services.assessment_rename(
        user=request.user, assessment=assessment, name=form.cleaned_data["name"]
    )
    if request.htmx:
        return _title(request, assessment, {"saved": "1"})
    messages.success(request, "Name saved.")
    return HttpResponseRedirect(reverse("web:assessment", args=[assessment.pk]))


def _title(
    request: PageRequest, assessment: Assessment, rename: dict[str, str], status: int = 200
) -> HttpResponse:
    context = {"assessment": assessment, "rename": rename, "name_max_length": NAME_MAX_LENGTH}
    return render(request, "assessments/detail.html#title", context, status=status)
