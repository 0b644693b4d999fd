"""The organisation's logo on a report's cover: checked when uploaded, embedded when built.

Only PNG and JPEG are taken, recognised by their first bytes rather than the file name or
the browser's content type (both are the uploader's word). SVG is refused: it can carry
scripts and external references, which neither the HTML report nor the PDF should hold.
The PDF builder fetches nothing (pdf.py), so the logo goes into the report as a data: URI.
"""

from __future__ import annotations

import base64
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models.fields.files import FieldFile

LOGO_MAX_BYTES = 512 * 1024
SIGNATURES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}


def logo_type(head: bytes) -> str | None:
    """The image type its first bytes show (image/png, image/jpeg), or None."""
    return next((kind for sig, kind in SIGNATURES.items() if head.startswith(sig)), None)


def validate_logo(upload: Any) -> None:
    """A PNG or JPEG of at most 512 KB; the message names the field and what is wrong."""
    size = int(getattr(upload, "size", 0) or 0)
    if size > LOGO_MAX_BYTES:
        raise ValidationError(
            f"Logo: the file is {size // 1024} KB; give one of at most {LOGO_MAX_BYTES // 1024} KB."
        )
    upload.seek(0)
    head = upload.read(8)
    upload.seek(0)
    if logo_type(head) is None:
        raise ValidationError(
            "Logo: give a PNG or JPEG image (other formats, SVG too, are refused)."
        )


def logo_data_uri(field: FieldFile | None) -> str | None:
    """The stored logo as a data: URI for the report, or None when there is none (or it
    is no longer a PNG or JPEG, or too large: the report is built without it)."""
    if not field:
        return None
    try:
        with field.open("rb") as handle:
            data: bytes = handle.read(LOGO_MAX_BYTES + 1)
    except OSError:  # the file went missing from storage: build the report without it
        return None
    kind = logo_type(data[:8])
    if kind is None or len(data) > LOGO_MAX_BYTES:
        return None
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
