"""Downloads: the file name in Content-Disposition encoded per RFC 6266 (an ASCII
`filename` and a UTF-8 `filename*`), and built files streamed from storage."""

from __future__ import annotations

from typing import TypeVar

from django.db.models.fields.files import FieldFile
from django.http import FileResponse, HttpResponseBase
from django.utils.http import content_disposition_header

R = TypeVar("R", bound=HttpResponseBase)


def as_attachment(response: R, filename: str) -> R:
    """Mark the response a download named `filename`, whatever characters it holds (a
    host name, a quote, a non-ASCII letter): Django quotes or encodes it as the RFC asks."""
    header = content_disposition_header(as_attachment=True, filename=filename)
    if header:
        response["Content-Disposition"] = header
    response["X-Content-Type-Options"] = "nosniff"
    return response


def stored_file(field: FieldFile, filename: str, content_type: str) -> FileResponse:
    """A built file (a report's PDF) streamed from storage as a download."""
    response = FileResponse(field.open("rb"), content_type=content_type)
    as_attachment(response, filename)
    return response
