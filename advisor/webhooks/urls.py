"""The webhook page (namespace `webhooks:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor.webhooks import views

urlpatterns: list[URLPattern] = [
    path("webhooks/", views.webhook_list, name="list"),
    path("webhooks/<int:pk>/delete", views.webhook_delete, name="delete"),
]
