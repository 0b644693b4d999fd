"""The webhook API under /api/v1/webhooks/ (namespace `webhooks_api:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.webhooks import api_views

urlpatterns: list[URLPattern] = [
    path("webhooks/", api_views.WebhooksView.as_view(), name="list"),
    path("webhooks/<id:pk>/", api_views.WebhookDetailView.as_view(), name="detail"),
    path(
        "webhooks/<id:pk>/deliveries/",
        api_views.WebhookDeliveriesView.as_view(),
        name="deliveries",
    ),
]
