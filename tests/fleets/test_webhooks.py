"""Webhooks: fleet.completed and assessment.created delivered to a receiver on loopback,
its signature checked by the Standard Webhooks reference library; failures logged; only
https:// endpoints (http:// on loopback where the site allows private addresses)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient
from standardwebhooks.webhooks import Webhook as Verifier

from advisor.models import WebhookDelivery
from tests.fleets.conftest import fleet, ndjson


class Receiver(BaseHTTPRequestHandler):
    received: list[tuple[dict[str, str], bytes]] = []
    answer = 204

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        type(self).received.append(({k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(type(self).answer)
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[str]:
    Receiver.received, Receiver.answer = [], 204
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def register(api: APIClient, url: str, events: list[str]) -> dict[str, Any]:
    response = api.post("/api/v1/webhooks/", {"url": url, "events": events}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_events_arrive_signed_and_are_logged(
    api: APIClient, receiver: str, lemans: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    hook = register(api, receiver, ["fleet.completed", "assessment.created"])
    assert hook["secret"].startswith("whsec_")
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/v1/assessments/", lemans, format="json")
    with django_capture_on_commit_callbacks(execute=True):
        fleet_id = api.generic(
            "POST", "/api/v1/fleets/", ndjson(fleet(2)), "application/x-ndjson"
        ).json()["id"]
    events = []
    for headers, body in Receiver.received:
        payload = Verifier(hook["secret"]).verify(body, headers)  # raises on a bad signature
        events.append(payload["type"])
        assert headers["webhook-id"].startswith("msg_")
    assert events == ["assessment.created", "fleet.completed"]
    (completed,) = [
        Verifier(hook["secret"]).verify(b, h) for h, b in Receiver.received
        if b"fleet.completed" in b
    ]  # fmt: skip
    assert completed["data"] | {"fleet_id": fleet_id} == completed["data"]
    assert completed["data"]["done"] == 2
    log = api.get(f"/api/v1/webhooks/{hook['id']}/").json()["deliveries"]
    assert [d["status"] for d in log] == ["delivered", "delivered"]
    assert "secret" not in api.get("/api/v1/webhooks/").json()["results"][0]


def test_a_tampered_body_fails_verification(
    api: APIClient, receiver: str, lemans: Any, django_capture_on_commit_callbacks: Any
) -> None:
    hook = register(api, receiver, ["assessment.created"])
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/v1/assessments/", lemans, format="json")
    headers, body = Receiver.received[0]
    with pytest.raises(Exception, match=r"[Ss]ignature"):
        Verifier(hook["secret"]).verify(body.replace(b"lemans", b"lemonz"), headers)


def test_a_failing_endpoint_is_logged_as_failed(
    api: APIClient, receiver: str, lemans: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    Receiver.answer = 500
    register(api, receiver, ["assessment.created"])
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/v1/assessments/", lemans, format="json")
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("failed", 1, 500)


def test_only_https_endpoints_and_known_events(api: APIClient) -> None:
    for url in ("http://example.com/hook", "ftp://example.com/", "not a url"):
        answer = api.post("/api/v1/webhooks/", {"url": url, "events": ["fleet.completed"]},
                          format="json")  # fmt: skip
        assert answer.status_code == 400 and "url" in answer.json()["errors"]
    wrong = api.post("/api/v1/webhooks/", {"url": "https://example.com/h", "events": ["x"]},
                     format="json")  # fmt: skip
    assert "events[0]" in wrong.json()["errors"]


def test_private_addresses_are_refused_at_delivery(
    api: APIClient,
    lemans: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A name is refused when delivered (an address, or localhost, at once: tests/webhooks/)
    real = socket.getaddrinfo
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *args, **kwargs: real(
        "127.0.0.1" if host == "loopback.example" else host, *args, **kwargs))  # fmt: skip
    register(api, "https://loopback.example:9/hook", ["assessment.created"])
    with django_capture_on_commit_callbacks(execute=True):
        api.post("/api/v1/assessments/", lemans, format="json")
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "failed" and "not a public address" in delivery.error


def test_another_organisation_sees_no_webhook(api: APIClient, outsider_api: APIClient) -> None:
    hook = register(api, "https://example.com/hook", ["fleet.completed"])
    assert outsider_api.get(f"/api/v1/webhooks/{hook['id']}/").status_code == 404
    assert outsider_api.delete(f"/api/v1/webhooks/{hook['id']}/").status_code == 404
    assert outsider_api.get("/api/v1/webhooks/").json()["results"] == []


def test_urls_with_nul_spaces_or_bad_ports_are_refused(api: APIClient) -> None:
    for url in (
        "https://ex\x00ample.com/",
        "https://example.com/a b",
        "https://example.com:99999/",
    ):
        answer = api.post("/api/v1/webhooks/", {"url": url, "events": ["fleet.completed"]},
                          format="json")  # fmt: skip
        assert answer.status_code == 400, url


def test_a_broker_that_is_down_does_not_fail_the_assessment(
    api: APIClient, lemans: dict[str, Any], monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    from advisor.webhooks import tasks

    def broker_down(**kwargs: Any) -> None:
        raise ConnectionError("the broker is down")

    register(api, "https://example.com/hook", ["assessment.created"])
    monkeypatch.setattr(tasks.deliver, "delay", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        created = api.post("/api/v1/assessments/", lemans, format="json")
    assert created.status_code == 201
    assert WebhookDelivery.objects.get().status == "pending"  # in the log, not lost silently
