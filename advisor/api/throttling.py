"""Rate limits per API token (REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]), and wrong tokens
per client address (TokenFailures).

The rates are DRF's own throttles: a client's request times over the last period, kept in
the default cache (shared through Redis when REDIS_URL is set, per process otherwise;
while Redis is down the cache fails open and nothing is throttled). A pipeline usually
holds one token per environment, so the budget follows the token, not the user: two
pipelines of one user do not starve each other. Anonymous calls use DRF's
AnonRateThrottle, per client address. advisor.api.base.ApiView checks the throttles
before the permissions, so an anonymous caller is counted too.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.throttling import UserRateThrottle

if TYPE_CHECKING:
    # rest_framework.views imports this module (DEFAULT_THROTTLE_CLASSES) while it loads.
    from rest_framework.request import Request
    from rest_framework.views import APIView


class TokenRateThrottle(UserRateThrottle):
    """Authenticated requests: one budget per token (per user for session logins)."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if not (request.user and request.user.is_authenticated):
            return None
        if isinstance(request.auth, Token):
            # The key is a credential; keep only a digest of it in the cache.
            ident = "token-" + hashlib.sha256(request.auth.key.encode()).hexdigest()[:32]
        else:
            ident = f"user-{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


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
    # Wall-clock time, not a monotonic clock: workers on one Redis must agree on windows.
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
