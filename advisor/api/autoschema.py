"""The schema class of every API view (REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]).

drf-spectacular's own describes an operation by its handler's or view's docstring, which
here are written for maintainers (they name modules and internals). This one gives the
operation's own `extend_schema(description=...)` (which wraps it) or its entry in
advisor.api.descriptions, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

from advisor.api.descriptions import DESCRIPTIONS
from advisor.api.negotiation import WeightedContentNegotiation


class ContractAutoSchema(AutoSchema):
    def get_description(self) -> str:  # type: ignore[override]  # drf-spectacular's signature
        return DESCRIPTIONS.get(self.get_operation_id(), "")


class SchemaFormatNegotiation(WeightedContentNegotiation):
    """The schema document's own `?format=json|yaml` (drf-spectacular documents it; the
    schema lists no operation for the document). API operations take no `format`: the
    URL format override is off for them (REST_FRAMEWORK["URL_FORMAT_OVERRIDE"])."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> Any:
        chosen = format_suffix or request.query_params.get("format")
        return super().select_renderer(request, renderers, chosen)
