"""The SAS log API under /api/v1/logs/ (namespace `logs_api:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.logs import api_views

urlpatterns: list[URLPattern] = [
    path("logs/", api_views.LogsView.as_view(), name="list"),
    path("logs/<id:pk>/", api_views.LogDetailView.as_view(), name="detail"),
]
