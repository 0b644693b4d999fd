"""Assessment reads, always scoped to the caller's organisation (outsiders find nothing)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from advisor.core.selectors import organisation_for_user
from advisor.models import Assessment


def assessments_for_user(
    user: AbstractBaseUser | AnonymousUser, *, hostname: str | None = None
) -> QuerySet[Assessment]:
    org = organisation_for_user(user)
    if org is None:
        return Assessment.objects.none()
    qs = Assessment.objects.filter(organisation=org).select_related("created_by")
    if hostname:
        qs = qs.filter(hostname__icontains=hostname)
    return qs


def assessment_or_404(
    user: AbstractBaseUser | AnonymousUser, pk: int, *, defer: tuple[str, ...] = ()
) -> Assessment:
    """The user's organisation's assessment, or 404: another organisation's looks absent.
    `defer` leaves columns to be read when first used."""
    return get_object_or_404(assessments_for_user(user).defer(*defer), pk=pk)


def assessment_rows(
    user: AbstractBaseUser | AnonymousUser, *, hostname: str | None = None
) -> QuerySet[Assessment]:
    """The list's rows: not archived, the summary columns only (an inventory and a result
    weigh tens of kilobytes each and a list shows neither)."""
    rows = assessments_for_user(user, hostname=hostname).filter(archived_at__isnull=True)
    return rows.defer("inventory", "result_json")
