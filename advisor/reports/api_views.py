"""REST endpoints: queue a report, read its status, download its PDF.

Every lookup goes through the organisation-scoped selectors, so another organisation's
report or assessment is a 404, never a 403 that would confirm it exists.
"""

from __future__ import annotations

from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, FileView, request_user
from advisor.api.schemas import error_responses
from advisor.assessments.selectors import assessment_or_404
from advisor.core.downloads import stored_file
from advisor.models import Report
from advisor.reports import selectors, services
from advisor.reports.api_serializers import (
    ReportCreateSerializer,
    ReportNotBuiltSerializer,
    ReportSerializer,
)


class ReportCreateView(ApiView):
    @extend_schema(
        operation_id="report_create",
        request=ReportCreateSerializer,
        responses={202: ReportSerializer, **error_responses(400, 401, 404, 429)},
        summary="Queue a consultant report (HTML + PDF) for an assessment",
        description="Every field of the body is optional; an empty body (or none) builds a "
        "report with the defaults. While a report of the assessment is queued or being built, "
        "a request joins it and answers with that report (its options stand).",
    )
    def post(self, request: Request, assessment_id: int) -> Response:
        assessment = assessment_or_404(request.user, assessment_id)
        given = ReportCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        report = services.report_request(
            assessment=assessment, user=request_user(request), options=given.options()
        )
        report.refresh_from_db()  # in-process builds may already have finished it
        body = ReportSerializer(report, context={"request": request}).data
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["status_url"]}
        )


class ReportStatusView(ApiView):
    @extend_schema(
        operation_id="report_status",
        responses={200: ReportSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, assessment_id: int, pk: int) -> Response:
        report = selectors.report_status_or_404(request.user, pk, assessment_id=assessment_id)
        return Response(ReportSerializer(report, context={"request": request}).data)


class ReportPdfView(FileView):
    @extend_schema(
        operation_id="report_pdf",
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="the PDF"),
            409: OpenApiResponse(ReportNotBuiltSerializer, "the report is not built yet"),
            **error_responses(401, 404, 429),
        },
    )
    def get(self, request: Request, assessment_id: int, pk: int) -> HttpResponseBase:
        report = selectors.report_or_404(request.user, pk, assessment_id=assessment_id)
        if report.status != Report.Status.DONE or not report.pdf_file:
            body = ReportSerializer(report, context={"request": request}).data
            return Response({"detail": "The report is not built yet.", "report": body}, status=409)
        filename = f"sas-tuning-{report.assessment.hostname}-{report.pk}.pdf"
        return stored_file(report.pdf_file, filename, "application/pdf")
