"""The API for reading a server: parse a bundle into a draft inventory, verify a saved
assessment's advice against a newer bundle, and download the collector that writes bundles.

A bundle is sent as the raw body (text/plain, as the collector wrote it) or as JSON
`{"bundle": "…"}`; either is untrusted text, bounded by MAX_BUNDLE_BYTES and parsed,
never executed. Verify refuses a bundle of another host or OS with 400 naming both
values; `allow_renamed_host=true` (query or JSON body) accepts another host name.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpResponseBase
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import exceptions
from rest_framework.parsers import BaseParser
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

import rules
from advisor.api.base import (
    ApiView,
    ContractJSONParser,
    FileView,
    reject_unknown_query,
    request_user,
)
from advisor.api.conditional import CONDITIONAL_PARAMETERS, conditional_responses
from advisor.api.schemas import error_responses, ref
from advisor.assessments import files, reading, verifications
from advisor.assessments.selectors import assessment_or_404
from advisor.core.downloads import conditional, etag_of
from advisor.models import Verification
from rules.collect import SOURCE
from rules.measured_verify import measured_list
from rules.verify import unjudgeable


class PlainTextParser(BaseParser):
    """A text body as a string (UTF-8; bytes that are not are replaced, not fatal)."""

    media_type = "text/plain"

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        return stream.read().decode("utf-8", errors="replace") if stream else ""


def bundle_text(request: Request, fields: tuple[str, ...] = ("bundle",)) -> str:
    """The bundle a request carries, or a 400 naming the field (`fields`: those taken)."""
    data: Any = request.data
    if request.content_type.startswith("application/json") and not isinstance(data, Mapping):
        raise exceptions.ValidationError({"bundle": ['send {"bundle": "…"} or a text/plain body']})
    if isinstance(data, Mapping):
        errors = {str(k): ['is not a field: send {"bundle": "…"}'] for k in data if k not in fields}
        data = data.get("bundle")
        if not isinstance(data, str):
            errors["bundle"] = ["must be a string (the bundle's text)"]
        if errors:
            raise exceptions.ValidationError(errors)
    if not isinstance(data, str) or not data.strip():
        raise exceptions.ValidationError({"bundle": ["is empty: send the collector's bundle"]})
    return data


BUNDLE_BODY = {
    # Binary: the text as the collector wrote it, sent as is (read as UTF-8, a byte that is
    # not UTF-8 replaced); generators then send it unchanged.
    "text/plain": {
        "type": "string",
        "format": "binary",
        "description": "the bundle or transcript, as written",
    },
    "application/json": {
        "type": "object",
        "properties": {"bundle": {"type": "string"}},
        "required": ["bundle"],
        "additionalProperties": False,
    },
}


RENAMED = "allow_renamed_host"
FLAG_WORDS = {"true": True, "1": True, "false": False, "0": False}


def allow_renamed_host(request: Request) -> bool:
    """The override for a renamed server, from the query or the JSON body; 400 naming it
    for a value that is not true or false, and for any other query parameter."""
    reject_unknown_query(request, (RENAMED,))
    allow = False
    if RENAMED in request.query_params:
        word = request.query_params[RENAMED].lower()
        if word not in FLAG_WORDS:
            raise exceptions.ValidationError({RENAMED: ["must be true or false"]})
        allow = FLAG_WORDS[word]
    data: Any = request.data
    if isinstance(data, Mapping) and RENAMED in data:
        if not isinstance(data[RENAMED], bool):
            raise exceptions.ValidationError({RENAMED: ["must be true or false (a boolean)"]})
        allow = allow or data[RENAMED]
    return allow


def mismatch_errors(exc: reading.ReadingMismatch) -> dict[str, list[str]]:
    """A reading of another host or OS, by field; how to verify a renamed server."""
    hint = f"; if the server was renamed, send {RENAMED}=true" if exc.renamable else ""
    return {p.path: [p.message + (hint if p.path == "server.hostname" else "")]
            for p in exc.problems}  # fmt: skip


VERIFY_BODY = {
    "text/plain": BUNDLE_BODY["text/plain"],
    "application/json": {
        "type": "object",
        "properties": {"bundle": {"type": "string"}, RENAMED: {"type": "boolean"}},
        "required": ["bundle"],
        "additionalProperties": False,
    },
}
RENAMED_PARAMETER = OpenApiParameter(
    RENAMED, OpenApiTypes.BOOL, required=False,
    description="Verify a bundle whose host name differs: the server was renamed.",
)  # fmt: skip


class BundleViewBase(ApiView):
    parser_classes = [PlainTextParser, ContractJSONParser]
    max_body_bytes = settings.MAX_BUNDLE_BYTES


class InventoryParseView(BundleViewBase):
    @extend_schema(
        operation_id="inventories_parse",
        summary="Read a collector bundle or transcript into a draft inventory",
        description="The draft holds every field the server told, with its provenance "
        "(command and line), the fields the admin must still give (always the workload) "
        "and problems by line. Nothing is stored.",
        request=BUNDLE_BODY,
        responses={200: ref("Draft"), **error_responses(400, 401, 413, 415, 429)},
        examples=[
            OpenApiExample(
                "transcript",
                value="$ uname -a\nLinux h 6.1.0 #1 SMP x86_64\n",
                media_type="text/plain",
                request_only=True,
            )
        ],
    )
    def post(self, request: Request) -> Response:
        try:
            found = reading.bundle_draft(text=bundle_text(request))
        except reading.TooLarge as exc:
            raise exceptions.ValidationError({"bundle": [str(exc)]}) from None
        return Response(found.to_dict())


class AssessmentVerifyView(BundleViewBase):
    query = {"post": (RENAMED,)}  # read by allow_renamed_host

    @extend_schema(
        operation_id="assessments_verify",
        summary="Verify a saved assessment's advice against a newer bundle (drift)",
        description="Each recommendation the assessment gave (as stored, whatever rules "
        "version made it) with the value the server runs now: compliant true/false, or null "
        "for checks and settings the bundle does not cover (not read: not drift). A bundle "
        "from another host name or OS is refused with 400 naming both values; "
        "`allow_renamed_host=true` (query, or in the JSON body) accepts another host name "
        "for a renamed server, never another OS. `measured`: per file system the bundle "
        "measured, matched by mount point, read and write MB/s per core in use before (the "
        "assessment's) and after (the bundle's) with SAS's verdict, and whether the way of "
        "measuring changed. Each verify answered 200 is kept: `id` is the kept verification "
        "(listed at /assessments/{id}/verifications/); a row not verified says `how` it "
        "could be.",
        parameters=[RENAMED_PARAMETER],
        request=VERIFY_BODY,
        responses={200: ref("Verification"), **error_responses(400, 401, 404, 413, 415, 429)},
    )
    def post(self, request: Request, pk: int) -> Response:
        assessment = assessment_or_404(request.user, pk)
        allow = allow_renamed_host(request)
        text = bundle_text(request, ("bundle", RENAMED))
        try:
            checked = reading.verify_assessment(
                assessment=assessment, text=text, allow_renamed_host=allow
            )
        except reading.TooLarge as exc:
            raise exceptions.ValidationError({"bundle": [str(exc)]}) from None
        except reading.ReadingMismatch as exc:
            raise exceptions.ValidationError(mismatch_errors(exc)) from None
        except rules.InventoryError as exc:
            # The reading's current block breaks the contract (a value too long, too many).
            problems = [f"{p.path}: {p.message}" for p in exc.problems]
            raise exceptions.ValidationError({"bundle": problems}) from None
        # Nothing read (binary, prose, an inventory's JSON) or none of the advice's
        # settings: 400, as the command line's exit 2, never a passing verification.
        if nothing := unjudgeable(checked):
            raise exceptions.ValidationError({"bundle": nothing})
        measured = measured_list(assessment.inventory, checked.draft.document)
        kept = verifications.verification_store(
            assessment=assessment, user=request_user(request), checked=checked,
            source=Verification.Source.API, measured=measured,
        )  # fmt: skip
        return Response({"id": kept.pk, **checked.to_dict(), "measured": measured})


COLLECTOR_TYPE = "text/x-shellscript; charset=utf-8"


class CollectorView(FileView):
    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="collector_download",
        summary="The read-only collector script (POSIX sh) that writes a bundle",
        parameters=CONDITIONAL_PARAMETERS,
        responses={(200, "text/x-shellscript"): OpenApiResponse(OpenApiTypes.STR, "The script."),
                   **conditional_responses(), **error_responses(400, 401, 429)},
    )  # fmt: skip
    def get(self, request: Request) -> HttpResponseBase:
        name, text = reading.collector()
        body = text.encode()
        changed = datetime.fromtimestamp(SOURCE.stat().st_mtime, tz=UTC)
        return conditional(
            request._request, lambda: files.attachment(body, name, COLLECTOR_TYPE),
            etag=etag_of(body), last_modified=changed,
        )  # fmt: skip
