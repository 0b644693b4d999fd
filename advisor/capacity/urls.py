"""The capacity what-if's page route. Its namespace (`reports:`, where it began) is set in
advisor/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

import advisor.api.converters  # noqa: F401  (registers <id:...>)
from advisor.capacity import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("assessments/<id:assessment_id>/capacity/", views.capacity, name="capacity"),
]
