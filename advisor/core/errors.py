"""One error envelope for every API failure: `{"code", "detail", "errors"}`, always JSON.

`errors` holds messages by JSON path (the contract's `storage[3].mount`), empty when the
failure concerns the request as a whole. DRF errors are shaped by
`advisor.api.exceptions.exception_handler`; failures Django answers itself (an unknown URL,
a crash) come through the `handler*` views here, which advisor/urls.py names. Outside /api/
they fall back to Django's own pages.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

API_PREFIX = "/api/"
ROOT_PATH = "$"  # rules.validate names the document itself "$"


def envelope(
    code: str, detail: str, errors: Mapping[str, list[str]] | None = None
) -> dict[str, Any]:
    return {"code": code, "detail": detail, "errors": dict(errors or {})}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(status_code: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(envelope(code, detail), status=status_code)


class Busy(Exception):
    """Work refused for now because of a limit that frees up by itself: the API answers 429
    with Retry-After (advisor.api.exceptions), a page says so."""

    retry_after = 30


def busy_page(exc: Busy) -> HttpResponse:
    """A page's answer to Busy: 429, the reason as plain text, and Retry-After."""
    response = HttpResponse(str(exc), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(exc.retry_after)
    return response


def handler400(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return json_error(400, "bad_request", "The request could not be understood.")
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return json_error(403, "permission_denied", "You may not do this.")
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api(request):
        return json_error(404, "not_found", "Not found.")
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    # Django has already logged the exception with its traceback; the client gets none.
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return database_unavailable(request)
    if is_api(request):
        return json_error(500, "server_error", "The server failed to answer this request.")
    return defaults.server_error(request)


DATABASE_RETRY_S = 30
UNAVAILABLE_PAGE = (
    "<!doctype html><html lang=en><meta charset=utf-8><title>Unavailable</title>"
    "<h1>The service is unavailable</h1><p>Its database cannot be reached. Nothing you "
    "sent was stored; try again in a minute.</p></html>"
)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 while the database is down: the envelope (with retry_after) for the API, a
    plain page that needs neither the database nor a template elsewhere."""
    response: HttpResponse
    if is_api(request):
        body = envelope("unavailable", "The database is not reachable; try again shortly.")
        body["retry_after"] = DATABASE_RETRY_S
        response = JsonResponse(body, status=503)
    else:
        response = HttpResponse(UNAVAILABLE_PAGE, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_S)
    return response
