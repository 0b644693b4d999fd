"""Report reads, always through the organisation-scoped selectors (outsiders find nothing)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from advisor.models import Assessment, Report
from advisor.selectors import assessment_or_404, reports_for_user

__all__ = ["assessment_or_404", "latest_report", "report_or_404", "report_status_or_404"]

LIGHT_FIELDS = ("html", "pdf")  # deferred where only the status is needed


def report_status_or_404(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, assessment_id: int | None = None
) -> Report:
    qs: QuerySet[Report] = reports_for_user(user).defer(*LIGHT_FIELDS)
    if assessment_id is not None:
        qs = qs.filter(assessment_id=assessment_id)
    return get_object_or_404(qs, pk=pk)


def report_or_404(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, assessment_id: int | None = None
) -> Report:
    qs = reports_for_user(user)
    if assessment_id is not None:
        qs = qs.filter(assessment_id=assessment_id)
    return get_object_or_404(qs, pk=pk)


def latest_report(assessment: Assessment) -> Report | None:
    return assessment.reports.defer(*LIGHT_FIELDS).first()
