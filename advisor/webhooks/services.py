"""Webhooks: register an endpoint, record an event for each endpoint that wants it, send
one delivery (signed, no redirects followed, only to globally routable addresses unless the
site allows private ones: advisor.webhooks.transport), and keep the delivery log.

An event is recorded in the database first and sent by a worker after the commit, with
retries and backoff (advisor.webhooks.tasks); a delivery that runs out of retries is
marked failed with its last error, and one still pending DELIVERY_WINDOW_S after its event
(its message lost with a broker, or its worker's retry never came) is failed by the sweep.
"""

from __future__ import annotations

import http.client
import json
import logging
import time
import uuid
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import TextField, Value
from django.db.models.functions import Concat
from django.utils import timezone

from advisor.core.text import storable
from advisor.models import Assessment, Fleet, Organisation, Webhook, WebhookDelivery
from advisor.webhooks import signing, transport

log = logging.getLogger(__name__)

EVENTS = ("fleet.completed", "assessment.created")
TIMEOUT_S = 10
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class EndpointError(ValueError):
    """The URL (or the events, or the organisation's count) is not one the advisor takes."""

    def __init__(self, message: str, field: str = "url") -> None:
        super().__init__(message)
        self.field = field


def check_url(url: str) -> str:
    if storable(url) != url or any(ch.isspace() for ch in url):
        raise EndpointError("must be an absolute https:// URL")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        raise EndpointError("must be an absolute https:// URL") from None
    host = parts.hostname or ""
    if not host:
        raise EndpointError("must be an absolute https:// URL")
    # A name is checked when each delivery resolves it; an address, however written, and
    # localhost's names can be checked now.
    try:
        transport.connection_name(host)
    except UnicodeError:
        raise EndpointError(f"{host} is not a valid host name") from None
    address = transport.literal(host)
    if not settings.WEBHOOK_ALLOW_PRIVATE and (
        transport.local_name(host) or (address is not None and not transport.routable(address))
    ):
        raise EndpointError(f"{host} is not a public address")
    if parts.scheme == "https":
        return url
    if parts.scheme == "http" and settings.WEBHOOK_ALLOW_PRIVATE and host in LOOPBACK_NAMES:
        return url
    raise EndpointError("must be an https:// URL")


def checked_events(events: list[str]) -> list[str]:
    unknown = sorted(set(events) - set(EVENTS))
    if unknown or not events:
        raise EndpointError(f"events must be some of {', '.join(EVENTS)}", field="events")
    return sorted(set(events))


def webhook_create(
    *, organisation: Organisation, url: str, events: list[str], **keyed: str | None
) -> Webhook:
    """A new endpoint. EndpointError for a URL or events the advisor does not take, past
    the organisation's cap, or for an endpoint registered already for these events (the
    page says so; the API answers with it: webhook_register). `keyed`: the idempotency
    key and request hash it is stored with."""
    chosen = checked_events(events)
    checked = check_url(url)
    limit = settings.WEBHOOKS_PER_ORGANISATION
    with transaction.atomic():
        # The organisation's row is locked so two registrations at once cannot both take
        # the last place, nor both register the same endpoint.
        Organisation.objects.select_for_update().filter(pk=organisation.pk).first()
        hooks = Webhook.objects.filter(organisation=organisation)
        if hooks.filter(url=checked, events=chosen).exists():
            raise EndpointError("is registered already for these events")
        if hooks.count() >= limit:
            raise EndpointError(
                f"an organisation may have at most {limit} webhooks: remove one first",
                field="webhooks",
            )
        return Webhook.objects.create(
            organisation=organisation, url=checked, secret=signing.new_secret(),
            events=chosen, **keyed,
        )  # fmt: skip


def _emit(organisation_id: int, event: str, data: dict[str, Any]) -> list[int]:
    hooks = [h for h in Webhook.objects.filter(organisation_id=organisation_id, active=True)
             if event in h.events]  # fmt: skip
    ids = []
    for hook in hooks:
        message_id = f"msg_{uuid.uuid4().hex}"
        payload = {"type": event, "timestamp": timezone.now().isoformat(), "data": data}
        delivery = WebhookDelivery.objects.create(
            webhook=hook, event=event, message_id=message_id, payload=payload
        )
        ids.append(delivery.pk)
    if ids:
        from advisor.webhooks.tasks import deliver

        # robust: a broker that is down must not fail the write that raised the event; the
        # delivery stays pending in the log.
        transaction.on_commit(lambda: [deliver.delay(delivery_id=i) for i in ids], robust=True)
    return ids


UNSENT_AFTER_S = 120  # queued and never attempted this long: its message was lost
# Retries end long before this: backoff of at most 1 + 2 + … + 128 s plus at most nine
# attempts of 45 s (the task's hard limit). A delivery still pending after it will never
# be sent by a retry.
DELIVERY_WINDOW_S = 30 * 60


