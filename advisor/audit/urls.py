"""The audit trail page (namespace `audit:`, set in advisor/urls.py)."""

from __future__ import annotations

from django.urls import URLPattern, path

from advisor.audit import views

urlpatterns: list[URLPattern] = [path("audit/", views.audit_list, name="list")]
