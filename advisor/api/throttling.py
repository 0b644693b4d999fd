"""Rate limits per API token (REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]), and wrong tokens
per client address (TokenFailures).

A pipeline usually holds one token per environment, so the budget follows the token, not
the user: two pipelines of one user do not starve each other. Counters live in the default
cache: shared through Redis when REDIS_URL is set, per process otherwise.

DRF's SimpleRateThrottle keeps one timestamp per request in the window and rewrites the
whole list on every request: at 6000/minute that is thousands of floats serialised both
ways per call, and with several workers on Redis the read-modify-write loses updates.
Here a client's state is two integers, this window's count and the previous window's,
kept with the cache's atomic `incr`, and the rate is the usual sliding-window estimate

    previous x (1 - elapsed / duration) + current  <=  requests allowed per duration
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    # rest_framework.views imports this module (DEFAULT_THROTTLE_CLASSES) while it loads.
    from rest_framework.request import Request
    from rest_framework.views import APIView


class SlidingWindowThrottle(SimpleRateThrottle):
    """A sliding-window counter over two fixed windows."""

    # The time the windows are cut from. Wall-clock time, not a monotonic clock: processes
    # sharing counters through Redis must agree on where a window starts.
    clock: Callable[[], float] = time.time
    # Set by SimpleRateThrottle.__init__ from the rate ("100/min" -> 100, 60).
    num_requests: int | None
    duration: int | None
    # (previous, current, elapsed) as seen by the last refusal; `wait` reads it.
    _state: tuple[int, int, float] = (0, 0, 0.0)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None or self.num_requests is None or self.duration is None:
            return True
        key = self.get_cache_key(request, view)
        if key is None:
            return True
        self.now = self.clock()
        window = int(self.now // self.duration)
        current_key = f"{key}:{window}"
        self.cache.add(current_key, 0, 2 * self.duration)
        try:
            current: int = self.cache.incr(current_key)
        except ValueError:  # culled between add and incr (the local cache culls when full)
            self.cache.set(current_key, current := 1, 2 * self.duration)
        previous: int = self.cache.get(f"{key}:{window - 1}", 0)
        elapsed = self.now - window * self.duration
        if self._estimate(previous, current, elapsed) <= self.num_requests:
            return True
        # A refused request does not spend the budget: a client that keeps retrying while
        # throttled gets in as soon as the window allows, as with DRF's own throttle.
        self.cache.decr(current_key)
        self._state = (previous, current - 1, elapsed)
        return False

    def _estimate(self, previous: int, current: int, elapsed: float) -> float:
        assert self.duration is not None
        return previous * (1 - elapsed / self.duration) + current

    def wait(self) -> float | None:
        """Seconds until one more request fits, from the state seen when it was refused."""
        if self.num_requests is None or self.duration is None:
            return None
        previous, current, elapsed = self._state
        room = self.num_requests - current - 1  # what the previous window may still weigh
        if room >= 0 and previous > 0:
            # Within this window, once the previous window's weight has faded enough.
            at = self.duration * (1 - room / previous)
            if at < self.duration:
                return max(at - elapsed, 0.0)
        # Next window: this window's count becomes the fading one.
        fade = self.duration * (1 - (self.num_requests - 1) / current) if current else 0.0
        return self.duration - elapsed + max(fade, 0.0)


class TokenRateThrottle(SlidingWindowThrottle):
    """Authenticated requests: one budget per token (per user for session logins)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        if isinstance(request.auth, Token):
            # The key is a credential; keep only a digest of it in the cache.
            ident = "token-" + hashlib.sha256(request.auth.key.encode()).hexdigest()[:32]
        else:
            ident = f"user-{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class AnonymousRateThrottle(SlidingWindowThrottle):
    """Unauthenticated requests, by client address (they only ever earn a 401)."""

    scope = "anon"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenFailures:
    """Wrong API tokens, counted per client address in fixed windows of WINDOW_S.

    DRF authenticates before it throttles, so a wrong token was answered 401 before any
    throttle counted it: guessing tokens cost the guesser nothing. The authentication
    (advisor.api.authentication) asks `wait` before it looks a token up, and calls
    `record` for each one refused. It counts in the cache itself, apart from
    DEFAULT_THROTTLE_CLASSES, so it holds whatever throttles a site configures.
    """

    WINDOW_S = 60
    # A pipeline that holds a revoked token fails a few times a minute, not hundreds;
    # API_TOKEN_FAILURES_PER_MINUTE in the settings overrides it.
    DEFAULT_LIMIT = 20
    # Wall-clock time, as for SlidingWindowThrottle: workers on one Redis share windows.
    clock: Callable[[], float] = time.time

    @property
    def limit(self) -> int:
        return int(getattr(settings, "API_TOKEN_FAILURES_PER_MINUTE", self.DEFAULT_LIMIT))

    def _key(self, address: str, window: int) -> str:
        return f"api-token-failures:{address}:{window}"

    def wait(self, address: str) -> float | None:
        """Seconds until this address may try a token again, or None if it may now."""
        now = self.clock()
        window = int(now // self.WINDOW_S)
        if cache.get(self._key(address, window), 0) < self.limit:
            return None
        return (window + 1) * self.WINDOW_S - now

    def record(self, address: str) -> None:
        key = self._key(address, int(self.clock() // self.WINDOW_S))
        cache.add(key, 0, 2 * self.WINDOW_S)
        try:
            cache.incr(key)
        except ValueError:  # culled between add and incr
            cache.set(key, 1, 2 * self.WINDOW_S)


TOKEN_FAILURES = TokenFailures()
