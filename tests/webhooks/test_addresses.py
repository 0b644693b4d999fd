"""Where a webhook may be sent: globally routable addresses only (IPv4, IPv6 and IPv6 that
carries IPv4), the name resolved once and the connection made to the address checked,
TLS verified against the URL's name, and no redirect followed."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from advisor.models import Organisation, Webhook, WebhookDelivery
from advisor.webhooks import services, transport
from tests.webhooks.conftest import Authority, Receiver, Resolver

NOT_GLOBAL = [
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "192.0.0.1",  # IETF protocol assignments
    "198.18.0.1",  # benchmarking
    "240.0.0.1",  # reserved
    "169.254.169.254",  # link-local: cloud metadata
    "10.0.0.1",
    "127.0.0.1",
    "0.0.0.0",
    "::ffff:10.0.0.1",  # IPv4-mapped private
    "::ffff:127.0.0.1",
    "fc00::1",  # unique local
    "fe80::1",
    "2001:db8::1",  # documentation
    "::1",
    "2002:a00:1::1",  # 6to4 carrying 10.0.0.1
    "64:ff9b::a00:1",  # NAT64 carrying 10.0.0.1
]
GLOBAL = ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]
Install = Callable[[dict[str, list[str]]], Resolver]


def _url(address: str) -> str:
    host = f"[{address}]" if ":" in address else address
    return f"https://{host}/hook"


@pytest.mark.parametrize("address", NOT_GLOBAL)
def test_an_address_that_is_not_global_is_not_routable(address: str) -> None:
    assert not transport.routable(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", GLOBAL)
def test_a_global_address_is_routable(address: str) -> None:
    assert transport.routable(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", NOT_GLOBAL)
def test_registering_an_address_that_is_not_global_is_refused(api: APIClient, address: str) -> None:
    answer = api.post(
        "/api/v1/webhooks/", {"url": _url(address), "events": ["fleet.completed"]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400
    assert answer.json()["errors"]["url"] == [f"{address} is not a public address"]
    assert not Webhook.objects.exists()


# Host forms the C library reads as a private address, or that name this host.
DISGUISED = [
    ("0x7f000001", "0x7f000001"), ("2130706433", "2130706433"),
    ("017700000001", "017700000001"), ("127.1", "127.1"), ("0", "0"),
    ("0x7f.1", "0x7f.1"), ("10.0x1", "10.0x1"),
    ("localhost", "localhost"), ("localhost.", "localhost."), ("LocalHost", "localhost"),
    ("foo.localhost", "foo.localhost"), ("a.b.localhost.", "a.b.localhost."),
    ("１２７.0.0.1", "１２７.0.0.1"), ("①②⑦.0.0.1", "①②⑦.0.0.1"),
    ("127。0。0。1", "127。0。0。1"), ("127．0．0．1", "127．0．0．1"),
    ("127.0.0.1.", "127.0.0.1."),
    ("224.0.0.1", "224.0.0.1"), ("239.255.255.250", "239.255.255.250"),
    ("[ff0e::1]", "ff0e::1"), ("[::]", "::"),
]  # fmt: skip


@pytest.mark.parametrize(("host", "named"), DISGUISED)
def test_registering_a_disguised_private_host_is_refused(
    api: APIClient, host: str, named: str
) -> None:
    answer = api.post(
        "/api/v1/webhooks/", {"url": f"https://{host}/hook", "events": ["fleet.completed"]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 400, host
    assert answer.json()["errors"]["url"] == [f"{named} is not a public address"]
    assert not Webhook.objects.exists()


PUBLIC_HOSTS = ["8.8.8.8", "0x08080808", "hook.example", "cafe.be", "deadbeef.example",
                "localhost.example.com", "bücher.example"]  # fmt: skip


@pytest.mark.parametrize("host", PUBLIC_HOSTS)
def test_public_hosts_and_names_are_registered(api: APIClient, host: str) -> None:
    answer = api.post(
        "/api/v1/webhooks/", {"url": f"https://{host}/hook", "events": ["fleet.completed"]},
        format="json",
    )  # fmt: skip
    assert answer.status_code == 201, (host, answer.content)


@pytest.mark.parametrize("address", ["224.0.0.1", "ff02::1", "0.0.0.0", "::"])
def test_multicast_and_unspecified_addresses_are_not_routable(address: str) -> None:
    assert not transport.routable(ipaddress.ip_address(address))


def test_a_delivery_refused_by_policy_fails_at_once_with_the_reason(
    org: Organisation, resolver: Install
) -> None:
    resolver({"hook.example": ["10.1.2.3"]})
    delivery = _delivery(org, "https://hook.example/hook")
    assert services.attempt(delivery_id=delivery.pk) is True  # nothing left to try
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.FAILED
    assert delivery.attempts == 1
    assert delivery.error == "hook.example is not a public address (10.1.2.3)"


def test_a_transient_failure_is_left_to_retry(
    org: Organisation, resolver: Install, http_port: int
) -> None:
    resolver({"hook.example": ["127.0.0.1"]})
    delivery = _delivery(org, f"http://hook.example:{http_port}/hook")
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        Receiver.answer = 503
        assert services.attempt(delivery_id=delivery.pk) is False
    delivery.refresh_from_db()
    assert delivery.status == WebhookDelivery.Status.PENDING and delivery.error == "HTTP 503"


def test_a_lab_may_register_a_private_address(api: APIClient) -> None:
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        answer = api.post(
            "/api/v1/webhooks/", {"url": _url("10.0.0.1"), "events": ["fleet.completed"]},
            format="json",
        )  # fmt: skip
    assert answer.status_code == 201


def _delivery(org: Organisation, url: str) -> WebhookDelivery:
    hook = Webhook.objects.create(organisation=org, url=url, secret="whsec_" + "A" * 44,
                                  events=["fleet.completed"])  # fmt: skip
    return WebhookDelivery.objects.create(
        webhook=hook, event="fleet.completed", message_id="msg_1", payload={"x": 1}
    )


@pytest.mark.parametrize(
    "answer", ["100.64.0.1", "10.1.2.3", "::ffff:192.168.1.1", "8.8.8.8,fc00::1"]
)
def test_a_name_that_resolves_to_a_private_address_is_refused(
    org: Organisation, resolver: Install, answer: str
) -> None:
    fake = resolver({"hook.example": [answer]})  # one private answer among others is enough
    status, error = services.send(_delivery(org, "https://hook.example/hook"))
    assert status is None
    assert error.startswith("hook.example is not a public address (")
    assert fake.lookups == ["hook.example"]


def test_the_delivery_connects_to_the_address_that_was_checked(
    org: Organisation, resolver: Install, http_port: int
) -> None:
    # A rebinding DNS server: the check gets loopback (allowed in this lab), a second
    # lookup would get 127.0.0.2, where nothing listens.
    fake = resolver({"hook.example": ["127.0.0.1", "127.0.0.2"]})
    delivery = _delivery(org, f"http://hook.example:{http_port}/hook?a=1")
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        assert services.send(delivery) == (204, "")
    assert fake.lookups == ["hook.example"]  # resolved once
    ((path, headers),) = Receiver.received
    assert path == "/hook?a=1"
    assert headers["host"] == f"hook.example:{http_port}"
    assert headers["webhook-id"] == "msg_1"


def test_tls_is_verified_against_the_urls_name_with_sni(
    org: Organisation, resolver: Install, authority: Authority, https_port: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr(transport, "tls_context", authority.client_context)
    resolver({"hook.example": ["127.0.0.1"], "other.example": ["127.0.0.1"]})
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        good = services.send(_delivery(org, f"https://hook.example:{https_port}/h"))
        Webhook.objects.all().delete()
        wrong = services.send(_delivery(org, f"https://other.example:{https_port}/h"))
    assert good == (204, "")
    assert authority.server_names[0] == "hook.example"
    assert Receiver.received[0][1]["host"] == f"hook.example:{https_port}"
    # The certificate names hook.example, not other.example: nothing is sent.
    assert wrong[0] is None and "certificate" in wrong[1].lower()
    assert len(Receiver.received) == 1


def test_a_redirect_is_not_followed(org: Organisation, http_port: int) -> None:
    Receiver.answer, Receiver.location = 302, "http://169.254.169.254/latest/meta-data/"
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        answer = services.send(_delivery(org, f"http://127.0.0.1:{http_port}/hook"))
    assert answer == (302, "HTTP 302")
    assert [path for path, _ in Receiver.received] == ["/hook"]
