"""REST routes for reports (under /api/v1/). Their namespace (`reports_api:`) is set in
advisor/api/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from advisor.reports import api_views

urlpatterns: list[URLPattern | URLResolver] = [
    path(
        "assessments/<int:assessment_id>/reports/",
        api_views.ReportsView.as_view(),
        name="create",
    ),
    path(
        "assessments/<int:assessment_id>/reports/<int:pk>/",
        api_views.ReportStatusView.as_view(),
        name="status",
    ),
    path(
        "assessments/<int:assessment_id>/reports/<int:pk>/pdf",
        api_views.ReportPdfView.as_view(),
        name="pdf",
    ),
]
