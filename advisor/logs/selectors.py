"""SAS log reads, scoped to the caller's organisation (outsiders find nothing)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from advisor.core.selectors import organisation_for_user
from advisor.models import JobLog


def logs_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[JobLog]:
    """The organisation's logs, the ones whose findings could save the most time first."""
    org = organisation_for_user(user)
    if org is None:
        return JobLog.objects.none()
    return JobLog.objects.filter(organisation=org).select_related("assessment")


def log_summaries_for_user(user: AbstractBaseUser | AnonymousUser) -> QuerySet[JobLog]:
    """The organisation's logs without their analyses, for lists (each analysis is up to a
    few hundred kB; a list shows none of it)."""
    return logs_for_user(user).defer("analysis")


def log_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> JobLog:
    return get_object_or_404(logs_for_user(user), pk=pk)


def log_status_or_404(user: AbstractBaseUser | AnonymousUser, pk: int) -> JobLog:
    """A log without its analysis, for its status (polled every second while it waits)."""
    return get_object_or_404(log_summaries_for_user(user), pk=pk)
