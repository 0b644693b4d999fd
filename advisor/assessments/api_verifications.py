"""The verifications kept of an assessment, read-only: each verify answered 200 (by the API
or on the verify page) with its date, who ran it, where the reading came from and its
counts, newest first. Scoped as the assessment is: another organisation's is a 404."""

from __future__ import annotations

from django.contrib.auth.models import User
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ListView
from advisor.api.schemas import error_responses
from advisor.assessments import verifications
from advisor.assessments.selectors import assessment_or_404
from advisor.models import Verification


class VerificationSummarySerializer(serializers.ModelSerializer[Verification]):
    """One kept verification; its rows are not listed."""

    created_by: serializers.SlugRelatedField[User] = serializers.SlugRelatedField(
        slug_field="username", read_only=True, allow_null=True
    )

    class Meta:
        model = Verification
        fields = [
            "id", "created_at", "created_by", "source", "non_compliant", "compliant",
            "not_verified", "rules_version",
        ]  # fmt: skip
        read_only_fields = fields


class AssessmentVerificationsView(ListView):
    @extend_schema(
        operation_id="assessments_verifications",
        summary="The verifications kept of an assessment, newest first",
        description="Each verify answered 200 is kept (`assessments_verify`, and the verify "
        "page): when, by whom, where the reading came from (`paste`, `upload` or `api`) and "
        "its counts. Read-only.",
        responses={
            200: VerificationSummarySerializer(many=True),
            **error_responses(400, 401, 404, 429),
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        assessment = assessment_or_404(request.user, pk, defer=("inventory", "result_json"))
        return self.paged(
            verifications.verifications_of(assessment),
            lambda page: VerificationSummarySerializer(page, many=True).data,
        )