def requeue_unsent(*, now: datetime | None = None) -> list[int]:
    """Queue again deliveries never attempted UNSENT_AFTER_S after they were queued, each
    sweep that finds them so, until DELIVERY_WINDOW_S after the event (then fail_stale
    fails them). A copy of a message only slow sends nothing (attempt's `retry`)."""
    from advisor.webhooks.tasks import deliver

    now = now or timezone.now()
    unsent = WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING, attempts=0,
        queued_at__lt=now - timedelta(seconds=UNSENT_AFTER_S),
        created_at__gte=now - timedelta(seconds=DELIVERY_WINDOW_S),
    )  # fmt: skip
    ids = list(unsent.values_list("pk", flat=True)[:200])
    # Its queue time moves (never its creation time): the next sweep leaves it be.
    WebhookDelivery.objects.filter(pk__in=ids).update(queued_at=now)
    for delivery_id in ids:
        deliver.delay(delivery_id=delivery_id)
    if ids:
        log.warning("webhook deliveries queued again: %s", ids)
    return ids


def fail_stale(*, now: datetime | None = None) -> int:
    """Mark failed, with the reason, the deliveries still pending DELIVERY_WINDOW_S after
    their event; how many there were."""
    cutoff = (now or timezone.now()) - timedelta(seconds=DELIVERY_WINDOW_S)
    stale = WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING, created_at__lt=cutoff
    )
    reason = f"no answer within {DELIVERY_WINDOW_S // 60} minutes of the event"
    never = stale.filter(attempts=0).update(
        status=WebhookDelivery.Status.FAILED, error=f"{reason}: never sent"
    )
    tried = stale.update(
        status=WebhookDelivery.Status.FAILED,
        error=Concat(Value(f"{reason}; last attempt: "), "error", output_field=TextField()),
    )
    if never or tried:
        log.warning("webhook deliveries failed as stale: %d never sent, %d tried", never, tried)
    return never + tried


def fleet_completed(*, fleet_id: int) -> list[int]:
    from advisor.fleets.selectors import progress

    fleet = Fleet.objects.get(pk=fleet_id)
    counts = progress(fleet)
    data = {"fleet_id": fleet.pk, "name": fleet.name, "total": fleet.total,
            "done": counts["done"], "failed": counts["failed"],
            "rules_version": fleet.rules_version}  # fmt: skip
    return _emit(fleet.organisation_id, "fleet.completed", data)


def assessment_created(assessment: Assessment) -> list[int]:
    data = {"assessment_id": assessment.pk, "hostname": assessment.hostname,
            "rules_version": assessment.rules_version,
            "warnings_count": assessment.warnings_count}  # fmt: skip
    return _emit(assessment.organisation_id, "assessment.created", data)


def send(delivery: WebhookDelivery) -> tuple[int | None, str]:
    """One attempt: (HTTP status, error text)."""
    status, error, _ = _send(delivery)
    return status, error


def _send(delivery: WebhookDelivery) -> tuple[int | None, str, bool]:
    """One attempt: (HTTP status, error text, whether the address was refused)."""
    hook = delivery.webhook
    body = json.dumps(delivery.payload, separators=(",", ":")).encode()
    headers = signing.headers(hook.secret, delivery.message_id, int(time.time()), body)
    try:
        status = transport.post(
            hook.url, body, headers,
            allow_private=settings.WEBHOOK_ALLOW_PRIVATE, timeout=TIMEOUT_S,
        )  # fmt: skip
    except transport.Refused as exc:
        return None, str(exc), True
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return None, (str(exc) or type(exc).__name__)[:500], False
    return status, "" if 200 <= status < 300 else f"HTTP {status}", False


def attempt(*, delivery_id: int, retry: int | None = None) -> bool:
    """Send once and log it; True when nothing is left to try: the endpoint answered 2xx,
    or its address was refused, which no retry changes (the delivery fails at once, with
    the reason), or it is no longer pending. `retry` is the retry its message stands for
    (0 for the first): a copy of a message whose attempt is logged already sends nothing."""
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    if delivery.status != WebhookDelivery.Status.PENDING:
        return True
    if retry is not None and delivery.attempts > retry:
        return True
    delivery.started_at = timezone.now()
    status, error, refused = _send(delivery)
    ok = status is not None and 200 <= status < 300
    delivery.attempts += 1
    delivery.response_status = status
    delivery.error = "" if ok else error or f"HTTP {status}"
    if ok:
        delivery.status, delivery.delivered_at = WebhookDelivery.Status.DELIVERED, timezone.now()
    elif refused:
        delivery.status = WebhookDelivery.Status.FAILED
    delivery.save(update_fields=["attempts", "response_status", "error", "status",
                                 "started_at", "delivered_at"])  # fmt: skip
    return ok or refused


def give_up(*, delivery_id: int, reason: str = "") -> None:
    """Fail a delivery still pending: its retries ran out (its last attempt's error is the
    reason) or `reason` stopped it."""
    reasons = {"error": reason[:2000]} if reason else {}
    WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.FAILED, **reasons
    )
