"""/api/schema/'s view (its own module: drf-spectacular's views import the schema class,
advisor.api.autoschema, so that module cannot import them)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.autoschema import SchemaFormatNegotiation


class SchemaView(SpectacularAPIView):
    """/api/schema/: the document in YAML or JSON as `format` or Accept ask; an error (a
    `format` it has not, an Accept naming neither) in the JSON error envelope, as every
    API error, never in the document's YAML media type."""

    content_negotiation_class = SchemaFormatNegotiation

    def finalize_response(
        self, request: Request, response: Any, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        assert isinstance(response, Response)  # a DRF view's answer
        if response.status_code >= 400:
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response
