"""Explicit output serializer for the report endpoints."""

from __future__ import annotations

from rest_framework import serializers
from rest_framework.reverse import reverse

from advisor.models import Report


class ReportSerializer(serializers.ModelSerializer[Report]):
    status_url = serializers.SerializerMethodField()
    pdf_url = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = [
            "id", "assessment", "status", "created_at", "started_at", "finished_at",
            "attempts", "error", "status_url", "pdf_url",
        ]  # fmt: skip
        read_only_fields = fields

    def _url(self, name: str, report: Report) -> str:
        kwargs = {"assessment_id": report.assessment_id, "pk": report.pk}
        return reverse(name, kwargs=kwargs, request=self.context.get("request"))

    def get_status_url(self, report: Report) -> str:
        return self._url("reports_api:status", report)

    def get_pdf_url(self, report: Report) -> str | None:
        return self._url("reports_api:pdf", report) if report.status == "done" else None
