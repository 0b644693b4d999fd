"""/favicon.ico, which browsers and crawlers ask for whatever a page links: a redirect to
the site's icon among the static files (static/advisor/favicon.svg), not a 404 in the log.
Temporary (302), since the static file's name carries its hash in production."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.http import require_GET

ICON = "advisor/favicon.svg"


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponseRedirect(static(ICON))
    response["Cache-Control"] = "public, max-age=86400"
    return response
