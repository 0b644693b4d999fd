"""Refuse bodies over settings.MAX_REQUEST_BYTES with 413 before anything reads them.

A view that takes collector bundles (a few MB of command output) says so with
`@takes_bundles` (or a `max_body_bytes` class attribute on a DRF view); its limit is
settings.MAX_BUNDLE_BYTES instead.

Django only checks DATA_UPLOAD_MAX_MEMORY_SIZE when `request.body` is read (and then
answers 400), while DRF's parsers read the stream directly and are not checked at all.
So the size is judged here from Content-Length. A chunked body has none: Django would
silently see it as empty, so it is read here, at most one byte past the limit, and handed
on as if it had come with a Content-Length.

The API is answered in its JSON envelope; a page in the site's layout, with the limit in
MB (advisor.core.refused_body), or the view's own form when it says it answers refusals.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve

from advisor.core.errors import envelope, is_api
from advisor.core.refused_body import too_large_page

Handler = Callable[[HttpRequest], HttpResponse]
F = TypeVar("F", bound=Callable[..., Any])


def takes_bundles(view: F) -> F:
    """Mark a view as one that reads collector bundles: MAX_BUNDLE_BYTES applies to it."""
    view.max_body_bytes = settings.MAX_BUNDLE_BYTES  # type: ignore[attr-defined]
    return view


def _limit_for(request: HttpRequest, default: int) -> int:
    try:
        func = resolve(request.path_info).func
    except Resolver404:
        return default
    owner = getattr(func, "view_class", func)
    return int(getattr(func, "max_body_bytes", getattr(owner, "max_body_bytes", default)))


def _too_large(
    request: HttpRequest, limit: int, size: int | None, get_response: Handler
) -> HttpResponse:
    if is_api(request):
        detail = f"The request body is larger than {limit} bytes."
        return JsonResponse(envelope("too_large", detail), status=413)
    return too_large_page(request, limit, size, get_response)


def _length_required(request: HttpRequest) -> HttpResponse:
    detail = "A request body needs a Content-Length header."
    if is_api(request):
        return JsonResponse(envelope("length_required", detail), status=411)
    return HttpResponse(detail, status=411, content_type="text/plain; charset=utf-8")


def _declared_length(request: HttpRequest) -> int | None:
    raw = request.META.get("CONTENT_LENGTH") or ""
    try:
        return int(raw)
    except ValueError:
        return None


def _is_chunked(request: HttpRequest) -> bool:
    return "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower()


class RequestSizeLimitMiddleware:
    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response
        # Read once: Django builds its middleware chain at start-up.
        self.limit: int = settings.MAX_REQUEST_BYTES
        # Below this no view's limit can be passed, so most requests skip the URL lookup.
        self.floor: int = min(self.limit, settings.MAX_BUNDLE_BYTES)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _declared_length(request)
        limit = self.limit
        if (length is not None and length > self.floor) or (
            length is None and _is_chunked(request)
        ):
            limit = _limit_for(request, self.limit)
        if length is not None and length > limit:
            return _too_large(request, limit, length, self.get_response)
        if length is None and _is_chunked(request):
            refused = self._read_chunked(request, limit)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _read_chunked(self, request: HttpRequest, limit: int) -> HttpResponse | None:
        environ = request.META
        # Only a server that decodes chunked framing and marks the stream's end can be read
        # safely (gunicorn does); anything else could block waiting for a length.
        if not environ.get("wsgi.input_terminated"):
            return _length_required(request)
        data = environ["wsgi.input"].read(limit + 1)
        if len(data) > limit:
            return _too_large(request, limit, None, self.get_response)
        environ["CONTENT_LENGTH"] = str(len(data))
        # Django and DRF read from these; replacing them is how Django itself re-reads a body.
        request._body = data
        request._stream = io.BytesIO(data)
        return None


class QueryTextMiddleware:
    """A page whose query string holds NUL answers 400 naming the parameter: no page can
    search for it (PostgreSQL refuses NUL in text), and a crash is no answer. The API
    judges its parameters itself (a log's name drops NUL; a filter refuses it)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        raw = request.META.get("QUERY_STRING", "")
        if ("%00" in raw or "\x00" in raw) and not is_api(request):
            names = sorted({name for name, values in request.GET.lists()
                            if any("\x00" in v for v in [name, *values])})  # fmt: skip
            if names:
                shown = ", ".join(name.replace("\x00", "\\0") for name in names)
                detail = f"A query parameter holds a NUL character: {shown}."
                return HttpResponse(detail, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
