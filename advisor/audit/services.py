"""Writing the audit trail. Each write happens in the transaction of the change it
records: a change that rolls back leaves no event, an event never lacks its change."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import models

from advisor.audit.models import AuditEvent
from advisor.models import Organisation

MAX_SHOWN = 200  # characters of an old or new value kept in the trail


def shown(value: Any) -> Any:
    """A value as the trail keeps it: JSON as it is, long text cut, objects by name."""
    if value is None or isinstance(value, bool | int | float):
        return value
    text = str(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 1] + "…"


def record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    organisation: Organisation | None,
    action: str,
    target: str,
    changes: Mapping[str, tuple[Any, Any]] | None = None,
) -> AuditEvent:
    user = actor if isinstance(actor, User) else None
    return AuditEvent.objects.create(
        organisation=organisation,
        organisation_name=organisation.name if organisation else "",
        actor=user,
        actor_name=user.get_username() if user else "",
        action=action,
        target=target[:255],
        changes={k: [shown(old), shown(new)] for k, (old, new) in (changes or {}).items()},
    )


def field_changes(
    before: Mapping[str, Any], after: models.Model, names: Iterable[str]
) -> dict[str, tuple[Any, Any]]:
    """Old -> new for the named fields whose value differs."""
    out = {}
    for name in names:
        new = getattr(after, name, None)
        if before.get(name) != new:
            out[name] = (before.get(name), new)
    return out


def describe(obj: models.Model) -> str:
    """'assessment 12 (lemans)': the kind, the id and the object's own name for itself."""
    return f"{obj._meta.verbose_name} {obj.pk} ({obj})"
