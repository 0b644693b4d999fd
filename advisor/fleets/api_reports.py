"""The fleet report API: request a fleet's summary report (built as a PDF on a worker),
list the fleet's reports, read one's status, download its PDF."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
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
from advisor.core.idempotency import document_hash, keep_key, stored_under_key
from advisor.fleets import selectors
from advisor.fleets.api_serializers import FleetReportSerializer
from advisor.fleets.reporting import fleet_report_request
from advisor.models import FleetReport
from advisor.reports.api_views import built_pdf


def report_body(request: Request, report: FleetReport) -> dict[str, Any]:
    url = request.build_absolute_uri(
        reverse("fleets_api:report", args=[report.fleet_id, report.pk])
    )
    return {"id": report.pk, "url": url, "pdf_url": url + "pdf", "status": report.status,
            "attempts": report.attempts, "error": report.error,
            "created_at": report.created_at, "finished_at": report.finished_at}  # fmt: skip


class FleetReportsView(ListView):
    @extend_schema(
        operation_id="fleets_report_list",
        summary="The fleet's reports, newest first",
        responses={200: FleetReportSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        return self.paged(fleet.reports.all(), lambda page: [report_body(request, r) for r in page])

    @extend_schema(
        operation_id="fleets_report_create",
        summary="Build the fleet's summary report as a PDF on a worker (202)",
        description="One report builds per fleet at a time: a request while one is queued "
        "or running joins it.",
        request=None,
        parameters=[idempotency_parameter("the report")],
        responses=retried_responses(FleetReportSerializer, 202, "the report"),
    )
    def post(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        key, digest = idempotency_key(request), document_hash({})
        rows = FleetReport.objects.filter(fleet=fleet)
        with conflicts_refused():
            found = stored_under_key(rows, key, digest)
        if found is not None:
            return Response(report_body(request, found))
        report = fleet_report_request(fleet=fleet, user=request_user(request))
        report = keep_key(rows, report, key, digest)
        body = report_body(request, report)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class FleetReportView(ApiView):
    @extend_schema(
        operation_id="fleets_report_retrieve",
        summary="A fleet report's status",
        responses={200: FleetReportSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int, report_pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        return Response(report_body(request, get_object_or_404(fleet.reports, pk=report_pk)))


class FleetReportPdfView(FileView):
    @extend_schema(
        operation_id="fleets_report_pdf",
        summary="A built fleet report's PDF (409 until it is done)",
        parameters=CONDITIONAL_PARAMETERS,
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, **conditional_responses(),
                   **error_responses(400, 401, 404, 409, 429)},
    )  # fmt: skip
    def get(self, request: Request, pk: int, report_pk: int) -> HttpResponseBase:
        fleet = selectors.fleet_or_404(request.user, pk)
        report = get_object_or_404(fleet.reports, pk=report_pk)
        if report.status != FleetReport.Status.DONE or not report.pdf_file:
            raise Conflict(
                f"The report is {report.status}, not built yet: poll its url.",
                {"status": [f"is {report.status}, not done"]},
            )
        return built_pdf(request, report, f"fleet-{fleet.pk}-report.pdf")
