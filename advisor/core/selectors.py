"""Reads every feature shares: the organisation a user acts for.

Every feature scopes its reads by it, so another organisation's rows look absent (404).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from advisor.models import Organisation


def organisation_for_user(user: AbstractBaseUser | AnonymousUser) -> Organisation | None:
    membership = getattr(user, "membership", None) if user.is_authenticated else None
    return membership.organisation if membership is not None else None
