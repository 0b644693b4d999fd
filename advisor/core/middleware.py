"""Refuse bodies over settings.MAX_REQUEST_BYTES with 413 before anything reads them.

Django only checks DATA_UPLOAD_MAX_MEMORY_SIZE when `request.body` is read (and then
answers 400), while DRF's parsers read the stream directly and are not checked at all.
So the size is judged here from Content-Length. A chunked body has none: Django would
silently see it as empty, so it is read here, at most one byte past the limit, and handed
on as if it had come with a Content-Length.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from advisor.core.errors import envelope, is_api

Handler = Callable[[HttpRequest], HttpResponse]


def _too_large(request: HttpRequest, limit: int) -> HttpResponse:
    detail = f"The request body is larger than {limit} bytes."
    if is_api(request):
        return JsonResponse(envelope("too_large", detail), status=413)
    return HttpResponse(detail, status=413, content_type="text/plain; charset=utf-8")


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

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _declared_length(request)
        if length is not None and length > self.limit:
            return _too_large(request, self.limit)
        if length is None and _is_chunked(request):
            refused = self._read_chunked(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _read_chunked(self, request: HttpRequest) -> HttpResponse | None:
        environ = request.META
        # Only a server that decodes chunked framing and marks the stream's end can be read
        # safely (gunicorn does); anything else could block waiting for a length.
        if not environ.get("wsgi.input_terminated"):
            return _length_required(request)
        data = environ["wsgi.input"].read(self.limit + 1)
        if len(data) > self.limit:
            return _too_large(request, self.limit)
        environ["CONTENT_LENGTH"] = str(len(data))
        # Django and DRF read from these; replacing them is how Django itself re-reads a body.
        request._body = data
        request._stream = io.BytesIO(data)
        return None
