"""Content negotiation that reads `q=0` as RFC 9110 §12.4.2 does: "not acceptable".

DRF orders the Accept header's media ranges by how specific they are and ignores their
weights, so `Accept: application/json;q=0, text/html` got JSON. Here a renderer whose most
specific matching range has q=0 is left out before DRF chooses; with none left, 406.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.utils.mediatypes import _MediaType


def _weight(media_range: _MediaType) -> float:
    try:
        return float(media_range.params.get("q", "1"))
    except ValueError:
        return 1.0  # a weight that is no number: DRF's reading, acceptable


def refused(media_type: str, accepted: list[_MediaType]) -> bool:
    """Whether the most specific range of `accepted` that matches `media_type` has q=0."""
    renderer = _MediaType(media_type)
    matching = [r for r in accepted if renderer.match(r)]
    if not matching:
        return False
    return _weight(max(matching, key=lambda r: r.precedence)) == 0


class WeightedContentNegotiation(DefaultContentNegotiation):
    """REST_FRAMEWORK["DEFAULT_CONTENT_NEGOTIATION_CLASS"]."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> Any:
        accepted = [_MediaType(token) for token in self.get_accept_list(request)]
        kept = [r for r in renderers if not refused(r.media_type, accepted)]
        return super().select_renderer(request, kept, format_suffix)
