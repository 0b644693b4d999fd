"""URL map: admin, accounts, the REST API (+ schema and docs), and each feature's pages.

URL names are public (templates, tests and the README use them), so the namespaces stay as
they were before the features were split: `web:` for the assessment pages, `reports:` for
the report pages and the capacity what-if, which began inside reports.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from advisor.assessments import urls as assessments
from advisor.capacity import urls as capacity
from advisor.fleets import urls as fleets
from advisor.logs import urls as logs
from advisor.reports import urls as reports
from advisor.webhooks import urls as webhooks

urlpatterns: list[URLPattern | URLResolver] = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("api/v1/", include("advisor.api.urls")),
    path("", include(([*reports.urlpatterns, *capacity.urlpatterns], "reports"))),
    path("", include((logs.urlpatterns, "logs"))),
    path("", include((fleets.urlpatterns, "fleets"))),
    path("", include((webhooks.urlpatterns, "webhooks"))),
    path("", include((assessments.urlpatterns, "web"))),
]

# JSON error bodies for /api/ paths, Django's own pages elsewhere.
handler400 = "advisor.core.errors.handler400"
handler403 = "advisor.core.errors.handler403"
handler404 = "advisor.core.errors.handler404"
handler500 = "advisor.core.errors.handler500"
