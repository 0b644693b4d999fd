"""Fleet pages (namespace `fleets:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor.fleets import views

urlpatterns: list[URLPattern] = [
    path("fleets/", views.fleet_list, name="list"),
    path("fleets/<int:pk>/", views.fleet_detail, name="detail"),
    path("fleets/<int:pk>/servers.csv", views.fleet_csv, name="csv"),
    path("fleets/<int:pk>/reevaluate", views.fleet_reevaluate, name="reevaluate"),
    path("fleets/<int:pk>/report", views.fleet_report, name="report"),
    path("fleets/<int:pk>/report/status", views.fleet_report_status, name="report-status"),
    path("fleets/<int:pk>/report/<int:report_pk>.pdf", views.fleet_report_pdf, name="report-pdf"),
]
