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
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, FileView, ListView, request_user
from advisor.api.conditional import CONDITIONAL_PARAMETERS, not_modified
from advisor.api.exceptions import Conflict
from advisor.api.idempotency import conflicts_refused, idempotency_key, idempotency_parameter
from advisor.api.parsers import BodyTooLarge
from advisor.api.schemas import error_responses
from advisor.assessments import services as assessment_services
from advisor.assessments.selectors import assessment_or_404
from advisor.core import results
from advisor.core.changes import setting_changes
from advisor.core.downloads import as_attachment, conditional, etag_of
from advisor.core.idempotency import document_hash, keep_key, stored_under_key
from advisor.fleets import presenting, selectors, services
from advisor.fleets.api_serializers import (
    FLEET_BODY,
    ArchivedSerializer,
    FleetDetailSerializer,
    FleetReportSerializer,
    FleetSerializer,
    FleetServerSerializer,
    FleetServersQuery,
    FleetUploadQuery,
    ReevaluationSerializer,
)
from advisor.fleets.reading import FleetError, read_fleet
from advisor.fleets.reporting import fleet_report_request
from advisor.models import Fleet, FleetReport
from advisor.reports.api_views import built_pdf

SPOOL_BYTES = 1024 * 1024  # a larger body waits on disk while it is read
READ_CHUNK = 64 * 1024


def _spool(request: HttpRequest, spool: IO[bytes]) -> str:
    """Copy the body into `spool` a chunk at a time (never whole in memory, however large
    the wire allowed); its SHA-256 for the idempotency check."""
    digest = hashlib.sha256()
    while chunk := request.read(READ_CHUNK):
        digest.update(chunk)
        spool.write(chunk)
    spool.seek(0)
    return digest.hexdigest()


def fleet_body(request: Request, fleet: Fleet) -> dict[str, Any]:
    url = request.build_absolute_uri(reverse("fleets_api:detail", args=[fleet.pk]))
    return {
        "id": fleet.pk, "url": url, "name": fleet.name, "created_at": fleet.created_at,
        "rules_version": fleet.rules_version, "previous": fleet.previous_id,
        "servers_url": url + "servers/", "csv_url": url + "servers.csv",
        **selectors.progress(fleet),
    }  # fmt: skip


class FleetsView(ListView):
    max_body_bytes = settings.MAX_FLEET_BYTES
    query = {"post": FleetUploadQuery}

    @extend_schema(
        operation_id="fleets_list",
        summary="The organisation's fleets, newest first, with their progress",
        responses={200: FleetSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        rows = selectors.fleets_for_user(request.user)
        return self.paged(rows, lambda page: [fleet_body(request, fleet) for fleet in page])

    @extend_schema(
        operation_id="fleets_create",
        summary="Upload a fleet: NDJSON, a JSON array or a zip of inventories (202)",
        description="Every good server is advised on a worker and stored as an assessment "
        "linked to the fleet; a bad document fails alone, its problems re-rooted by "
        f"position. The body may be up to MAX_FLEET_BYTES ({settings.MAX_FLEET_BYTES:,}).",
        parameters=[FleetUploadQuery, idempotency_parameter("the fleet")],
        request=FLEET_BODY,
        responses={
            200: OpenApiResponse(FleetSerializer, "A retry: the fleet stored before."),
            202: OpenApiResponse(FleetSerializer, "Stored and queued; poll its url."),
            **error_responses(400, 401, 403, 409, 413, 429),
        },
    )
    def post(self, request: Request) -> Response:
        key, name = idempotency_key(request), self.query_data.get("name", "")
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as body:
            digest = _spool(request._request, body)
            try:
                entries = read_fleet(body, request.content_type or "")
            except FleetError as exc:
                if exc.status == status.HTTP_413_REQUEST_ENTITY_TOO_LARGE:
                    raise BodyTooLarge(str(exc)) from None
                raise exceptions.ValidationError({exc.field: [exc.message]}) from None
        try:
            with conflicts_refused():
                fleet, created = services.fleet_create(
                    user=request_user(request), entries=entries,
                    name=name, idempotency_key=key,
                    digest=document_hash([name, digest]) if key else "",
                )  # fmt: skip
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


class FleetServersView(ListView):
    query = {"get": FleetServersQuery}

    @extend_schema(
        operation_id="fleets_servers",
        summary="The fleet's servers with their warnings by severity, filtered and sorted",
        parameters=[FleetServersQuery],
        responses={200: FleetServerSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        items = presenting.filtered(fleet, self.query_data)
        return self.paged(items, lambda page: [presenting.row(item) for item in page])


class FleetCsvView(FileView):
    query = {"get": FleetServersQuery}

    @extend_schema(
        operation_id="fleets_servers_csv",
        summary="Every server of the fleet as CSV",
        description="Once the fleet is done the file is final: it has an ETag and "
        "Last-Modified, and a client that has it gets 304.",
        parameters=[FleetServersQuery, *CONDITIONAL_PARAMETERS],
        responses={(200, "text/csv"): OpenApiTypes.STR, **not_modified(),
                   **error_responses(400, 401, 404, 429)},
    )  # fmt: skip
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        fleet = selectors.fleet_or_404(request.user, pk)
        items = presenting.filtered(fleet, self.query_data)

        def build() -> HttpResponseBase:
            response = StreamingHttpResponse(presenting.csv_lines(items), content_type="text/csv")
            return as_attachment(response, f"fleet-{fleet.pk}.csv")

        if fleet.status != Fleet.Status.DONE or fleet.finished_at is None:
            return build()  # its servers are still changing
        etag = etag_of("fleet-csv", fleet.pk, fleet.finished_at, sorted(self.query_data.items()))
        return conditional(request._request, build, etag=etag, last_modified=fleet.finished_at)


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
        responses={
            202: FleetReportSerializer,
            200: OpenApiResponse(
                FleetReportSerializer, "a retry: the report requested before, as it is now"
            ),
            **error_responses(400, 401, 404, 409, 429),
        },
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
        responses={200: FleetReportSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, pk: int, report_pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        return Response(report_body(request, get_object_or_404(fleet.reports, pk=report_pk)))


class FleetReportPdfView(FileView):
    @extend_schema(
        operation_id="fleets_report_pdf",
        summary="A built fleet report's PDF (409 until it is done)",
        parameters=CONDITIONAL_PARAMETERS,
        responses={(200, "application/pdf"): OpenApiTypes.BINARY, **not_modified(),
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
