"""The capacity what-if's API route (under /api/v1/). Its namespace (`reports_api:`, where
it began) is set in advisor/api/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from advisor.capacity import api_views

urlpatterns: list[URLPattern | URLResolver] = [
    path("capacity/", api_views.CapacityView.as_view(), name="capacity"),
]
