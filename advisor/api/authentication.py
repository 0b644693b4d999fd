"""Token authentication that remembers a token for TOKEN_CACHE_SECONDS.

DRF looks every token up in the database on every request; for a pipeline posting an
inventory that lookup (a join over token, user, membership and organisation) costs more
than the answer when the answer is already known. The lookup is kept in the default cache
and dropped as soon as this process sees the token, its user or the membership change.
Without Redis the cache is per process, so another worker may honour a revoked token or an
old membership for at most TOKEN_CACHE_SECONDS; with REDIS_URL set the drop is everywhere.

Wrong tokens are counted per client address (throttling.TokenFailures): past the limit an
address is answered 429 with Retry-After before its token is even looked up, a right
token from it included, until the minute is over.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models.signals import post_delete, post_save
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from advisor.api.throttling import TOKEN_FAILURES
from advisor.core.security import client_ip
from advisor.models import Membership

TOKEN_CACHE_SECONDS = 30


def token_cache_key(key: str) -> str:
    # The key is a credential: only a digest of it goes into the cache.
    return "api-token:" + hashlib.sha256(key.encode()).hexdigest()


# `Authorization: Token <key>` (DRF's scheme) or `Bearer <key>` (RFC 6750's, which
# generated clients and Swagger UI send by default): the same key either way.
SCHEMES = ("Token", "Bearer")
HOW = "send `Authorization: Token <key>` or `Authorization: Bearer <key>`"


def authorization_errors(request: Request, detail: str) -> dict[str, list[str]]:
    """A 401's `errors`: what is wrong with the request's Authorization header."""
    words = get_authorization_header(request).split()
    if not words:
        problem = f"is missing: {HOW}"
    elif words[0].lower() not in {s.lower().encode() for s in SCHEMES}:
        scheme = words[0].decode("latin-1")
        problem = f"uses the scheme {scheme!r}, which this API does not take: {HOW}"
    else:
        problem = detail
    return {"Authorization": [problem]}


class CachedTokenAuthentication(TokenAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, Token] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() not in {s.lower().encode() for s in SCHEMES}:
            return None  # no token offered: nothing to count
        address = client_ip(request)
        wait = TOKEN_FAILURES.wait(address)
        if wait is not None:
            raise exceptions.Throttled(wait, detail="Too many wrong tokens from this address.")
        try:
            return self._credentials(words)
        except exceptions.AuthenticationFailed:
            TOKEN_FAILURES.record(address)
            raise

    def _credentials(self, words: list[bytes]) -> tuple[Any, Token]:
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                "Invalid Authorization header: one key after the scheme, no spaces."
            )
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        cache_key = token_cache_key(key)
        token: Token | None = cache.get(cache_key)
        if token is None:
            related = "user__membership__organisation"
            try:
                token = Token.objects.select_related(related).get(key=key)
            except Token.DoesNotExist:
                raise exceptions.AuthenticationFailed("Invalid token.") from None
            cache.set(cache_key, token, TOKEN_CACHE_SECONDS)
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return token.user, token


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The schema's security scheme: HTTP bearer (what generated clients send by default),
    `Token <key>` taken alike."""

    target_class = CachedTokenAuthentication
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "The API token: `Authorization: Bearer <key>`, or "
            "`Authorization: Token <key>` (the same key).",
        }


def forget_user_tokens(user_id: int | None) -> None:
    if user_id is None:
        return
    keys = Token.objects.filter(user_id=user_id).values_list("key", flat=True)
    cache.delete_many([token_cache_key(k) for k in keys])


def _token_changed(sender: Any, instance: Token, **kwargs: Any) -> None:
    cache.delete(token_cache_key(instance.key))


def _user_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget_user_tokens(instance.pk)


def _membership_changed(sender: Any, instance: Membership, **kwargs: Any) -> None:
    forget_user_tokens(instance.user_id)


for _signal in (post_save, post_delete):
    _signal.connect(_token_changed, sender=Token, dispatch_uid=f"api-token-{_signal}")
    _signal.connect(
        _user_changed, sender=settings.AUTH_USER_MODEL, dispatch_uid=f"api-user-{_signal}"
    )
    _signal.connect(_membership_changed, sender=Membership, dispatch_uid=f"api-member-{_signal}")
