"""/api/v1/: assessments, advice, the rule catalog and the health check."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from advisor.api.advice import AdviceView
from advisor.api.assessments import (
    ArtifactView,
    AssessmentDetailView,
    AssessmentsView,
    BundleView,
)
from advisor.api.meta import HealthView, RuleCatalogView

urlpatterns: list[URLPattern | URLResolver] = [
    path("assessments/", AssessmentsView.as_view(), name="api-assessments"),
    path("assessments/<int:pk>/", AssessmentDetailView.as_view(), name="api-assessment-detail"),
    path(
        "assessments/<int:pk>/artifacts/<str:filename>",
        ArtifactView.as_view(),
        name="api-assessment-artifact",
    ),
    path("assessments/<int:pk>/bundle.zip", BundleView.as_view(), name="api-assessment-bundle"),
    path("advice/", AdviceView.as_view(), name="api-advice"),
    path("rules/", RuleCatalogView.as_view(), name="api-rules"),
    path("health/", HealthView.as_view(), name="api-health"),
]
