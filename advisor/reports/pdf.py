"""HTML to PDF with WeasyPrint. Fonts: DejaVu (fonts-dejavu-core), named in the CSS."""

from __future__ import annotations

import logging

from django.conf import settings

# WeasyPrint logs every layout step at INFO, some while it is imported; a worker log
# needs none of it. Set before the lazy import below.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)


def _no_fetch(url: str, *args: object, **kwargs: object) -> dict[str, object]:
    # The report is self-contained; refusing fetches keeps client data from pulling URLs.
    raise ValueError(f"report PDFs fetch nothing (asked for {url})")


def html_to_pdf(html: str) -> bytes:
    """The report's PDF; the HTML is self-contained (inline CSS and SVG, no fetches)."""
    # Heavy: loaded by workers when they first build a report. WeasyPrint ships no types.
    from weasyprint import HTML  # type: ignore[import-untyped]

    document = HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=_no_fetch)
    pdf = document.write_pdf()
    if pdf is None:  # write_pdf returns None only when given a target to write to
        raise RuntimeError("WeasyPrint returned no PDF")
    return bytes(pdf)
