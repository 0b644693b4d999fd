"""What every API view shares: JSON bodies in, JSON errors out."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.parsers import StrictJSONParser


class ContractJSONParser(StrictJSONParser):
    """JSON only, strict about numbers and size (advisor.api.parsers)."""


def reject_unknown_query(request: Request, allowed: tuple[str, ...]) -> None:
    """A 400 naming each query parameter the operation does not take (a typo in a filter
    would otherwise be silently ignored)."""
    unknown = sorted(set(request.query_params) - set(allowed))
    if unknown:
        raise exceptions.ValidationError({name: ["is not a parameter of this operation"]
                                          for name in unknown})  # fmt: skip


def request_user(request: Request) -> User:
    """The caller of a view that requires authentication (every one but the health check)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


class ApiView(APIView):
    parser_classes = [ContractJSONParser]

    def check_permissions(self, request: Request) -> None:
        # DRF checks permissions before throttles, so an anonymous caller, who only ever
        # earns a 401, was never counted: the anonymous rate never applied. Throttle first.
        super().check_throttles(request)
        super().check_permissions(request)

    def check_throttles(self, request: Request) -> None:
        """Done in check_permissions, before the permission check."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        # Errors are JSON whatever the client accepts: never the browsable API's HTML page.
        if isinstance(response, Response) and response.status_code >= 400:
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response


class FileView(ApiView):
    # Any Accept header gets the file (or a JSON error), never a 406.
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return super().perform_content_negotiation(request, force=True)
