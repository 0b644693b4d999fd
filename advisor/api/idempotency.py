"""The Idempotency-Key header every create takes (advisor.core.idempotency stores it).

A retry with the same key and the same request is answered 200 with what the first
attempt stored; the same key with another request is 409 in the error envelope. A key is
remembered within the collection it was posted to: the organisation's assessments, fleets,
logs and webhooks, an assessment's reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.request import Request

from advisor.api.exceptions import Conflict
from advisor.api.schemas import error_responses
from advisor.core.idempotency import IdempotencyConflict

IDEMPOTENCY_HEADER = "Idempotency-Key"
# Stored in the models' idempotency_key columns (255 characters); visible ASCII so it
# survives every proxy and log line unchanged; no comma, the separator servers join a
# header sent twice with (two keys must never read as one key "a,b").
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x2b\x2d-\x7e]{1,255}$"
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
KEY_MESSAGE = (
    "must be 1-255 visible ASCII characters, no comma (a header sent twice arrives as its "
    "values joined by commas: send one)"
)


def idempotency_parameter(what: str) -> OpenApiParameter:
    """The header as the schema documents it on a create of `what` ("the assessment")."""
    return OpenApiParameter(
        IDEMPOTENCY_HEADER,
        type={"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN, "maxLength": 255},
        location=OpenApiParameter.HEADER,
        description=f"A retry with the same key and the same request answers 200 with {what} "
        "the first attempt stored; the same key with another request is refused (409).",
    )


def retried_responses(serializer: Any, code: int, what: str) -> dict[int, Any]:
    """A keyed create's answers: `code` when it is made, 200 for a retry, and the errors
    (409 among them)."""
    return {
        code: serializer,
        200: OpenApiResponse(serializer, f"a retry: {what} made before, as it is now"),
        **error_responses(400, 401, 404, 409, 429),
    }


def idempotency_key(request: Request) -> str | None:
    """The header's value, or None when absent; a malformed key is a 400 by its name."""
    raw = request.headers.get(IDEMPOTENCY_HEADER)
    if raw is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(raw):
        raise serializers.ValidationError({IDEMPOTENCY_HEADER: [KEY_MESSAGE]})
    return raw


@contextmanager
def conflicts_refused() -> Iterator[None]:
    """An IdempotencyConflict raised inside is the API's 409, naming the header and what
    the key was used for."""
    try:
        yield
    except IdempotencyConflict as exc:
        kind = exc.stored._meta.verbose_name
        message = f"was used before with another request (for {kind} {exc.stored.pk})"
        raise Conflict(
            f"{IDEMPOTENCY_HEADER} {message}: send a new key for a new request.",
            {IDEMPOTENCY_HEADER: [message]},
        ) from None
