"""What every API view shares: JSON bodies in, JSON errors out, query parameters refused
by name unless the operation takes them, lists in one shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib.auth.models import User
from rest_framework import exceptions
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from advisor.api.body import check_body
from advisor.api.conditional import PRECONDITION_FAILED, precondition_failed
from advisor.api.pagination import PAGE_PARAMETERS, Rows, StrictPageNumberPagination, paged
from advisor.api.parsers import StrictJSONParser
from advisor.api.query import QuerySpec, read_query
from advisor.api.query import reject_unknown_query as reject_unknown_query


class ContractJSONParser(StrictJSONParser):
    """JSON only, strict about numbers and size (advisor.api.parsers)."""


def request_user(request: Request) -> User:
    """The caller of a view that requires authentication (every one but the health check)."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user


class ApiView(APIView):
    parser_classes = [ContractJSONParser]
    # The query parameters each method takes ("get": a Query serializer, or names the
    # handler reads itself); a method not named takes none (advisor.api.query).
    query: ClassVar[dict[str, QuerySpec]] = {}
    query_data: dict[str, Any]

    def query_extra(self, method: str) -> tuple[str, ...]:
        """Parameters taken besides the declared ones (a list's page parameters)."""
        return ()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authenticated, throttled, permitted
        method = request.method.lower() if request.method else ""
        self.query_data = {}
        if method not in self.http_method_names or method == "options" or not hasattr(self, method):
            return  # DRF's own answers: the metadata, or 405 for a method not taken
        # HEAD is GET without the body (Django answers it with the GET handler): the same
        # parameters, validated alike, so a HEAD answers what its GET would.
        reading = "get" if method == "head" else method
        self.query_data = read_query(request, self.query.get(reading), self.query_extra(reading))
        check_body(self, request, method)

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


class ListView(ApiView):
    # A view whose GET answers a list: `count`, `next`, `previous`, `results`, paged by
    # `page` and `page_size` (advisor.api.pagination). A comment, not a docstring: the
    # schema would give it as the description of every operation of every list view.

    pagination_class = StrictPageNumberPagination

    def query_extra(self, method: str) -> tuple[str, ...]:
        return PAGE_PARAMETERS if method == "get" else ()

    def paged(self, rows: Rows, render: Callable[[list[Any]], Any]) -> Response:
        return paged(self, self.request, rows, render)


class FileView(ApiView):
    # Any Accept header gets the file (or a JSON error), never a 406. A precondition that
    # fails (If-Match naming another ETag, If-Unmodified-Since before the file's time:
    # advisor.core.downloads) answers 412 in the error envelope, as the schema declares.
    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        return super().perform_content_negotiation(request, force=True)

    def finalize_response(
        self, request: Request, response: Any, *args: Any, **kwargs: Any
    ) -> Response:
        if response.status_code == PRECONDITION_FAILED and not isinstance(response, Response):
            response = precondition_failed(request, response)
        return super().finalize_response(request, response, *args, **kwargs)
