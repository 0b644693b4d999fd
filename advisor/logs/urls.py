"""SAS log pages (namespace `logs:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.logs import views

urlpatterns: list[URLPattern] = [
    path("logs/", views.log_list, name="list"),
    path("logs/<id:pk>/", views.log_detail, name="detail"),
    path("logs/<id:pk>/status/", views.log_status, name="status"),
    path("logs/<id:pk>/attach/", views.log_attach, name="attach"),
]
