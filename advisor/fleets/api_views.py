"""The fleet API: upload (202 and a status URL), progress, the servers with filters, CSV,
re-evaluation on the current rules; and the re-evaluation of a single assessment."""

from __future__ import annotations

import hashlib
import tempfile
from typing import IO, Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, FileView, reject_unknown_query, request_user
from advisor.api.exceptions import Conflict
from advisor.api.parsers import BodyTooLarge
from advisor.api.schemas import error_responses
from advisor.assessments import services as assessment_services
from advisor.assessments.api_serializers import IDEMPOTENCY_HEADER, idempotency_key
from advisor.assessments.selectors import assessment_or_404
from advisor.core import results
from advisor.core.changes import setting_changes
from advisor.core.downloads import as_attachment, stored_file
from advisor.core.text import CONTROL_MESSAGE, has_control
from advisor.fleets import presenting, selectors, services
from advisor.fleets.api_serializers import (
    FLEET_BODY,
    ArchivedSerializer,
    FleetDetailSerializer,
    FleetListSerializer,
    FleetReportSerializer,
    FleetSerializer,
    FleetServersSerializer,
    ReevaluationSerializer,
)
from advisor.fleets.reading import FleetError, read_fleet
from advisor.fleets.reporting import fleet_report_request
from advisor.models import Fleet, FleetReport

NAME = OpenApiParameter("name", str, description="a name for the fleet")
SERVER_FILTERS = [
    OpenApiParameter("q", str, description="part of a host name or file name"),
    OpenApiParameter("severity", str, enum=["high", "medium", "low"]),
    OpenApiParameter("group", str, description="a config_key: the servers of one group"),
    OpenApiParameter("status", str, enum=["pending", "done", "failed"]),
    OpenApiParameter("sort", str, enum=list(selectors.SORTS)),
    OpenApiParameter("page", int),
]
PAGE_SIZE = 100
SPOOL_BYTES = 1024 * 1024  # a larger body waits on disk while it is read
READ_CHUNK = 64 * 1024
FILTER_NAMES = ("q", "severity", "group", "status", "sort", "page")


def _spool(request: HttpRequest, spool: IO[bytes]) -> str:
    """Copy the body into `spool` a chunk at a time (never whole in memory, however large
    the wire allowed); its SHA-256 for the idempotency check."""
    digest = hashlib.sha256()
    while chunk := request.read(READ_CHUNK):
        digest.update(chunk)
        spool.write(chunk)
    spool.seek(0)
    return digest.hexdigest()


def _check_filters(request: Request, names: tuple[str, ...]) -> None:
    """A 400 naming each unknown parameter, or each holding a control character (a NUL
    would reach PostgreSQL, which refuses it in text; no host name holds any)."""
    reject_unknown_query(request, names)
    bad = sorted({name for name, values in request.query_params.lists()
                  if any(has_control(v) for v in values)})  # fmt: skip
    if bad:
        raise exceptions.ValidationError({name: [CONTROL_MESSAGE] for name in bad})


def fleet_body(request: Request, fleet: Fleet) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("fleets_api:detail", args=[fleet.pk]))
    return {
        "id": fleet.pk, "url": url, "name": fleet.name, "created_at": fleet.created_at,
        "rules_version": fleet.rules_version, "previous": fleet.previous_id,
        "servers_url": url + "servers/", "csv_url": url + "servers.csv",
        **selectors.progress(fleet),
    }  # fmt: skip


