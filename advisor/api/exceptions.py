"""DRF's exceptions in the site's JSON error envelope (`advisor.core.errors`).

`exception_handler` is REST_FRAMEWORK["EXCEPTION_HANDLER"]: every DRF error, and the 404s
and 403s Django raises inside an API view, answer as `{"code", "detail", "errors"}`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

import rules
from advisor.api.authentication import authorization_errors
from advisor.core.errors import ROOT_PATH, Busy, envelope


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
    """409: the request conflicts with what is stored (a key used for another request, a
    report in progress with other options, a PDF not built yet); `errors` names the
    header, field or parameter in conflict, as a 400 does."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "This request conflicts with an earlier one."

    def __init__(self, detail: str, errors: Mapping[str, list[str]] | None = None) -> None:
        super().__init__(detail)
        self.errors = dict(errors or {})


class PageNotFound(exceptions.NotFound):
    """404 for a page past the last one of a list, naming the `page` parameter."""

    def __init__(self, detail: str, errors: Mapping[str, list[str]]) -> None:
        super().__init__(detail)
        self.errors = dict(errors)


def _flatten(detail: Any, path: str, out: dict[str, list[str]]) -> None:
    """DRF ValidationError details (nested dicts and lists) -> messages by JSON path."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            if isinstance(key, int):  # an item of a list: events[0], as the contract writes
                _flatten(value, f"{'' if path == ROOT_PATH else path}[{key}]", out)
                continue
            if key == "non_field_errors":  # about the object itself: its own path
                _flatten(value, path, out)
                continue
            _flatten(value, str(key) if path == ROOT_PATH else f"{path}.{key}", out)
    elif isinstance(detail, list) and any(isinstance(item, Mapping) for item in detail):
        # A list serializer's errors, one entry per item ({} for a good one): single[1].y
        for n, item in enumerate(detail):
            _flatten(item, f"{'' if path == ROOT_PATH else path}[{n}]", out)
    elif isinstance(detail, list):
        for item in detail:
            _flatten(item, path, out)
    else:
        out.setdefault(path, []).append(str(detail))


def _body(exc: exceptions.APIException) -> dict[str, Any]:
    if isinstance(exc, ContractViolation):
        return envelope("invalid", str(exc.detail), exc.problems)
    if isinstance(exc, Conflict):
        return envelope("conflict", str(exc.detail), exc.errors)
    if isinstance(exc, exceptions.ValidationError):
        errors: dict[str, list[str]] = {}
        _flatten(exc.detail, ROOT_PATH, errors)
        return envelope("invalid", "The request is not valid.", errors)
    if isinstance(exc, exceptions.ParseError):
        return envelope("parse_error", str(exc.detail), {ROOT_PATH: [str(exc.detail)]})
    codes = exc.get_codes()
    code = codes if isinstance(codes, str) else exc.default_code
    return envelope(code, str(exc.detail), getattr(exc, "errors", None))


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's handler, answering in the envelope. Anything unexpected goes on to handler500."""
    if isinstance(exc, Busy):
        exc = exceptions.Throttled(wait=exc.retry_after, detail=str(exc))
    elif isinstance(exc, Http404):
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
        if exc.status_code == status.HTTP_401_UNAUTHORIZED and not getattr(exc, "errors", None):
            exc.errors = authorization_errors(context["request"], str(exc.detail))  # type: ignore[attr-defined]
    body = _body(exc)
    wait = getattr(exc, "wait", None)
    if wait is not None:
        headers["Retry-After"] = str(math.ceil(wait))
        body["retry_after"] = math.ceil(wait)
    set_rollback()
    return Response(body, status=exc.status_code, headers=headers)
