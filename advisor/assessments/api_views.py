"""The assessments API: create (idempotent), list, read, download the files; and advice
without storage for pipelines that only want the generated files."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from advisor.api.base import ApiView, FileView, ListView, request_user
from advisor.api.conditional import CONDITIONAL_PARAMETERS, conditional_responses
from advisor.api.exceptions import ContractViolation
from advisor.api.idempotency import conflicts_refused, idempotency_key, idempotency_parameter
from advisor.api.schemas import error_responses, json_body, ref
from advisor.assessments import files, services
from advisor.assessments.advice import rendered_advice
from advisor.assessments.api_serializers import (
    AssessmentListQuery,
    AssessmentSummarySerializer,
    absolute_url,
)
from advisor.assessments.selectors import assessment_or_404, assessment_rows
from advisor.core import results
from advisor.core.downloads import conditional, etag_of
from advisor.models import Assessment, compact_json


def assessment_response(
    request: Request, assessment: Assessment, code: int = status.HTTP_200_OK, *, location: bool
) -> HttpResponseBase:
    """The contract's result plus `id` and `url`, keys in the contract's order.

    The API answers JSON only, so the stored compact text is spliced in unchanged: the
    bytes are what JSONRenderer would write for the same dict, without decoding and
    re-encoding a result of some 30 kB on every request.
    """
    url = absolute_url(request, assessment)
    headers = {"Location": url} if location else None
    head = compact_json({"id": assessment.pk, "url": url})
    text = f"{head[:-1]},{results.result_text(assessment)[1:]}"
    response = HttpResponse(text.encode(), status=code, content_type="application/json")
    for name, value in (headers or {}).items():
        response[name] = value
    return response


class AssessmentsView(ListView):
    query = {"get": AssessmentListQuery}

    @extend_schema(
        operation_id="assessments_list",
        summary="List the organisation's assessments, newest first",
        parameters=[AssessmentListQuery],
        responses={
            200: AssessmentSummarySerializer(many=True),
            **error_responses(400, 401, 404, 429),
        },
    )
    def get(self, request: Request) -> Response:
        assessments = assessment_rows(request.user, hostname=self.query_data.get("hostname"))
        context = {"request": request}
        return self.paged(
            assessments,
            lambda page: AssessmentSummarySerializer(page, many=True, context=context).data,
        )

    @extend_schema(
        operation_id="assessments_create",
        summary="Advise on an inventory and store the result",
        request=json_body("Inventory"),
        parameters=[idempotency_parameter("the assessment")],
        responses={
            201: OpenApiResponse(ref("Assessment"), "Stored."),
            200: OpenApiResponse(ref("Assessment"), "A retry: the assessment stored before."),
            **error_responses(400, 401, 403, 409, 413, 415, 429),
        },
    )
    def post(self, request: Request) -> HttpResponseBase:
        key = idempotency_key(request)
        try:
            with conflicts_refused():
                assessment, created = services.assessment_create(
                    user=request_user(request), document=request.data, idempotency_key=key
                )
        except rules.InventoryError as exc:
            raise ContractViolation(exc) from None
        except services.NoOrganisation:
            raise exceptions.PermissionDenied("You belong to no organisation.") from None
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return assessment_response(request, assessment, code, location=True)


class AssessmentDetailView(ApiView):
    @extend_schema(
        operation_id="assessments_retrieve",
        summary="One assessment: the stored result",
        responses={200: ref("Assessment"), **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        return assessment_response(request, assessment_or_404(request.user, pk), location=False)


class ArtifactView(FileView):
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="assessments_artifact",
        summary="One generated file (or recommendations.json), as the CLI writes it",
        parameters=CONDITIONAL_PARAMETERS,
        responses={
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.BINARY, "The file, as written."),
            (200, "application/json"): OpenApiResponse(ref("Result"), "recommendations.json"),
            **conditional_responses(),
            **error_responses(400, 401, 404, 429),
        },
    )
    def get(self, request: Request, pk: int, filename: str) -> HttpResponseBase:
        assessment = assessment_or_404(request.user, pk)
        if filename == files.RESULT_FILE:
            body, kind = assessment.recommendations_json.encode(), "application/json"
        else:
            text = results.artifact(assessment, filename)
            if text is None:
                raise exceptions.NotFound("This assessment has no file of that name.")
            body, kind = text.encode(), "text/plain; charset=utf-8"
        return conditional(request._request, lambda: files.attachment(body, filename, kind),
                           etag=etag_of(body), last_modified=assessment.created_at)  # fmt: skip


class BundleView(FileView):
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="assessments_bundle",
        summary="Every generated file plus recommendations.json in one zip",
        parameters=CONDITIONAL_PARAMETERS,
        responses={
            (200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, "The zip."),
            **conditional_responses(),
            **error_responses(400, 401, 404, 429),
        },
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        assessment = assessment_or_404(request.user, pk)
        data = files.bundle(assessment)
        name = files.bundle_name(assessment)
        return conditional(
            request._request, lambda: files.attachment(data, name, "application/zip"),
            etag=etag_of(data), last_modified=assessment.created_at,
        )  # fmt: skip


class AdviceView(ApiView):
    @extend_schema(
        operation_id="advice_create",
        summary="Advise on an inventory; nothing is stored",
        request=json_body("Inventory"),
        responses={
            200: OpenApiResponse(ref("Result"), "The contract's result."),
            **error_responses(400, 401, 413, 415, 429),
        },
    )
    def post(self, request: Request) -> HttpResponse:
        try:
            body = rendered_advice(request.data)
        except rules.InventoryError as exc:
            raise ContractViolation(exc) from None
        return HttpResponse(body, content_type="application/json")
