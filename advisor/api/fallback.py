"""What answers a path under /api/ that no operation takes: always JSON, never a page.

A path one trailing slash away from an operation's (`POST /api/v1/assessments`, `GET
/api/v1/collector/`) answers 308 with Location, the operation's URL (query string kept),
and the error envelope naming it. 308 keeps the method and the body (RFC 9110 §15.4.9),
so a client that follows redirects re-sends the same request to the right URL; Django's
APPEND_SLASH would answer 301 (re-sent as GET: the create lost) or, for a POST under
DEBUG, a RuntimeError page. Each resource keeps one URL, as the schema lists it, with that
operation's body limit, cache validators and idempotency keys. Any other path answers 404
in the envelope whatever DEBUG says (Django's debug page is HTML).

advisor/urls.py routes `api/<anything>` here after every real route, so Django sees no
unresolved /api/ path at all: APPEND_SLASH never acts on the API.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt

from advisor.api.converters import ID_MAX, is_id
from advisor.core.errors import envelope

SCHEMA_PATH = "/api/schema/"


def _twin(path: str) -> str:
    """The path with its trailing slash taken off, or with one added."""
    return path[:-1] if path.endswith("/") else f"{path}/"


def _routed(request: HttpRequest, path: str) -> bool:
    """Whether an operation (not this fallback) takes `path`."""
    try:
        match = resolve(path, urlconf=getattr(request, "urlconf", None))
    except Resolver404:
        return False
    return getattr(match.func, "api_fallback", False) is not True


def _moved(request: HttpRequest) -> HttpResponse:
    twin = _twin(request.path)  # as the client wrote it, behind any SCRIPT_NAME
    query = request.META.get("QUERY_STRING", "")
    location = request.build_absolute_uri(twin) + (f"?{query}" if query else "")
    ending = "ends with" if twin.endswith("/") else "has no"
    detail = (
        f"This operation's path {ending} a trailing slash: {twin}. Nothing was done; "
        "send the same request there (308 keeps the method and the body)."
    )
    body = json.dumps(envelope("wrong_path", detail))
    # preserve_request: 308, not 301 (Django 5.2)
    return HttpResponsePermanentRedirect(
        location, preserve_request=True, content=body, content_type="application/json"
    )


def _not_an_id(request: HttpRequest) -> str | None:
    """The segment in an operation's id place that is no id (`01`, `0`, a number past
    the id column's range), if there is one: then it names no object, as a missing id."""
    segments = request.path_info.split("/")
    for n, segment in enumerate(segments):
        if segment.isdigit() and not is_id(segment):
            path = "/".join([*segments[:n], "1", *segments[n + 1 :]])
            if _routed(request, path):
                return segment
    return None


@csrf_exempt
def api_fallback(request: HttpRequest, rest: str = "") -> HttpResponse:
    if _routed(request, _twin(request.path_info)):
        return _moved(request)
    wrong = _not_an_id(request)
    if wrong is not None:
        detail = (
            f"Not found: {wrong} is no id (ids are whole numbers from 1 to {ID_MAX}, "
            "written without leading zeros)."
        )
    else:
        detail = f"No operation at {request.path_info}: the paths are listed in {SCHEMA_PATH}."
    return JsonResponse(envelope("not_found", detail), status=404)


api_fallback.api_fallback = True  # type: ignore[attr-defined]
