"""Downloads: the file name in Content-Disposition encoded per RFC 6266 (an ASCII
`filename` and a UTF-8 `filename*`), built files streamed from storage, and validators
(`ETag`, `Last-Modified`) so that a second download of an unchanged file is a 304.

A client that sends If-None-Match with the ETag it got, or If-Modified-Since with the
time it saved the file (Ansible's `uri` with `dest`, curl's `-z`), gets 304 and no body
while the file is unchanged: such a run reports no change.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from django.db.models.fields.files import FieldFile
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response
from django.utils.http import content_disposition_header, http_date, quote_etag

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


def etag_of(*parts: object) -> str:
    """A strong ETag for what the parts name (a file's bytes, or a row and its version)."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode())
        digest.update(b"\0")
    return quote_etag(digest.hexdigest()[:40])


def conditional(
    request: HttpRequest, build: Callable[[], HttpResponseBase], *, etag: str,
    last_modified: datetime,
) -> HttpResponseBase:  # fmt: skip
    """The download `build` makes, with its validators; or 304 (no body, the same
    validators, nothing built or opened) when the request's If-None-Match or
    If-Modified-Since says the client has it already. Private, no-store: every download
    needs the caller's credentials and nothing keeps a copy on the way (as every other
    API answer); a client that kept its own copy (Ansible's uri `dest`, curl -z) sends
    the validators itself and gets the 304."""
    stamp = int(last_modified.timestamp())
    response = get_conditional_response(request, etag=etag, last_modified=stamp) or build()
    response["ETag"] = etag
    response["Last-Modified"] = http_date(stamp)
    response["Cache-Control"] = "private, no-store"
    return response
