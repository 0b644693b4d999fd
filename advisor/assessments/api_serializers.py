"""The assessments API's explicit input and output serializers (the inventory itself is
checked by rules.inventory_from)."""

from __future__ import annotations

import re
from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework import serializers
from rest_framework.request import Request

from advisor.models import Assessment

IDEMPOTENCY_HEADER = "Idempotency-Key"
# Stored in Assessment.idempotency_key (255 characters); visible ASCII so it survives
# every proxy and log line unchanged.
IDEMPOTENCY_KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)


def idempotency_key(raw: str | None) -> str | None:
    """The header's value, or None when absent; a malformed key is a 400 by its name."""
    if raw is None:
        return None
    if not _IDEMPOTENCY_KEY.fullmatch(raw):
        raise serializers.ValidationError(
            {IDEMPOTENCY_HEADER: ["must be 1-255 visible ASCII characters"]}
        )
    return raw


class AssessmentListQuery(serializers.Serializer[dict[str, Any]]):
    # Blank means no filter (DRF drops blank query values anyway; the schema says so).
    hostname = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=253,
        help_text="part of the host name, any case",
    )


class AssessmentSummarySerializer(serializers.ModelSerializer[Assessment]):
    """One line of the list; the full result is at `url`."""

    url = serializers.SerializerMethodField()
    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Assessment
        fields = [
            "id", "url", "name", "hostname", "os", "os_version", "cpus", "ram_gb",
            "warnings_count", "rules_version", "created_by", "created_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_url(self, assessment: Assessment) -> str:
        return absolute_url(self.context["request"], assessment)


def absolute_url(request: Request, assessment: Assessment) -> str:
    return request.build_absolute_uri(reverse("api-assessment-detail", args=[assessment.pk]))
