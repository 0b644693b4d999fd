"""The fleet API under /api/v1/fleets/ (namespace `fleets_api:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.fleets import api_reports, api_views

urlpatterns: list[URLPattern] = [
    path("fleets/", api_views.FleetsView.as_view(), name="list"),
    path("fleets/<id:pk>/", api_views.FleetDetailView.as_view(), name="detail"),
    path("fleets/<id:pk>/servers/", api_views.FleetServersView.as_view(), name="servers"),
    path("fleets/<id:pk>/servers.csv", api_views.FleetCsvView.as_view(), name="csv"),
    path("fleets/<id:pk>/reevaluate", api_views.FleetReevaluateView.as_view(), name="reevaluate"),
    path("fleets/<id:pk>/reports/", api_reports.FleetReportsView.as_view(), name="reports"),
    path(
        "fleets/<id:pk>/reports/<id:report_pk>/",
        api_reports.FleetReportView.as_view(),
        name="report",
    ),
    path(
        "fleets/<id:pk>/reports/<id:report_pk>/pdf",
        api_reports.FleetReportPdfView.as_view(),
        name="report-pdf",
    ),
    path(
        "assessments/<id:pk>/archive",
        api_views.AssessmentArchiveView.as_view(),
        name="assessment-archive",
    ),
    path(
        "assessments/<id:pk>/reevaluate",
        api_views.AssessmentReevaluateView.as_view(),
        name="assessment-reevaluate",
    ),
]
