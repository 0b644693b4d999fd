"""How much an organisation may ask of the webhook workers: a cap on its endpoints (API
and page), and no delivery left pending for ever."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from advisor.models import Organisation, Webhook, WebhookDelivery
from advisor.webhooks import services, tasks

EVENTS = ["fleet.completed"]


def _create(api: APIClient, n: int) -> Any:
    body = {"url": f"https://hook{n}.example/h", "events": EVENTS}
    return api.post("/api/v1/webhooks/", body, format="json")


@override_settings(WEBHOOKS_PER_ORGANISATION=2)
def test_the_api_refuses_an_endpoint_past_the_cap(api: APIClient, outsider_api: APIClient) -> None:
    assert [_create(api, n).status_code for n in range(2)] == [201, 201]
    third = _create(api, 2)
    assert third.status_code == 400
    assert third.json()["errors"] == {
        "webhooks": ["an organisation may have at most 2 webhooks: remove one first"]
    }
    assert _create(outsider_api, 0).status_code == 201  # the cap is per organisation
    first = api.get("/api/v1/webhooks/").json()["results"][0]["id"]
    assert api.delete(f"/api/v1/webhooks/{first}/").status_code == 204
    assert _create(api, 3).status_code == 201


@override_settings(WEBHOOKS_PER_ORGANISATION=1)
def test_the_page_refuses_an_endpoint_past_the_cap(client_in: Client, org: Organisation) -> None:
    url = reverse("webhooks:list")
    assert client_in.post(url, {"url": "https://a.example/h", "events": EVENTS}).status_code == 200
    refused = client_in.post(url, {"url": "https://b.example/h", "events": EVENTS})
    assert refused.status_code == 400
    assert "Endpoints: an organisation may have at most 1 webhooks" in refused.content.decode()
    assert list(Webhook.objects.values_list("url", flat=True)) == ["https://a.example/h"]


def _delivery(org: Organisation, n: int, *, age_s: int, attempts: int, **fields: Any) -> int:
    hook, _ = Webhook.objects.get_or_create(
        organisation=org, url="https://hook.example/h", defaults={"events": EVENTS}
    )
    delivery = WebhookDelivery.objects.create(webhook=hook, event=EVENTS[0],
                                              message_id=f"msg_{n}", payload={},
                                              attempts=attempts, **fields)  # fmt: skip
    created = timezone.now() - timedelta(seconds=age_s)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(created_at=created, queued_at=created)
    return delivery.pk


def test_the_sweep_fails_stale_deliveries_and_sends_lost_ones(
    org: Organisation, monkeypatch: pytest.MonkeyPatch
) -> None:
    queued: list[int] = []
    monkeypatch.setattr(tasks.deliver, "delay", lambda delivery_id: queued.append(delivery_id))
    window = services.DELIVERY_WINDOW_S
    tried = _delivery(org, 1, age_s=window + 60, attempts=3, error="HTTP 503")
    never = _delivery(org, 2, age_s=window + 60, attempts=0)
    lost = _delivery(org, 3, age_s=services.UNSENT_AFTER_S + 60, attempts=0)
    retrying = _delivery(org, 4, age_s=services.UNSENT_AFTER_S + 60, attempts=2)
    done = _delivery(org, 5, age_s=window * 2, attempts=1, status="delivered")

    tasks.sweep_deliveries()

    rows = {d.pk: (d.status, d.error) for d in WebhookDelivery.objects.all()}
    assert rows[tried] == (
        "failed", "no answer within 30 minutes of the event; last attempt: HTTP 503"
    )  # fmt: skip
    assert rows[never] == ("failed", "no answer within 30 minutes of the event: never sent")
    assert rows[lost] == ("pending", "") and rows[retrying] == ("pending", "")
    assert rows[done] == ("delivered", "")
    assert queued == [lost]  # sent again; the stale one is not
