"""The webhook page (namespace `webhooks:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.webhooks import views

urlpatterns: list[URLPattern] = [
    path("webhooks/", views.webhook_list, name="list"),
    path("webhooks/<id:pk>/delete", views.webhook_delete, name="delete"),
]
