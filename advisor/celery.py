"""The Celery app. Without REDIS_URL tasks run in-process (CELERY_TASK_ALWAYS_EAGER)."""

from __future__ import annotations

import os

from celery import Celery
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")

app = Celery("advisor")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Tasks live in the feature packages (advisor/reports/tasks.py), not in advisor/tasks.py
# where the default discovery (one tasks module per installed app) would look.
app.autodiscover_tasks(lambda: [f"advisor.{name}" for name in settings.ADVISOR_FEATURES])