class FleetsView(ApiView):
    max_body_bytes = settings.MAX_FLEET_BYTES

    @extend_schema(
        operation_id="fleets_list",
        summary="The organisation's fleets, newest first, with their progress",
        responses={200: FleetListSerializer, **error_responses(401, 429)},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.fleets_for_user(request.user)[:100]
        return Response({"results": [fleet_body(request, fleet) for fleet in rows]})

    @extend_schema(
        operation_id="fleets_create",
        summary="Upload a fleet: NDJSON, a JSON array or a zip of inventories (202)",
        description="Every good server is advised on a worker and stored as an assessment "
        "linked to the fleet; a bad document fails alone, its problems re-rooted by "
        f"position. The body may be up to MAX_FLEET_BYTES ({settings.MAX_FLEET_BYTES:,}).",
        parameters=[
            NAME,
            OpenApiParameter(IDEMPOTENCY_HEADER, str, location=OpenApiParameter.HEADER),
        ],
        request=FLEET_BODY,
        responses={
            200: OpenApiResponse(FleetSerializer, "A retry: the fleet stored before."),
            202: OpenApiResponse(FleetSerializer, "Stored and queued; poll its url."),
            **error_responses(400, 401, 403, 409, 413, 429),
        },
    )
    def post(self, request: Request) -> Response:
        reject_unknown_query(request, ("name",))
        key = idempotency_key(request.headers.get(IDEMPOTENCY_HEADER))
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
            digest = _spool(request._request, body)
            try:
                entries = read_fleet(body, request.content_type or "")
            except FleetError as exc:
                if exc.status == status.HTTP_413_REQUEST_ENTITY_TOO_LARGE:
                    raise BodyTooLarge(str(exc)) from None
                raise exceptions.ValidationError({exc.field: [exc.message]}) from None
        try:
            fleet, created = services.fleet_create(
                user=request_user(request), entries=entries,
                name=request.query_params.get("name", ""), idempotency_key=key,
                digest=digest if key else "",
            )  # fmt: skip
        except assessment_services.IdempotencyConflict:
            raise Conflict(f"{IDEMPOTENCY_HEADER} was used before with another body.") from None
        except assessment_services.NoOrganisation:
            raise exceptions.PermissionDenied("You belong to no organisation.") from None
        answer = fleet_body(request, fleet)
        code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
        return Response(answer, status=code, headers={"Location": answer["url"]})


class FleetDetailView(ApiView):
    @extend_schema(
        operation_id="fleets_retrieve",
        summary="A fleet's progress; once done, its groups of identical advice, "
        "disagreements and drift",
        responses={200: FleetDetailSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_with_summary_or_404(request.user, pk)
        services.requeue_stalled(fleet)  # no query unless the fleet is queued and stale
        body = fleet_body(request, fleet)
        # A finished fleet's counts and summary were stored when it finished: one query.
        return Response(body | presenting.summary(fleet) if body["status"] == "done" else body)


class FleetServersView(ApiView):
    @extend_schema(
        operation_id="fleets_servers",
        summary="The fleet's servers with their warnings by severity, filtered and sorted",
        parameters=SERVER_FILTERS,
        responses={200: FleetServersSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        _check_filters(request, FILTER_NAMES)
        fleet = selectors.fleet_or_404(request.user, pk)
        items = presenting.filtered(fleet, request.query_params)
        page = presenting.page_number(request.query_params.get("page"))
        rows = items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        return Response(
            {"count": items.count(), "page": page, "results": [presenting.row(i) for i in rows]}
        )


class FleetCsvView(FileView):
    @extend_schema(
        operation_id="fleets_servers_csv",
        summary="Every server of the fleet as CSV",
        parameters=SERVER_FILTERS[:-1],
        responses={(200, "text/csv"): OpenApiTypes.STR, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        _check_filters(request, FILTER_NAMES[:-1])
        fleet = selectors.fleet_or_404(request.user, pk)
        items = presenting.filtered(fleet, request.query_params)
        response = StreamingHttpResponse(presenting.csv_lines(items), content_type="text/csv")
        as_attachment(response, f"fleet-{fleet.pk}.csv")
        return response


class FleetReevaluateView(ApiView):
    @extend_schema(
        operation_id="fleets_reevaluate",
        summary="Run the fleet's documents again on the current rules (202, a new fleet)",
        request=None,
        responses={202: FleetSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        fresh = services.fleet_reevaluate(user=request_user(request), fleet=fleet)
        answer = fleet_body(request, fresh)
        return Response(
            answer, status=status.HTTP_202_ACCEPTED, headers={"Location": answer["url"]}
        )


class AssessmentReevaluateView(ApiView):
    @extend_schema(
        operation_id="assessments_reevaluate",
        summary="Advise the assessment's inventory again on the current rules (201)",
        description="A new assessment; the old one keeps its rules version. `changes` "
        "lists each setting the new rules change, add or drop, and why.",
        request=None,
        responses={201: ReevaluationSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        old = assessment_or_404(request.user, pk)
        new = assessment_services.assessment_reevaluate(user=request_user(request), assessment=old)
        url = request.build_absolute_uri(reverse("api-assessment-detail", args=[new.pk]))
        body = {
            "id": new.pk, "url": url, "previous": old.pk,
            "rules_version": {"old": old.rules_version, "new": new.rules_version},
            "changes": setting_changes(results.result_of(old), results.result_of(new)),
        }  # fmt: skip
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": url})


def report_body(request: Request, report: FleetReport) -> dict[str, Any]:
    url = request.build_absolute_uri(
        reverse("fleets_api:report", args=[report.fleet_id, report.pk])
    )
    return {"id": report.pk, "url": url, "pdf_url": url + "pdf", "status": report.status,
            "attempts": report.attempts, "error": report.error,
            "created_at": report.created_at, "finished_at": report.finished_at}  # fmt: skip


class FleetReportsView(ApiView):
    @extend_schema(
        operation_id="fleets_report_create",
        summary="Build the fleet's summary report as a PDF on a worker (202)",
        description="One report builds per fleet at a time: a request while one is queued "
        "or running joins it.",
        request=None,
        responses={202: FleetReportSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        report = fleet_report_request(fleet=fleet, user=request_user(request))
        body = report_body(request, report)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class FleetReportView(ApiView):
    @extend_schema(
        operation_id="fleets_report_retrieve",
        summary="A fleet report's status",
        responses={200: FleetReportSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, pk: int, report_pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        return Response(report_body(request, get_object_or_404(fleet.reports, pk=report_pk)))


class FleetReportPdfView(FileView):
    @extend_schema(
        operation_id="fleets_report_pdf",
        summary="A built fleet report's PDF (409 until it is done)",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY,
                   **error_responses(401, 404, 409, 429)},
    )  # fmt: skip
    def get(self, request: Request, pk: int, report_pk: int) -> HttpResponseBase:
        fleet = selectors.fleet_or_404(request.user, pk)
        report = get_object_or_404(fleet.reports, pk=report_pk)
        if report.status != FleetReport.Status.DONE or not report.pdf_file:
            raise Conflict(f"The report is {report.status}, not built yet.")
        return stored_file(report.pdf_file, f"fleet-{fleet.pk}-report.pdf", "application/pdf")


class AssessmentArchiveView(ApiView):
    @extend_schema(
        operation_id="assessments_archive",
        summary="Archive an assessment: left out of the list, kept for audit (200)",
        request=None,
        responses={200: ArchivedSerializer, **error_responses(401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        assessment = assessment_or_404(request.user, pk)
        assessment_services.assessment_archive(user=request_user(request), assessment=assessment)
        return Response({"id": assessment.pk, "archived_at": assessment.archived_at})
