"""Redis down: the cache fails open. Token calls read the token from the database, the
throttle lets requests through with one logged warning, the web login and pages work,
health says degraded. Before the fail-open cache each of these answered 500.

"Down" is a real Redis client pointed at a loopback port nothing listens on: every call
is refused by the kernel, as when the server has died."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from advisor.core import cache as failopen
from tests.api.conftest import ASSESSMENTS
from tests.conftest import unreachable_redis_caches

HEALTH = "/api/v1/health/"


class Clock:
    """The breaker's clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(failopen.BREAKER, "clock", fake)
    monkeypatch.setattr(failopen.BREAKER, "down_until", 0.0)
    monkeypatch.setattr(failopen.BREAKER, "warned", False)
    return fake


@pytest.fixture
def redis_down(clock: Clock) -> Iterator[str]:
    url, caches = unreachable_redis_caches()
    with override_settings(CACHES=caches, REDIS_URL=url):
        yield url


def test_token_calls_and_the_throttle_work_without_redis(
    redis_down: str,
    clock: Clock,
    api: APIClient,
    lemans: dict[str, Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    failopen.BREAKER.down_until, failopen.BREAKER.warned = 0.0, False  # the outage starts
    with caplog.at_level(logging.WARNING, logger="advisor.core.cache"):
        created = api.post(ASSESSMENTS, lemans, format="json")
        clock.now += failopen.RETRY_AFTER_S + 1  # tried again, still down
        listed = api.get(ASSESSMENTS)

    assert created.status_code == 201, created.content
    assert listed.status_code == 200
    warnings = [r for r in caplog.records if "cache unreachable" in r.getMessage()]
    assert len(warnings) == 1  # once per outage, not once per call


def test_the_web_login_and_pages_work_without_redis(redis_down: str, user: User) -> None:
    Token.objects.create(user=user)  # a login saves the user, which drops its cached tokens
    browser = Client()
    login = browser.post("/accounts/login/", {"username": "alice", "password": "pw-alice"})
    assert login.status_code == 302, login.content

    assert browser.get("/").status_code == 200
    assert browser.get("/assessments/new/").status_code == 200


def test_health_says_degraded_without_redis(redis_down: str, db: None) -> None:
    response = APIClient().get(HEALTH)
    assert response.status_code == 200
    assert response.json()["status"] == "degraded"


def test_the_cache_is_tried_again_after_the_pause(clock: Clock, db: None) -> None:
    _, caches = unreachable_redis_caches()
    with override_settings(CACHES=caches):
        assert cache.get("k", "miss") == "miss"
        assert failopen.is_down()
        clock.now += failopen.RETRY_AFTER_S + 0.1
        assert not failopen.is_down()
        assert cache.add("k", 1) is False
        assert failopen.is_down()  # still dead: paused again
