"""SAS log pages (namespace `logs:`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor.logs import views

urlpatterns: list[URLPattern] = [
    path("logs/", views.log_list, name="list"),
    path("logs/<int:pk>/", views.log_detail, name="detail"),
    path("logs/<int:pk>/status/", views.log_status, name="status"),
    path("logs/<int:pk>/attach/", views.log_attach, name="attach"),
]
