"""ReDoc's script as drf-spectacular-sidecar ships it, with its one address on another
server pointed at our own static files.

ReDoc draws the "API docs by Redocly" link with an image from cdn.redoc.ly, which no
setting turns off; the Content-Security-Policy refuses it (a console error on every load)
and a site without internet access could not fetch it anyway. The bundle is read from the
sidecar once per process and the address replaced by static/advisor/redoc-logo.svg, so a
new sidecar release is picked up by itself; tests/api/test_docs_pages.py fails if a
release adds another outside address.
"""

from __future__ import annotations

from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.views.decorators.http import require_GET

BUNDLE = "drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
LOCAL_LOGO = "advisor/redoc-logo.svg"
MAX_AGE = 24 * 3600


@cache
def bundle() -> bytes:
    found = finders.find(BUNDLE)
    if not isinstance(found, str):
        raise FileNotFoundError(BUNDLE)
    with open(found, encoding="utf-8") as source:
        text = source.read()
    return text.replace(CDN_LOGO, static(LOCAL_LOGO)).encode()


@require_GET
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(bundle(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = f"public, max-age={MAX_AGE}"
    return response
