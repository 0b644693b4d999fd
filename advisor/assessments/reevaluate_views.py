"""Re-evaluate an assessment on the current rules (a new assessment, then the comparison
page, which leads with what the new rules change setting by setting, and why), or archive
it (hidden from the lists, kept for audit)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from advisor.assessments import services
from advisor.assessments.selectors import assessment_or_404
from advisor.core.http import PageRequest


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
