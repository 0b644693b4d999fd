"""URL map: admin, accounts, the REST API (+ schema and docs), and each feature's pages.

URL names are public (templates, tests and the README use them), so the namespaces stay as
they were before the features were split: `web:` for the assessment pages, `reports:` for
the report pages and the capacity what-if, which began inside reports.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import urls as auth_urls
from django.contrib.auth.views import LoginView
from django.urls import URLPattern, URLResolver, include, path, re_path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView

from advisor.api.fallback import api_fallback
from advisor.api.redoc_bundle import redoc_bundle
from advisor.api.schema_view import SchemaView
from advisor.api.token_views import api_tokens
from advisor.assessments import urls as assessments
from advisor.audit import urls as audit
from advisor.capacity import urls as capacity
from advisor.core.favicon import favicon
from advisor.fleets import urls as fleets
from advisor.logs import urls as logs
from advisor.reports import urls as reports
from advisor.webhooks import urls as webhooks


def account_urls() -> list[URLPattern | URLResolver]:
    """Django's logout and password pages (login has its own route, below, which says
    whether mail is configured); the password reset ones only where mail can be sent
    (without a mail server the reset link would never arrive)."""
    shown = [p for p in auth_urls.urlpatterns if getattr(p, "name", "") != "login"]
    if settings.EMAIL_HOST:
        return shown
    return [p for p in shown if "reset" not in str(p.pattern)]


urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        LoginView.as_view(extra_context={"mail_configured": bool(settings.EMAIL_HOST)}),
        name="login",
    ),
    path("accounts/", include(account_urls())),
    path(
        "api/schema/",
        SchemaView.as_view(),
        name="schema",
    ),
    # The split view serves Swagger UI's start-up script from its own URL: no inline
    # script, so the page passes the Content-Security-Policy (script-src 'self').
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    # ReDoc's script with its one outside address (a logo) pointed at our static files.
    path("api/redoc/redoc.standalone.js", redoc_bundle, name="api-redoc-bundle"),
    path("api-tokens/", api_tokens, name="api-tokens"),
    path("favicon.ico", favicon, name="favicon"),
    path("api/v1/", include("advisor.api.urls")),
    # Every other /api/ path: JSON 308 to the operation one trailing slash away, or 404.
    re_path(r"^api/(?P<rest>[\s\S]*)\Z", api_fallback),
    path("", include(([*reports.urlpatterns, *capacity.urlpatterns], "reports"))),
    path("", include((logs.urlpatterns, "logs"))),
    path("", include((fleets.urlpatterns, "fleets"))),
    path("", include((webhooks.urlpatterns, "webhooks"))),
    path("", include((audit.urlpatterns, "audit"))),
    path("", include((assessments.urlpatterns, "web"))),
]

# JSON error bodies for /api/ paths, Django's own pages elsewhere.
handler400 = "advisor.core.errors.handler400"
handler403 = "advisor.core.errors.handler403"
handler404 = "advisor.core.errors.handler404"
handler500 = "advisor.core.errors.handler500"
