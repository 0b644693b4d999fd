"""Rate limits per API token (REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]).

A pipeline usually holds one token per environment, so the budget follows the token, not
the user: two pipelines of one user do not starve each other. Rates and classes are read
from the settings on every request, not at import, so a deployment (or a test) changing
REST_FRAMEWORK takes effect without reloading the views. Counters live in the default
cache: shared through Redis when REDIS_URL is set, per process otherwise.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from rest_framework.authtoken.models import Token
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

if TYPE_CHECKING:
    # rest_framework.views imports this module (DEFAULT_THROTTLE_CLASSES) while it loads.
    from rest_framework.request import Request
    from rest_framework.views import APIView


class _SettingsRates(SimpleRateThrottle):
    def get_rate(self) -> str | None:
        rate: str | None = api_settings.DEFAULT_THROTTLE_RATES.get(self.scope or "")
        return rate


class TokenRateThrottle(_SettingsRates):
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


class AnonymousRateThrottle(_SettingsRates):
    """Unauthenticated requests, by client address (they only ever earn a 401)."""

    scope = "anon"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user and request.user.is_authenticated:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
