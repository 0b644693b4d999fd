"""Fleet pages (namespace `fleets:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.fleets import finding_views, views

urlpatterns: list[URLPattern] = [
    path("fleets/", views.fleet_list, name="list"),
    path("fleets/<id:pk>/", views.fleet_detail, name="detail"),
    path("fleets/<id:pk>/servers.csv", views.fleet_csv, name="csv"),
    path("fleets/<id:pk>/findings/", finding_views.fleet_findings, name="findings"),
    path("fleets/<id:pk>/findings.csv", finding_views.fleet_findings_csv, name="findings-csv"),
    path("fleets/<id:pk>/reevaluate", views.fleet_reevaluate, name="reevaluate"),
    path("fleets/<id:pk>/report", views.fleet_report, name="report"),
    path("fleets/<id:pk>/report/status", views.fleet_report_status, name="report-status"),
    path("fleets/<id:pk>/report/<id:report_pk>.pdf", views.fleet_report_pdf, name="report-pdf"),
]
