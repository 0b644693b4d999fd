"""The assessment pages: list, new (with live preview and storage row actions), result,
compare, downloads. Their namespace (`web:`) is set in advisor/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from advisor.assessments import downloads, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.assessment_list, name="list"),
    path("assessments/new/", views.assessment_new, name="new"),
    path("assessments/preview/", views.assessment_preview, name="preview"),
    path("assessments/<int:pk>/", views.assessment_detail, name="assessment"),
    path("assessments/<int:pk>/files.zip", downloads.files_zip, name="zip"),
    path("assessments/<int:pk>/files/<str:name>", downloads.artifact_download, name="file"),
    path("assessments/<int:pk>/compare/", views.compare_pick, name="compare-pick"),
    path(
        "assessments/<int:pk>/compare/<int:other_pk>/",
        views.assessment_compare,
        name="compare",
    ),
]
