"""The SAS log API: POST a log as text/plain, read the analysis, list logs ranked by the
time their findings could save, tie a log to an assessment.

A log up to LOG_INLINE_BYTES is diagnosed in the request (201, with its analysis); a
larger one is queued for a worker (202, Location to poll): its `status` goes queued,
running, then done (with the analysis) or failed (with `error`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from advisor.api.base import ApiView, ListView, request_user
from advisor.api.idempotency import conflicts_refused, idempotency_key, idempotency_parameter
from advisor.api.schemas import error_responses
from advisor.assessments.selectors import assessment_or_404
from advisor.core.idempotency import HashedChunks, insert_once, stored_under_key
from advisor.core.selectors import organisation_for_user
from advisor.logs import services
from advisor.logs.api_serializers import (
    LogDetailSerializer,
    LogQueuedSerializer,
    LogSerializer,
    LogUploadQuery,
)
from advisor.logs.selectors import log_or_404, log_summaries_for_user
from advisor.models import Assessment, JobLog, Organisation

READ_CHUNK = 64 * 1024
ATTACH_BODY = {
    "type": "object",
    "properties": {
        "assessment": {"type": "integer", "nullable": True, "description": "null unties it"}
    },
    "required": ["assessment"],
}


def summary(request: Request, row: JobLog) -> dict[str, Any]:
    return {
        "id": row.pk,
        "url": request.build_absolute_uri(f"/api/v1/logs/{row.pk}/"),
        "name": row.name,
        "created_at": row.created_at.isoformat(),
        "assessment": row.assessment_id,
        # queued, running, done or failed; the figures are 0 until it is done
        "status": row.status,
        "error": row.error,
        "size_bytes": row.size_bytes,
        "sas_version": row.sas_version,
        "platform": row.platform,
        "step_count": row.step_count,
        "job_seconds": row.job_seconds,
        "saving_seconds": row.saving_seconds,
        "findings_count": row.findings_count,
    }


def detail(request: Request, row: JobLog) -> dict[str, Any]:
    """The summary and the analysis (null until the log is done)."""
    done = row.status == JobLog.Status.DONE
    return summary(request, row) | {"analysis": row.analysis if done else None}


def _chunks(request: HttpRequest) -> Iterator[bytes]:
    while chunk := request.read(READ_CHUNK):
        yield chunk


def _assessment(request: Request, raw: Any) -> Assessment | None:
    if raw in (None, ""):
        return None
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        raise exceptions.ValidationError({"assessment": ["must be an assessment id"]}) from None
    try:
        return assessment_or_404(request.user, pk)
    except Http404:  # the log is there; the field names what is not
        raise exceptions.ValidationError({"assessment": [f"no assessment {pk}"]}) from None


def _submit_once(
    request: Request, org: Organisation, key: str | None, body: HashedChunks, **given: Any
) -> tuple[JobLog, bool]:
    """The log stored before under `key` for the same body, name and assessment (False),
    or the one stored now (True). A retry's body is read for its hash only."""
    rows = JobLog.objects.filter(organisation=org)
    if key and rows.filter(idempotency_key=key).exists():
        body.drain()
        if found := stored_under_key(rows, key, body.hexdigest()):
            return found, False

    def keyed() -> dict[str, Any]:
        return {"idempotency_key": key, "request_hash": body.hexdigest()} if key else {}

    def insert() -> JobLog:
        user = request_user(request)
        return services.log_submit(organisation=org, user=user, chunks=body, keyed=keyed, **given)

    return insert_once(rows, key, body.hexdigest, insert)


class LogsView(ListView):
    max_body_bytes = settings.MAX_LOG_BYTES
    query = {"post": LogUploadQuery}

    @extend_schema(
        operation_id="logs_list",
        summary="The organisation's SAS logs, the largest possible saving first",
        responses={200: LogSerializer(many=True), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        rows = log_summaries_for_user(request.user)
        return self.paged(rows, lambda page: [summary(request, row) for row in page])

    @extend_schema(
        operation_id="logs_create",
        summary="Diagnose a job from its SAS log (the body, text/plain, as SAS wrote it)",
        parameters=[LogUploadQuery, idempotency_parameter("the log")],
        request={
            "text/plain": {
                "type": "string",
                "format": "binary",
                "description": "the log, as SAS wrote it",
            }
        },
        description="A log up to LOG_INLINE_BYTES (1 MiB by default) is diagnosed in the "
        "request: 201 with its analysis. A larger one is stored and diagnosed on a worker: 202 "
        "with Location, the log's URL, whose status goes queued, running, then done (with the "
        "analysis) or failed (with the reason in `error`).",
        responses={
            201: OpenApiResponse(LogDetailSerializer, "diagnosed: the log and its analysis"),
            202: OpenApiResponse(LogQueuedSerializer, "queued for a worker; poll its url"),
            200: OpenApiResponse(
                LogDetailSerializer, "a retry: the log stored before, as it is now"
            ),
            **error_responses(400, 401, 403, 409, 413, 415, 429),
        },
    )
    def post(self, request: Request) -> Response:
        if not request.content_type.startswith("text/plain"):
            raise exceptions.UnsupportedMediaType(request.content_type)
        org = organisation_for_user(request.user)
        if org is None:
            raise exceptions.PermissionDenied("You belong to no organisation.")
        assessment = _assessment(request, self.query_data.get("assessment"))
        name = self.query_data.get("name") or "log"
        key = idempotency_key(request)
        upload = HashedChunks(
            _chunks(request._request), name, str(self.query_data.get("assessment"))
        )
        try:
            with conflicts_refused():
                row, created = _submit_once(
                    request, org, key, upload, name=name, assessment=assessment
                )
        except services.LogError as exc:
            raise exceptions.ValidationError({"log": [exc.message]}) from None
        if not created:
            return Response(detail(request, row))
        if row.status == JobLog.Status.DONE:
            body = detail(request, row)
            return Response(body, status=status.HTTP_201_CREATED, headers={"Location": body["url"]})
        row.refresh_from_db(fields=["status"])  # an in-process (eager) run may have finished it
        body = LogQueuedSerializer(row, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["url"]})


class LogDetailView(ApiView):
    @extend_schema(
        operation_id="logs_retrieve",
        summary="One log: its status and, once done, its analysis (timeline, findings, "
        "what-if, options); a failed log gives the reason in `error`",
        responses={200: LogDetailSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> Response:
        row = log_or_404(request.user, pk)
        return Response(detail(request, row))

    @extend_schema(
        operation_id="logs_attach",
        summary='Tie the log to an assessment ({"assessment": id}) or untie it (null)',
        request={"application/json": ATTACH_BODY},
        responses={200: LogDetailSerializer, **error_responses(400, 401, 404, 429)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        row = log_or_404(request.user, pk)
        data = request.data
        if not isinstance(data, dict) or "assessment" not in data:
            raise exceptions.ValidationError({"assessment": ["give an assessment id or null"]})
        services.log_attach(job_log=row, assessment=_assessment(request, data["assessment"]))
        return Response(detail(request, row))
