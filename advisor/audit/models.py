"""The audit trail: who did what, when, to which object, and what changed (old -> new)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    # Names are copied, not only linked: the trail outlives a deleted user or organisation.
    organisation = models.ForeignKey(
        "advisor.Organisation", null=True, on_delete=models.SET_NULL, related_name="audit_events"
    )
    organisation_name = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=64)  # "assessment.create", "admin.change" …
    target = models.CharField(max_length=255)  # "assessment 12 (lemans)"
    changes = models.JSONField(default=dict, blank=True)  # {"field": [old, new]}

    class Meta:
        app_label = "advisor"
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["organisation", "-at"], name="audit_org_recent")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_name or '-'} {self.action} {self.target}"
