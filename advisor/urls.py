"""URL map: admin, accounts, the REST API (+ schema and docs), report pages, the web UI."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/v1/", include("advisor.api.urls")),
    path("api/v1/", include("advisor.reports.api_urls")),
    path("", include("advisor.reports.urls")),
    path("", include("advisor.web.urls")),
]

# JSON error bodies for /api/ paths, Django's own pages elsewhere.
handler400 = "advisor.api.errors.handler400"
handler403 = "advisor.api.errors.handler403"
handler404 = "advisor.api.errors.handler404"
handler500 = "advisor.api.errors.handler500"
