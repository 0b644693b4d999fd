"""One error envelope for every API failure: `{"code", "detail", "errors"}`, always JSON.

`errors` holds messages by JSON path (the contract's `storage[3].mount`), empty when the
failure concerns the request as a whole. DRF errors come through `exception_handler`
(REST_FRAMEWORK["EXCEPTION_HANDLER"]); failures Django answers itself (an unknown URL, a
crash) come through the `handler*` views, which advisor/urls.py names. Outside /api/ the
Django handlers fall back to Django's own pages.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

import rules

API_PREFIX = "/api/"
ROOT_PATH = "$"  # rules.validate names the document itself "$"
log = logging.getLogger(__name__)


def envelope(
    code: str, detail: str, errors: Mapping[str, list[str]] | None = None
) -> dict[str, Any]:
    return {"code": code, "detail": detail, "errors": dict(errors or {})}


class ContractViolation(exceptions.APIException):
    """A document that breaks the inventory contract: 400 with every problem by path."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid"

    def __init__(self, error: rules.InventoryError) -> None:
        self.problems = error.as_dict()
        count = len(error.problems)
        noun = "problem" if count == 1 else "problems"
        super().__init__(f"The inventory breaks the contract ({count} {noun}).")


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "This request conflicts with an earlier one."


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def _flatten(detail: Any, path: str, out: dict[str, list[str]]) -> None:
    """DRF ValidationError details (nested dicts and lists) -> messages by JSON path."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = ROOT_PATH if key == "non_field_errors" else str(key)
            _flatten(value, name if path == ROOT_PATH else f"{path}.{name}", out)
    elif isinstance(detail, list):
        for item in detail:
            _flatten(item, path, out)
    else:
        out.setdefault(path, []).append(str(detail))


def _body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, ContractViolation):
        return envelope("invalid", str(exc.detail), exc.problems)
    if isinstance(exc, exceptions.ValidationError):
        errors: dict[str, list[str]] = {}
        _flatten(exc.detail, ROOT_PATH, errors)
        return envelope("invalid", "The request is not valid.", errors)
    if isinstance(exc, exceptions.ParseError):
        return envelope("parse_error", str(exc.detail), {ROOT_PATH: [str(exc.detail)]})
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    return envelope(code, str(exc.detail))


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's handler, answering in the envelope. Anything unexpected goes on to handler500."""
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None
    headers: dict[str, str] = {}
    # APIView.handle_exception has already chosen 401 (with this header) or 403.
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    wait = getattr(exc, "wait", None)
    if wait is not None:
        headers["Retry-After"] = str(int(wait))
    set_rollback()
    return Response(_body(exc), status=exc.status_code, headers=headers)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(status_code: int, code: str, detail: str) -> JsonResponse:
    return JsonResponse(envelope(code, detail), status=status_code)


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error(400, "bad_request", "The request could not be understood.")
    return defaults.bad_request(request, exception)


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error(403, "permission_denied", "You may not do this.")
    return defaults.permission_denied(request, exception)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return json_error(404, "not_found", "Not found.")
    return defaults.page_not_found(request, exception)


def handler500(request: HttpRequest) -> HttpResponse:
    # Django has already logged the exception with its traceback; the client gets none.
    if _is_api(request):
        return json_error(500, "server_error", "The server failed to answer this request.")
    return defaults.server_error(request)
