"""The fleet API under /api/v1/fleets/ (namespace `fleets_api:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor.fleets import api_reports, api_views

urlpatterns: list[URLPattern] = [
    path("fleets/", api_views.FleetsView.as_view(), name="list"),
    path("fleets/<int:pk>/", api_views.FleetDetailView.as_view(), name="detail"),
    path("fleets/<int:pk>/servers/", api_views.FleetServersView.as_view(), name="servers"),
    path("fleets/<int:pk>/servers.csv", api_views.FleetCsvView.as_view(), name="csv"),
    path("fleets/<int:pk>/reevaluate", api_views.FleetReevaluateView.as_view(), name="reevaluate"),
    path("fleets/<int:pk>/reports/", api_reports.FleetReportsView.as_view(), name="reports"),
    path(
        "fleets/<int:pk>/reports/<int:report_pk>/",
        api_reports.FleetReportView.as_view(),
        name="report",
    ),
    path(
        "fleets/<int:pk>/reports/<int:report_pk>/pdf",
        api_reports.FleetReportPdfView.as_view(),
        name="report-pdf",
    ),
    path(
        "assessments/<int:pk>/archive",
        api_views.AssessmentArchiveView.as_view(),
        name="assessment-archive",
    ),
    path(
        "assessments/<int:pk>/reevaluate",
        api_views.AssessmentReevaluateView.as_view(),
        name="assessment-reevaluate",
    ),
]
