"""The assessments API's explicit input and output serializers (the inventory itself is
checked by rules.inventory_from)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework import serializers
from rest_framework.request import Request

from advisor.api.query import Query, text
from advisor.models import Assessment


class AssessmentListQuery(Query):
    # Blank means no filter.
    hostname = text(253, "part of the host name, any case")


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
