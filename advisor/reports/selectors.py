"""Report reads, always scoped to the caller's organisation (outsiders find nothing)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from advisor.core.selectors import organisation_for_user
from advisor.models import Report


def reports_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Report]:
    org = organisation_for_user(user)
    if org is None:
        return Report.objects.none()
    # The assessment names the report (host, panel); its stored result (tens of kilobytes)
    # is left unread: the status partial is polled every second.
    return (
        Report.objects.filter(assessment__organisation=org)
        .select_related("assessment")
        .defer("assessment__result_json")
    )


def _reports_of(
    user: AbstractBaseUser | AnonymousUser, assessment_id: int | None
) -> QuerySet[Report]:
    qs = reports_for_user(user)
    return qs if assessment_id is None else qs.filter(assessment_id=assessment_id)


def report_status_or_404(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, assessment_id: int | None = None
) -> Report:
    """The report, to show how far its build is (its files stay in storage unread)."""
    return get_object_or_404(_reports_of(user, assessment_id), pk=pk)


def report_or_404(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, assessment_id: int | None = None
) -> Report:
    return get_object_or_404(_reports_of(user, assessment_id), pk=pk)
