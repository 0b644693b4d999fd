"""Report pages. Their namespace (`reports:`) is set in advisor/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.reports import branding_views, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("assessments/<id:assessment_id>/report/", views.report_create, name="create"),
    path("reports/<id:pk>/", views.report_detail, name="detail"),
    path("reports/<id:pk>/status/", views.report_status, name="status"),
    path("reports/<id:pk>/pdf/", views.report_pdf, name="pdf"),
    path("organisation/branding/", branding_views.branding, name="branding"),
]
