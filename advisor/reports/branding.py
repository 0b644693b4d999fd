"""The organisation's logo on a report's cover: checked when uploaded, embedded when built.

Only PNG and JPEG are taken, recognised by their first bytes rather than the file name or
the browser's content type (both are the uploader's word). SVG is refused: it can carry
scripts and external references, which neither the HTML report nor the PDF should hold.

A file that starts like a PNG proves nothing (PNG magic then `<svg>` passes a signature
check), and a small file may be a decompression bomb (160 KB of zeros that inflate to
20,000 × 20,000 pixels). So the logo is opened with Pillow, which reads only the header;
its size is held to LOGO_MAX_PIXELS before a pixel is decoded; the file is verified,
decoded whole (a truncated one fails), and encoded again as a plain PNG without its
metadata (EXIF, text chunks, colour profile). Only that PNG is stored.

The PDF builder fetches nothing (pdf.py), so the logo goes into the report as a data: URI.
"""

from __future__ import annotations

import base64
import io
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db.models.fields.files import FieldFile
from PIL import Image, ImageOps, UnidentifiedImageError

LOGO_MAX_BYTES = 512 * 1024
LOGO_MAX_SIDE = 4_000  # pixels: a cover logo is shown a few centimetres wide
LOGO_MAX_PIXELS = LOGO_MAX_SIDE * LOGO_MAX_SIDE  # 16 M pixels, at most 64 MB decoded (RGBA)
SIGNATURES = {b"\x89PNG\r\n\x1a\n": "image/png", b"\xff\xd8\xff": "image/jpeg"}
FORMATS = ["PNG", "JPEG"]
STORED_MODES = {"1", "L", "LA", "P", "RGB", "RGBA"}  # written to PNG as they are
DAMAGED = "Logo: the file is not a whole PNG or JPEG image (damaged, or only starts like one)."


def logo_type(head: bytes) -> str | None:
    """The image type its first bytes show (image/png, image/jpeg), or None."""
    return next((kind for sig, kind in SIGNATURES.items() if head.startswith(sig)), None)


def _too_large(width: int, height: int) -> ValidationError:
    return ValidationError(
        f"Logo: the image is {width:,} × {height:,} pixels; give one of at most "
        f"{LOGO_MAX_SIDE:,} × {LOGO_MAX_SIDE:,} ({LOGO_MAX_PIXELS // 1_000_000} million pixels)."
    )


def _read(upload: Any) -> bytes:
    size = int(getattr(upload, "size", 0) or 0)
    if size > LOGO_MAX_BYTES:
        raise ValidationError(
            f"Logo: the file is {size // 1024} KB; give one of at most {LOGO_MAX_BYTES // 1024} KB."
        )
    upload.seek(0)
    data: bytes = upload.read(LOGO_MAX_BYTES + 1)
    upload.seek(0)
    if len(data) > LOGO_MAX_BYTES:
        raise ValidationError(f"Logo: give a file of at most {LOGO_MAX_BYTES // 1024} KB.")
    if logo_type(data[:8]) is None:
        raise ValidationError(
            "Logo: give a PNG or JPEG image (other formats, SVG too, are refused)."
        )
    return data


def _checked_header(data: bytes) -> None:
    """Refuse, from the header alone, an image too large or with more than one frame."""
    with Image.open(io.BytesIO(data), formats=FORMATS) as image:
        if image.width * image.height > LOGO_MAX_PIXELS:
            raise _too_large(image.width, image.height)
        if getattr(image, "n_frames", 1) > 1:
            raise ValidationError("Logo: give a still image (an animated one is refused).")
        image.verify()  # chunk checksums and structure, nothing decoded yet


def _plain_png(data: bytes) -> bytes:
    out = io.BytesIO()
    with Image.open(io.BytesIO(data), formats=FORMATS) as image:
        image.load()
        ImageOps.exif_transpose(image, in_place=True)  # a photo's EXIF rotation, no copy
        plain: Image.Image = image
        if image.mode not in STORED_MODES:  # CMYK or YCbCr JPEG, 16-bit PNG
            plain = image.convert("RGBA" if "A" in image.mode else "RGB")
        kept = image.info.get("transparency")
        plain.info = {} if kept is None else {"transparency": kept}  # EXIF, text, ICC go
        plain.save(out, format="PNG")
    return out.getvalue()


def reencoded_logo(upload: Any) -> bytes:
    """The uploaded PNG or JPEG as a plain PNG, or a ValidationError naming the field and
    what is wrong: too many bytes or pixels, another format, damaged, animated."""
    data = _read(upload)
    try:
        _checked_header(data)
        return _plain_png(data)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        # Pillow's own ceiling (89 M pixels warns, 179 M raises), met while it reads the
        # header, before ours: the size is not known here, only that it is far too large.
        raise ValidationError(
            f"Logo: the image has far too many pixels; give one of at most "
            f"{LOGO_MAX_SIDE:,} × {LOGO_MAX_SIDE:,}."
        ) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError):
        raise ValidationError(DAMAGED) from None


def logo_file(upload: Any) -> ContentFile[bytes]:
    """The file to store for an upload: its plain PNG (ValidationError as above)."""
    return ContentFile(reencoded_logo(upload), name="logo.png")


def validate_logo(upload: Any) -> None:
    """The model field's check, for whatever form saves it: the same as reencoded_logo."""
    reencoded_logo(upload)


def logo_data_uri(field: FieldFile | None) -> str | None:
    """The stored logo as a data: URI for the report, or None when there is none (or it
    is no longer a PNG or JPEG, too large, or too many pixels — stored before the pixel
    budget: the report is built without it rather than decoding a bomb)."""
    if not field:
        return None
    try:
        with field.open("rb") as handle:
            data: bytes = handle.read(LOGO_MAX_BYTES + 1)
    except OSError:  # the file went missing from storage: build the report without it
        return None
    kind = logo_type(data[:8])
    if kind is None or len(data) > LOGO_MAX_BYTES or not _within_budget(data):
        return None
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def _within_budget(data: bytes) -> bool:
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as image:
            return bool(image.width * image.height <= LOGO_MAX_PIXELS)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        return False  # a warning from Pillow's ceiling is past LOGO_MAX_PIXELS too: logged
