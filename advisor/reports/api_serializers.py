"""Explicit input and output serializers for the report endpoints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.reverse import reverse

from advisor.api.serializers import StrictBooleanField
from advisor.models import Report
from advisor.reports.options import NAME_MAX_CHARS, NOTES_MAX_CHARS, ReportOptions


class ReportCreateSerializer(serializers.Serializer[ReportOptions]):
    """The options of a new report, every one optional (the same limits as the web form).
    While a report of the assessment is queued or being built, a request with the same
    options joins it, one with other options is refused (409, naming them)."""

    client_name = serializers.CharField(
        max_length=NAME_MAX_CHARS, required=False, allow_blank=True, default="",
        help_text="On the cover; the organisation's name when empty.",
    )  # fmt: skip
    consultant_name = serializers.CharField(
        max_length=NAME_MAX_CHARS, required=False, allow_blank=True, default="",
        help_text="Who prepared the report, on the cover.",
    )  # fmt: skip
    consultant_notes = serializers.CharField(
        max_length=NOTES_MAX_CHARS, required=False, allow_blank=True, default="",
        help_text="Plain text shown as its own section; a blank line starts a paragraph.",
    )  # fmt: skip
    include_scripts = StrictBooleanField(
        required=False, default=True,
        help_text="Whether the generated files are printed in full in an appendix.",
    )  # fmt: skip

    def to_internal_value(self, data: Any) -> ReportOptions:
        # A misspelt option ("include_script") would otherwise be ignored without a word.
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({k: ["unknown field"] for k in unknown})
        return super().to_internal_value(data)  # type: ignore[no-any-return]

    def validate_consultant_notes(self, value: str) -> str:
        return value.replace("\r\n", "\n").replace("\r", "\n").strip()

    def options(self) -> ReportOptions:
        data: dict[str, Any] = dict(self.validated_data)
        return ReportOptions.from_data(data)


class ReportSerializer(serializers.ModelSerializer[Report]):
    status_url = serializers.SerializerMethodField()
    pdf_url = serializers.SerializerMethodField()

    class Meta:
        model = Report
        fields = [
            "id", "assessment", "status", "created_at", "started_at", "finished_at",
            "attempts", "error", "client_name", "consultant_name", "consultant_notes",
            "include_scripts", "status_url", "pdf_url",
        ]  # fmt: skip
        read_only_fields = fields

    def _url(self, name: str, report: Report) -> str:
        kwargs = {"assessment_id": report.assessment_id, "pk": report.pk}
        return reverse(name, kwargs=kwargs, request=self.context.get("request"))

    def get_status_url(self, report: Report) -> str:
        return self._url("reports_api:status", report)

    def get_pdf_url(self, report: Report) -> str | None:
        return self._url("reports_api:pdf", report) if report.status == "done" else None
