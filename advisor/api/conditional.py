"""How the schema documents a download that answers 304 (advisor.core.downloads)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

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
]  # fmt: skip


def not_modified() -> dict[int, Any]:
    return {
        304: OpenApiResponse(
            description="Not modified: the copy the client has is current (no body; the "
            "same ETag and Last-Modified)."
        )
    }
