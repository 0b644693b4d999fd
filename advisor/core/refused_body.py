"""A page's answer to a request body over its limit (advisor.core.middleware refuses it
before anything reads it): 413 with the limit in MB, in the site's layout.

A view that marks itself `@answers_refused_body` gets the refused request as a GET of the
same page, its body never read, with `refused_size(request)` saying how large the body
was: it answers with its own form and the refusal on it, so the user stays where they
were. Session, login and CSRF middleware run as for any GET. Every other page gets the
site's "too large" page. The API's JSON answer is the middleware's, unchanged.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, TypeVar

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve

F = TypeVar("F", bound=Callable[..., Any])
MB = 1024 * 1024
REFUSED = "advisor.refused_body_bytes"  # the request's META key: the refused body's size


def megabytes(size: int) -> str:
    """A size as the refusals say it: "8 MB", "9.1 MB"; under a megabyte as Django says
    it ("4.9 KB"). MB here is 1,048,576 bytes, as the browser's check counts."""
    if size < MB:
        return str(filesizeformat(size))
    shown = f"{size / MB:.1f}"
    return f"{shown.removesuffix('.0')} MB"


def answers_refused_body(view: F) -> F:
    """Mark a page view as one that shows an oversized body's refusal on its own form."""
    view.answers_refused_body = True  # type: ignore[attr-defined]
    return view


def refused_size(request: HttpRequest) -> int | None:
    """The size of the body refused for this request, or None when nothing was refused."""
    size = request.META.get(REFUSED)
    return int(size) if size is not None else None


def _answers_itself(request: HttpRequest) -> bool:
    try:
        func = resolve(request.path_info).func
    except Resolver404:
        return False
    return bool(getattr(func, "answers_refused_body", False))


def _as_get(request: HttpRequest, size: int) -> None:
    """The request as a GET with no body, marked with the size it was refused at."""
    request.method = "GET"
    request.META.update({"REQUEST_METHOD": "GET", "CONTENT_LENGTH": "0", REFUSED: str(size)})
    request.META.pop("CONTENT_TYPE", None)
    request._body = b""  # how Django itself re-reads a body
    request._stream = io.BytesIO(b"")


def too_large_page(
    request: HttpRequest,
    limit: int,
    size: int | None,
    get_response: Callable[[HttpRequest], HttpResponse],
) -> HttpResponse:
    """The page's 413: the view's own form when it answers refusals, else the site's page."""
    if _answers_itself(request):
        _as_get(request, size if size is not None else limit + 1)
        return get_response(request)
    context = {"limit": megabytes(limit), "size": megabytes(size) if size else None}
    return render(request, "too_large.html", context, status=413)
