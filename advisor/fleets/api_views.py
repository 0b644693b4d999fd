"""The fleet API: upload (202 and a status URL), progress, the servers with filters, CSV,
re-evaluation on the current rules; and the re-evaluation of a single assessment."""

from __future__ import annotations

import hashlib
import tempfile
from typing import IO, Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, StreamingHttpResponse
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, FileView, ListView, request_user
from advisor.api.conditional import CONDITIONAL_PARAMETERS, conditional_responses
from advisor.api.idempotency import (
    conflicts_refused,
    idempotency_key,
    idempotency_parameter,
    retried_responses,
)
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
    FleetSerializer,
    FleetServerSerializer,
    FleetServersQuery,
    FleetUploadQuery,
    ReevaluationSerializer,
)
from advisor.fleets.reading import NDJSON_KINDS, ZIP_KINDS, FleetError, read_fleet
from advisor.models import Assessment, Fleet

# The media types an upload is taken in: the schema's, and their other names (415 else,
# as every operation answers a body of a type it does not declare).
UPLOAD_KINDS = frozenset((*FLEET_BODY, *ZIP_KINDS, *NDJSON_KINDS))
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
        kind = (request.content_type or "").split(";", 1)[0].strip().lower()
        if kind and kind not in UPLOAD_KINDS:  # none: told by its first bytes
            raise exceptions.UnsupportedMediaType(request.content_type)
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
        responses={200: FleetDetailSerializer, **error_responses(400, 401, 404, 429)},
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
        responses={(200, "text/csv"): OpenApiTypes.STR, **conditional_responses(),
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
        parameters=[idempotency_parameter("the new fleet")],
        responses=retried_responses(FleetSerializer, 202, "the fleet"),
    )
    def post(self, request: Request, pk: int) -> Response:
        fleet = selectors.fleet_or_404(request.user, pk)
        key, digest = idempotency_key(request), document_hash(["reevaluate", fleet.pk])
        rows = Fleet.objects.filter(organisation_id=fleet.organisation_id)
        with conflicts_refused():
            found = stored_under_key(rows, key, digest)
        if found is not None:
            return Response(fleet_body(request, found))
        fresh = services.fleet_reevaluate(user=request_user(request), fleet=fleet)
        fresh = keep_key(rows, fresh, key, digest)
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
        parameters=[idempotency_parameter("the new assessment")],
        responses=retried_responses(ReevaluationSerializer, 201, "the assessment"),
    )
    def post(self, request: Request, pk: int) -> Response:
        old = assessment_or_404(request.user, pk)
        key = idempotency_key(request)
        rows = Assessment.objects.filter(organisation_id=old.organisation_id)
        with conflicts_refused():
            new = stored_under_key(rows, key, assessment_services.reevaluation_hash(old))
            code: int = status.HTTP_200_OK
            if new is None:
                new = assessment_services.assessment_reevaluate(
                    user=request_user(request), assessment=old, idempotency_key=key
                )
                code = status.HTTP_201_CREATED
        url = request.build_absolute_uri(reverse("api-assessment-detail", args=[new.pk]))
        body = {
            "id": new.pk, "url": url, "previous": old.pk,
            "rules_version": {"old": old.rules_version, "new": new.rules_version},
            "changes": setting_changes(results.result_of(old), results.result_of(new)),
        }  # fmt: skip
        return Response(body, status=code, headers={"Location": url})


class AssessmentArchiveView(ApiView):
    @extend_schema(
        operation_id="assessments_archive",
        summary="Archive an assessment: left out of the list, kept for audit (200)",
        request=None,
        responses={200: ArchivedSerializer, **error_responses(400, 401, 404, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        assessment = assessment_or_404(request.user, pk)
        assessment_services.assessment_archive(user=request_user(request), assessment=assessment)
        return Response({"id": assessment.pk, "archived_at": assessment.archived_at})
