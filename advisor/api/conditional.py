"""Conditional downloads (advisor.core.downloads) as the contract gives them: the headers
the schema documents, the 304 and 412 it declares, and the 412 in the error envelope."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.schemas import ref
from advisor.core.errors import envelope

PRECONDITION_FAILED = 412
PRECONDITION_DETAIL = (
    "The file is not the one the request's precondition names: nothing was sent. ETag and "
    "Last-Modified give the current one."
)

CONDITIONAL_PARAMETERS = [
    OpenApiParameter(
        "If-None-Match", str, OpenApiParameter.HEADER,
        description="the ETag of the copy the client has: 304 while the file is the same",
    ),
    OpenApiParameter(
        "If-Modified-Since", str, OpenApiParameter.HEADER,
        description="an HTTP date (when the client saved its copy): 304 unless the file "
        "changed since (If-None-Match wins when both are sent)",
    ),
    OpenApiParameter(
        "If-Match", str, OpenApiParameter.HEADER,
        description="ETags (or *): the file only if it still has one of them, else 412",
    ),
    OpenApiParameter(
        "If-Unmodified-Since", str, OpenApiParameter.HEADER,
        description="an HTTP date: the file only if it has not changed since, else 412 "
        "(If-Match wins when both are sent)",
    ),
]  # fmt: skip


def conditional_responses() -> dict[int, Any]:
    return {
        304: OpenApiResponse(
            description="Not modified: the copy the client has is current (no body; the "
            "same ETag and Last-Modified)."
        ),
        412: OpenApiResponse(
            ref("Error"),
            "Precondition failed: If-Match names no current ETag, or the file changed "
            "since If-Unmodified-Since; `errors` names the header. Nothing is sent.",
        ),
    }


def precondition_failed(request: Request, failed: Any) -> Response:
    """The 412 Django's conditional check answered (empty, text/html) in the envelope,
    naming the header that failed (If-Match wins when both are sent, RFC 9110 §13.2.2),
    with the file's current validators."""
    if "If-Match" in request.headers:
        errors = {"If-Match": ["names no current ETag of this file"]}
    else:
        errors = {"If-Unmodified-Since": ["is before the file's Last-Modified time"]}
    validators = {h: failed[h] for h in ("ETag", "Last-Modified") if h in failed}
    body = envelope("precondition_failed", PRECONDITION_DETAIL, errors)
    return Response(body, status=PRECONDITION_FAILED, headers=validators)
