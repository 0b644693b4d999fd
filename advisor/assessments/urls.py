"""The assessment pages: list, new (with live preview and storage row actions), start from
a server (collector, bundle), result, verify, compare, downloads. Their namespace (`web:`)
is set in advisor/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.assessments import (
    downloads,
    reevaluate_views,
    result_views,
    server_views,
    verification_views,
    verify_views,
    views,
)

urlpatterns: list[URLPattern | URLResolver] = [
    path("", result_views.assessment_list, name="list"),
    path("assessments/new/", views.assessment_new, name="new"),
    path("assessments/preview/", views.assessment_preview, name="preview"),
    path("assessments/new/upload", views.assessment_upload, name="new-upload"),
    path("assessments/new/inventory.json", views.assessment_json, name="new-json"),
    path("assessments/from-server/", server_views.server_start, name="from-server"),
    path("assessments/from-server/collector", server_views.collector_download, name="collector"),
    path("assessments/<id:pk>/", result_views.assessment_detail, name="assessment"),
    path("assessments/<id:pk>/verify/", verify_views.assessment_verify, name="verify"),
    path(
        "assessments/<id:pk>/verifications/",
        verification_views.verification_list,
        name="verifications",
    ),
    path(
        "assessments/<id:pk>/verifications/<id:verification_pk>/",
        verification_views.verification_detail,
        name="verification",
    ),
    path("assessments/<id:pk>/files.zip", downloads.files_zip, name="zip"),
    path("assessments/<id:pk>/files/<str:name>", downloads.artifact_download, name="file"),
    path("assessments/<id:pk>/compare/", result_views.compare_pick, name="compare-pick"),
    path(
        "assessments/<id:pk>/reevaluate",
        reevaluate_views.assessment_reevaluate,
        name="reevaluate",
    ),
    path("assessments/<id:pk>/archive", reevaluate_views.assessment_archive, name="archive"),
    path("assessments/<id:pk>/name", reevaluate_views.assessment_rename_view, name="rename"),
    path("assessments/compare/", result_views.compare_selected, name="compare-selected"),
    path(
        "assessments/<id:pk>/compare/<id:other_pk>/",
        result_views.assessment_compare,
        name="compare",
    ),
]
