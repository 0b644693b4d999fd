"""The assessments API under /api/v1/: stored assessments, their files, and advice."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.assessments import api_reading, api_verifications, api_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("assessments/", api_views.AssessmentsView.as_view(), name="api-assessments"),
    path(
        "assessments/<id:pk>/",
        api_views.AssessmentDetailView.as_view(),
        name="api-assessment-detail",
    ),
    path(
        "assessments/<id:pk>/artifacts/<str:filename>",
        api_views.ArtifactView.as_view(),
        name="api-assessment-artifact",
    ),
    path(
        "assessments/<id:pk>/bundle.zip",
        api_views.BundleView.as_view(),
        name="api-assessment-bundle",
    ),
    path(
        "assessments/<id:pk>/verify",
        api_reading.AssessmentVerifyView.as_view(),
        name="api-assessment-verify",
    ),
    path(
        "assessments/<id:pk>/verifications/",
        api_verifications.AssessmentVerificationsView.as_view(),
        name="api-assessment-verifications",
    ),
    path("advice/", api_views.AdviceView.as_view(), name="api-advice"),
    path("inventories/parse", api_reading.InventoryParseView.as_view(), name="api-inventory-parse"),
    path("collector", api_reading.CollectorView.as_view(), name="api-collector"),
]
