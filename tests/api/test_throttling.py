"""The sliding-window throttle: its arithmetic, its Retry-After, and exact counts on Redis."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from hypothesis import given, settings
from hypothesis import strategies as st

from advisor.api.throttling import SlidingWindowThrottle
from tests.conftest import require_service


class Clock:
    def __init__(self, now: float = 6000.0) -> None:  # a window boundary for any duration
        self.now = now

    def __call__(self) -> float:
        return self.now


def throttle(
    rate: str, clock: Clock, cache: BaseCache, key: str = "client"
) -> SlidingWindowThrottle:
    class Fixed(SlidingWindowThrottle):
        scope = "test"

        def get_rate(self) -> str:
            return rate

        def get_cache_key(self, request: Any, view: Any) -> str:
            return f"throttle-test:{key}"

    instance = Fixed()
    instance.clock = clock
    instance.cache = cache
    return instance


def fresh_cache() -> LocMemCache:
    cache = LocMemCache(f"throttle-{id(object())}", {})
    cache.clear()
    return cache


def allowed(t: SlidingWindowThrottle) -> bool:
    return t.allow_request(None, None)  # type: ignore[arg-type]


def test_the_budget_is_spent_then_refused_with_a_retry_after() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("3/min", clock, cache)

    assert [allowed(t) for _ in range(4)] == [True, True, True, False]
    assert t.wait() == pytest.approx(60 + 60 * (1 - 2 / 3))


def test_the_previous_window_fades_linearly() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("4/min", clock, cache)
    assert all(allowed(t) for _ in range(4))

    clock.now += 90  # halfway through the next window: the 4 earlier weigh 2
    assert [allowed(t) for _ in range(3)] == [True, True, False]
    assert t.wait() == pytest.approx(15)  # at 3/4 of the window they weigh 1


def test_refused_requests_do_not_spend_the_budget() -> None:
    clock, cache = Clock(), fresh_cache()
    t = throttle("2/min", clock, cache)
    assert [allowed(t) for _ in range(3)] == [True, True, False]
    wait = t.wait()
    assert wait is not None
    for _ in range(20):
        assert not allowed(t)

    clock.now += wait
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
        assert wait is not None and 0 <= wait <= 120
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
    cache.delete_many([f"throttle-test:shared:{w}" for w in range(99, 102)])
    yield cache
    cache.delete_many([f"throttle-test:shared:{w}" for w in range(99, 102)])


def test_workers_sharing_redis_admit_exactly_the_budget(redis_cache: RedisCache) -> None:
    # Four workers, each with its own throttle object and connection, race for 100
    # requests: the count is atomic, so exactly 100 get in (a rewritten list loses some).
    clock = Clock(6000.0)  # window 100 of a minute
    admitted: list[int] = []

    def worker() -> None:
        t = throttle("100/min", clock, redis_cache, "shared")
        admitted.append(sum(allowed(t) for _ in range(60)))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sum(admitted) == 100
