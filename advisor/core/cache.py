"""The shared cache, failing open: when Redis is down the site keeps working without it.

Everything the cache holds can be done without it: token lookups go to the database, the
throttle lets requests through, a dropped entry is only a dropped entry. Django's
RedisCache raises on every call while Redis is unreachable, which answered 500 to every
token-authenticated API call and to the login (saving the user drops cached tokens). Here
a failed call is logged as a warning and answered as a miss; after a failure Redis is left
alone for RETRY_AFTER_S so a dead server costs each request nothing, not one connection
timeout per cache call. (The health check pings Redis itself: it says whether the
broker, not only the cache, can be reached.)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
RETRY_AFTER_S = 5.0
T = TypeVar("T")


class _Breaker:
    """Down since the last failure, for RETRY_AFTER_S; one warning per outage."""

    clock: Callable[[], float] = time.monotonic

    def __init__(self) -> None:
        self.down_until = 0.0
        self.warned = False

    def is_open(self) -> bool:
        return self.clock() < self.down_until

    def trip(self, exc: BaseException, operation: str) -> None:
        self.down_until = self.clock() + RETRY_AFTER_S
        if not self.warned:
            log.warning("cache unreachable (%s: %s); going on without it", operation, exc)
            self.warned = True

    def reset(self) -> None:
        if self.warned:
            log.warning("cache reachable again")
        self.down_until, self.warned = 0.0, False


BREAKER = _Breaker()


def is_down() -> bool:
    return BREAKER.is_open()


class FailOpenRedisCache(RedisCache):
    def _guard(self, operation: str, call: Callable[[], T], fallback: T) -> T:
        if BREAKER.is_open():
            return fallback
        try:
            value = call()
        except (RedisError, OSError) as exc:
            BREAKER.trip(exc, operation)
            return fallback
        if BREAKER.warned:
            BREAKER.reset()
        return value

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        get = super().get
        return self._guard("get", lambda: get(key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        get_many = super().get_many
        return self._guard("get_many", lambda: get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        has_key = super().has_key
        return self._guard("has_key", lambda: has_key(key, version), False)

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        add = super().add
        return self._guard("add", lambda: add(key, value, timeout, version), False)

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        write = super().set
        self._guard("set", lambda: write(key, value, timeout, version), None)

    def set_many(
        self, data: dict[Any, Any], timeout: Any = None, version: int | None = None
    ) -> list[Any]:
        write = super().set_many
        return self._guard("set_many", lambda: write(data, timeout, version), list(data))

    def touch(self, key: Any, timeout: Any = None, version: int | None = None) -> bool:
        touch = super().touch
        return self._guard("touch", lambda: touch(key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        delete = super().delete
        return self._guard("delete", lambda: delete(key, version), False)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        delete = super().delete_many
        self._guard("delete_many", lambda: delete(keys, version), None)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # A counter that cannot be read counts from nothing: the throttle lets it through.
        incr = super().incr
        return self._guard("incr", lambda: incr(key, delta, version), delta)

    def decr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        decr = super().decr
        return self._guard("decr", lambda: decr(key, delta, version), 0)

    def clear(self) -> None:
        clear = super().clear
        self._guard("clear", clear, None)
