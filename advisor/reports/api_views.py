"""REST endpoints: queue a report, list an assessment's reports, read one's status,
download its PDF.

Every lookup goes through the organisation-scoped selectors, so another organisation's
report or assessment is a 404, never a 403 that would confirm it exists.

One report of an assessment builds at a time. A request while one is queued or being
built joins it when it asks for the same options; one that asks for other options is
refused with 409 naming each option that differs (the one in progress is not changed
under its requester, and no second build is queued beside it): poll that report's
status_url and ask again once it is done.
"""

from __future__ import annotations

import json
from dataclasses import asdict

from django.http.response import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, FileView, ListView, request_user
from advisor.api.conditional import CONDITIONAL_PARAMETERS, conditional_responses
from advisor.api.exceptions import Conflict
from advisor.api.idempotency import (
    conflicts_refused,
    idempotency_key,
    idempotency_parameter,
    retried_responses,
)
from advisor.api.schemas import error_responses
from advisor.assessments.selectors import assessment_or_404
from advisor.core.downloads import conditional, etag_of, stored_file
from advisor.core.idempotency import document_hash, keep_key, stored_under_key
from advisor.models import FleetReport, Report
from advisor.reports import selectors, services
from advisor.reports.api_serializers import ReportCreateSerializer, ReportSerializer
from advisor.reports.options import ReportOptions


def differences(report: Report, asked: ReportOptions) -> dict[str, list[str]]:
    """Each option the report in progress was requested with that `asked` does not share,
    its value spelled as JSON (false, "Acme"), as the client sent it."""
    held = asdict(ReportOptions.of(report))
    return {
        name: [f"report {report.pk}, queued or being built, has "
               f"{json.dumps(held[name], ensure_ascii=False)}; ask again once it is done"]
        for name, value in asdict(asked).items() if held[name] != value
    }  # fmt: skip


class ReportsView(ListView):
    @extend_schema(
        operation_id="report_list",
        summary="The assessment's reports, newest first",
        responses={200: ReportSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, assessment_id: int) -> Response:
        assessment = assessment_or_404(request.user, assessment_id)
        context = {"request": request}
        return self.paged(
            assessment.reports.all(),
            lambda page: ReportSerializer(page, many=True, context=context).data,
        )

    @extend_schema(
        operation_id="report_create",
        request=ReportCreateSerializer,
        parameters=[idempotency_parameter("the report")],
        responses={
            **retried_responses(ReportSerializer, 202, "the report"),
            **error_responses(415),
        },
        summary="Queue a consultant report (HTML + PDF) for an assessment",
        description="Every field of the body is optional; an empty body (or none) builds a "
        "report with the defaults. While a report of the assessment is queued or being built, "
        "a request with the same options joins it (202, that report); one with other options "
        "is refused with 409 naming each option that differs: one report of an assessment "
        "builds at a time, and the one in progress keeps the options it was asked with. "
        "Poll its status_url and ask again once it is done.",
    )
    def post(self, request: Request, assessment_id: int) -> Response:
        assessment = assessment_or_404(request.user, assessment_id)
        given = ReportCreateSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        asked = given.options()
        key, digest = idempotency_key(request), document_hash(asdict(asked))
        rows = Report.objects.filter(assessment=assessment)
        with conflicts_refused():
            found = stored_under_key(rows, key, digest)
        if found is not None:
            return Response(ReportSerializer(found, context={"request": request}).data)
        report = services.report_request(
            assessment=assessment, user=request_user(request), options=asked
        )
        if differ := differences(report, asked):
            raise Conflict(f"Report {report.pk} of this assessment is queued or being built "
                           "with other options.", differ)  # fmt: skip
        report = keep_key(rows, report, key, digest)
        report.refresh_from_db()  # in-process builds may already have finished it
        body = ReportSerializer(report, context={"request": request}).data
        return Response(
            body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["status_url"]}
        )


class ReportStatusView(ApiView):
    @extend_schema(
        operation_id="report_status",
        responses={200: ReportSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, assessment_id: int, pk: int) -> Response:
        report = selectors.report_status_or_404(request.user, pk, assessment_id=assessment_id)
        return Response(ReportSerializer(report, context={"request": request}).data)


class ReportPdfView(FileView):
    @extend_schema(
        operation_id="report_pdf",
        parameters=CONDITIONAL_PARAMETERS,
        responses={
            (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="the PDF"),
            **conditional_responses(),
            **error_responses(400, 401, 404, 409, 429),
        },
    )
    def get(self, request: Request, assessment_id: int, pk: int) -> HttpResponseBase:
        report = selectors.report_or_404(request.user, pk, assessment_id=assessment_id)
        if report.status != Report.Status.DONE or not report.pdf_file:
            raise Conflict(
                f"The report is {report.status}, not built yet: poll its status_url.",
                {"status": [f"is {report.status}, not done"]},
            )
        filename = f"sas-tuning-{report.assessment.hostname}-{report.pk}.pdf"
        return built_pdf(request, report, filename)


def built_pdf(request: Request, report: Report | FleetReport, filename: str) -> HttpResponseBase:
    """A built report's PDF, or 304 for a client that has it (a PDF never changes once
    built: its row, its build's end and its file name name it)."""
    finished = report.finished_at or report.created_at
    etag = etag_of(type(report).__name__, report.pk, finished, report.pdf_file.name)
    return conditional(
        request._request, lambda: stored_file(report.pdf_file, filename, "application/pdf"),
        etag=etag, last_modified=finished,
    )  # fmt: skip
