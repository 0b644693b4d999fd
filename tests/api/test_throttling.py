"""The API's rate limit: DRF's throttle with one budget per token, its Retry-After, one
budget for workers sharing Redis, and no token in the cache's keys; wrong API tokens
refused per address with 429 before any lookup."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient, APIRequestFactory

from advisor.api.throttling import TOKEN_FAILURES, TokenRateThrottle
from tests.api.conftest import ASSESSMENTS
from tests.conftest import require_service


class Clock:
    def __init__(self, now: float = 6000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def throttle(rate: str, clock: Clock, cache: BaseCache, key: str = "client") -> TokenRateThrottle:
    class Fixed(TokenRateThrottle):
        def get_rate(self) -> str:
            return rate

        def get_cache_key(self, request: Any, view: Any) -> str:
            return f"throttle-test:{key}"

    instance = Fixed()
    instance.timer = clock  # type: ignore[method-assign]
    instance.cache = cache
    return instance


def fresh_cache() -> LocMemCache:
    cache = LocMemCache(f"throttle-{id(object())}", {})
    cache.clear()
    return cache


def allowed(t: TokenRateThrottle) -> bool:
    return t.allow_request(None, None)  # type: ignore[arg-type]


def test_the_budget_is_spent_then_refused_with_a_retry_after() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("3/min", clock, cache)

    assert [allowed(t) for _ in range(4)] == [True, True, True, False]
    assert t.wait() == pytest.approx(60)


def test_a_request_leaves_the_window_a_period_after_it_was_made() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("4/min", clock, cache)
    assert allowed(t) and allowed(t)
    clock.now += 30
    assert allowed(t) and allowed(t)

    clock.now += 15
    assert not allowed(t)
    assert t.wait() == pytest.approx(15)  # the first two leave the window at 60 s
    clock.now += 15.001
    assert [allowed(t) for _ in range(3)] == [True, True, False]


def test_refused_requests_do_not_spend_the_budget() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("2/min", clock, cache)
    assert [allowed(t) for _ in range(3)] == [True, True, False]
    wait = t.wait()
    assert wait is not None
    for _ in range(20):
        assert not allowed(t)

    clock.now += wait + 1e-6
    assert allowed(t)


def test_clients_have_separate_budgets() -> None:
    clock, cache = Clock(), fresh_cache()
    first, second = (throttle("1/min", clock, cache, key) for key in ("a", "b"))

    assert (allowed(first), allowed(first), allowed(second)) == (True, False, True)


@settings(max_examples=150, deadline=None)
@given(
    limit=st.integers(1, 8),
    gaps=st.lists(st.floats(0, 130, allow_nan=False), min_size=1, max_size=30),
)
def test_retry_after_is_exact(limit: int, gaps: list[float]) -> None:
    """After a refusal, one request fits at now + wait, and none fits just before it."""
    clock, cache = Clock(), fresh_cache()
    t = throttle(f"{limit}/min", clock, cache)
    for gap in gaps:
        clock.now += gap
        if allowed(t):
            continue
        wait = t.wait()
        assert wait is not None and 0 <= wait <= 60
        start = clock.now
        if wait > 1e-6:
            clock.now = start + wait - 1e-6
            assert not allowed(t)
        clock.now = start + wait + 1e-6
        assert allowed(t)


@pytest.fixture
def redis_cache() -> Iterator[RedisCache]:
    require_service("Redis", "127.0.0.1", 6379)
    url = os.environ.get("REDIS_URL_FOR_TESTS", "redis://127.0.0.1:6379/15")
    cache = RedisCache(url, {"KEY_PREFIX": f"throttle-test-{os.getpid()}"})
    cache.delete("throttle-test:shared")
    yield cache
    cache.delete("throttle-test:shared")


def test_workers_sharing_redis_share_one_budget(redis_cache: RedisCache) -> None:
    # Four workers, each with its own throttle object, take turns: one budget of 100.
    clock = Clock()
    workers = [throttle("100/min", clock, redis_cache, "shared") for _ in range(4)]

    admitted = [allowed(workers[n % 4]) for n in range(240)]

    assert sum(admitted) == 100
    assert not any(admitted[100:])


def test_the_cache_key_holds_a_digest_of_the_token_not_the_token(user: User) -> None:
    token = Token.objects.create(user=user)
    request = APIRequestFactory().get(ASSESSMENTS)
    request.user, request.auth = user, token  # as the authentication leaves them

    key = TokenRateThrottle().get_cache_key(request, None)  # type: ignore[arg-type]

    assert key is not None and token.key not in key
    assert key == TokenRateThrottle().get_cache_key(request, None)  # type: ignore[arg-type]


# Wrong tokens, per client address (TokenFailures): counted apart from DRF's throttles,
# which tests/settings.py turns off.

GUESSER, PIPELINE = "203.0.113.9", "198.51.100.30"


def _guess(address: str, key: str = "0" * 40) -> Any:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client.get(ASSESSMENTS, REMOTE_ADDR=address)


@pytest.fixture
def failures(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock(6000.0 + 15)  # 15 s into a minute
    monkeypatch.setattr(TOKEN_FAILURES, "clock", clock)
    return clock


@override_settings(API_TOKEN_FAILURES_PER_MINUTE=3)
def test_wrong_tokens_from_an_address_are_answered_429_before_any_lookup(
    failures: Clock, api: APIClient, django_assert_num_queries: Any
) -> None:
    assert [_guess(GUESSER).status_code for _ in range(3)] == [401, 401, 401]
    with django_assert_num_queries(0):  # the token is not even looked up
        refused = _guess(GUESSER)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "45"  # the rest of the minute
    assert refused.json()["code"] == "throttled"
    # A right token from that address waits too; from another address it works.
    key = Token.objects.get().key
    assert _guess(GUESSER, key).status_code == 429
    assert _guess(PIPELINE, key).status_code == 200


@override_settings(API_TOKEN_FAILURES_PER_MINUTE=3)
def test_the_address_may_try_again_the_next_minute(failures: Clock, user: User) -> None:
    for _ in range(3):
        _guess(GUESSER)
    assert _guess(GUESSER).status_code == 429
    failures.now += 45
    key = Token.objects.create(user=user).key
    assert _guess(GUESSER, key).status_code == 200
    assert _guess(GUESSER).status_code == 401


@override_settings(API_TOKEN_FAILURES_PER_MINUTE=3)
def test_requests_without_a_token_are_not_counted_or_refused(failures: Clock, db: None) -> None:
    for _ in range(5):
        assert APIClient().get(ASSESSMENTS, REMOTE_ADDR=GUESSER).status_code in (401, 403)
    assert _guess(GUESSER).status_code == 401  # the first wrong token: counted from one
