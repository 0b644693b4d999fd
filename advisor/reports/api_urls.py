"""REST routes for reports (under /api/v1/). Their namespace (`reports_api:`) is set in
advisor/api/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.reports import api_views

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "assessments/<id:assessment_id>/reports/",
        api_views.ReportsView.as_view(),
        name="create",
    ),
    path(
        "assessments/<id:assessment_id>/reports/<id:pk>/",
        api_views.ReportStatusView.as_view(),
        name="status",
    ),
    path(
        "assessments/<id:assessment_id>/reports/<id:pk>/pdf",
        api_views.ReportPdfView.as_view(),
        name="pdf",
    ),
]
