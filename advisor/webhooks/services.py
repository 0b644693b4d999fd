"""Webhooks: register an endpoint, record an event for each endpoint that wants it, send
one delivery (signed, no redirects followed, only to public addresses unless the site
allows private ones), and keep the delivery log.

An event is recorded in the database first and sent by a worker after the commit, with
retries and backoff (advisor.webhooks.tasks); a delivery that runs out of retries is
marked failed with its last error.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
import time
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from advisor.core.text import storable
from advisor.models import Assessment, Fleet, Organisation, Webhook, WebhookDelivery
from advisor.webhooks import signing

log = logging.getLogger(__name__)

EVENTS = ("fleet.completed", "assessment.created")
TIMEOUT_S = 10
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class EndpointError(ValueError):
    """The URL is not one the advisor will send to."""


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
    if parts.scheme == "https":
        return url
    if parts.scheme == "http" and settings.WEBHOOK_ALLOW_PRIVATE and host in LOOPBACK_NAMES:
        return url
    raise EndpointError("must be an https:// URL")


def webhook_create(*, organisation: Organisation, url: str, events: list[str]) -> Webhook:
    unknown = sorted(set(events) - set(EVENTS))
    if unknown or not events:
        raise EndpointError(f"events must be some of {', '.join(EVENTS)}")
    return Webhook.objects.create(
        organisation=organisation, url=check_url(url), secret=signing.new_secret(),
        events=sorted(set(events)),
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


UNSENT_AFTER_S = 120  # pending and never attempted this long: its message was lost


def requeue_unsent(*, now: datetime | None = None) -> list[int]:
    """Queue again deliveries never attempted UNSENT_AFTER_S after the event."""
    from advisor.webhooks.tasks import deliver

    cutoff = (now or timezone.now()) - timedelta(seconds=UNSENT_AFTER_S)
    unsent = WebhookDelivery.objects.filter(
        status=WebhookDelivery.Status.PENDING, attempts=0, created_at__lt=cutoff
    )
    ids = list(unsent.values_list("pk", flat=True)[:200])
    for delivery_id in ids:
        deliver.delay(delivery_id=delivery_id)
    if ids:
        log.warning("webhook deliveries queued again: %s", ids)
    return ids


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


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx is an answer like any other: not delivered


def _public(host: str) -> bool:
    """Whether every address the host resolves to is a public one."""
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if address.is_private or address.is_loopback or address.is_link_local:
            return False
        if address.is_reserved or address.is_multicast or address.is_unspecified:
            return False
    return True


def send(delivery: WebhookDelivery) -> tuple[int | None, str]:
    """One attempt: (HTTP status, error text)."""
    hook = delivery.webhook
    host = urlsplit(hook.url).hostname or ""
    if not settings.WEBHOOK_ALLOW_PRIVATE and not _public(host):
        return None, f"{host} is not a public address"
    body = json.dumps(delivery.payload, separators=(",", ":")).encode()
    headers = signing.headers(hook.secret, delivery.message_id, int(time.time()), body)
    request = urllib.request.Request(hook.url, data=body, headers=headers, method="POST")
    opener = urllib.request.build_opener(_NoRedirects)
    try:
        with opener.open(request, timeout=TIMEOUT_S) as response:
            return int(response.status), ""
    except urllib.error.HTTPError as exc:
        return exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError, ValueError) as exc:
        return None, str(getattr(exc, "reason", exc))[:500]


def attempt(*, delivery_id: int) -> bool:
    """Send once and log it; True when the endpoint answered 2xx."""
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    if delivery.status == WebhookDelivery.Status.DELIVERED:
        return True
    status, error = send(delivery)
    ok = status is not None and 200 <= status < 300
    delivery.attempts += 1
    delivery.response_status = status
    delivery.error = "" if ok else error or f"HTTP {status}"
    if ok:
        delivery.status, delivery.delivered_at = WebhookDelivery.Status.DELIVERED, timezone.now()
    delivery.save(update_fields=["attempts", "response_status", "error", "status",
                                 "delivered_at"])  # fmt: skip
    return ok


def give_up(*, delivery_id: int) -> None:
    WebhookDelivery.objects.filter(pk=delivery_id).exclude(
        status=WebhookDelivery.Status.DELIVERED
    ).update(status=WebhookDelivery.Status.FAILED)
