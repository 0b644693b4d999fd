from __future__ import annotations

from django.apps import AppConfig


class AdvisorConfig(AppConfig):
    name = "advisor"
    verbose_name = "SAS Tuning Advisor"
    default_auto_field = "django.db.models.BigAutoField"
