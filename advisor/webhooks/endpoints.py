"""An organisation's endpoints through the API: registered once per URL and event set
(a second registration, or a retry with the same Idempotency-Key, answers with the first),
and changed in place (url, events, active)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from advisor.core.idempotency import insert_once, stored_under_key
from advisor.models import Organisation, Webhook
from advisor.webhooks.services import EndpointError, check_url, checked_events, webhook_create


class WebhookTaken(Exception):
    """Another endpoint of the organisation has this URL and event set."""

    def __init__(self, other: Webhook | None) -> None:
        self.other = other
        super().__init__(f"webhook {other.pk if other else '?'} has this URL and these events")


def same_endpoint(organisation: Organisation, url: str, events: list[str]) -> Webhook | None:
    """The organisation's endpoint for this URL and event set, if registered."""
    hooks = Webhook.objects.filter(organisation=organisation, url=url)
    return hooks.filter(events=sorted(set(events))).first()


def webhook_register(
    *, organisation: Organisation, url: str, events: list[str], idempotency_key: str | None,
    digest: str,
) -> tuple[Webhook, bool]:  # fmt: skip
    """(the endpoint, True) when registered now; (the one stored before, False) for a
    retry with the same key and body, or for the same URL and event set registered
    before. IdempotencyConflict for a key used with another body."""
    rows = Webhook.objects.filter(organisation=organisation)
    if found := stored_under_key(rows, idempotency_key, digest):
        return found, False
    if found := same_endpoint(organisation, url, events):
        return found, False

    def insert() -> Webhook:
        return webhook_create(organisation=organisation, url=url, events=events,
                              idempotency_key=idempotency_key, request_hash=digest)  # fmt: skip

    try:
        return insert_once(rows, idempotency_key, digest, insert)
    except EndpointError:
        # Registered by a concurrent request between the look-up and the lock.
        if found := same_endpoint(organisation, url, events):
            return found, False
        raise


def webhook_update(*, webhook: Webhook, changes: dict[str, Any]) -> Webhook:
    """Change the endpoint's url, events or active flag (each checked as at registration).
    EndpointError naming the field; WebhookTaken when another endpoint of the organisation
    has this URL and event set already."""
    if "events" in changes:
        webhook.events = checked_events(changes["events"])
    if "url" in changes:
        webhook.url = check_url(changes["url"])
    if "active" in changes:
        webhook.active = bool(changes["active"])
    other = same_endpoint(webhook.organisation, webhook.url, webhook.events)
    if other is not None and other.pk != webhook.pk:
        raise WebhookTaken(other)
    try:
        with transaction.atomic():
            webhook.save(update_fields=["url", "events", "active"])
    except IntegrityError:
        taken = same_endpoint(webhook.organisation, webhook.url, webhook.events)
        raise WebhookTaken(taken) from None
    return webhook
