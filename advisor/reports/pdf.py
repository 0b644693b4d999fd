"""HTML to PDF with WeasyPrint. Fonts: DejaVu (fonts-dejavu-core), named in the CSS."""

from __future__ import annotations

import logging

from django.conf import settings

# WeasyPrint logs every layout step at INFO, some while it is imported; a worker log
# needs none of it. Set before the lazy import below.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)


def html_to_pdf(html: str) -> bytes:
    """The report's PDF; the HTML is self-contained (inline CSS and SVG, the logo as a
    data: URI). Every other URL is refused, so client data cannot make the worker fetch
    anything (WeasyPrint skips a refused resource with a warning)."""
    # Heavy: loaded by workers when they first build a report. WeasyPrint ships no types.
    from weasyprint import HTML  # type: ignore[import-untyped]
    from weasyprint.urls import URLFetcher  # type: ignore[import-untyped]

    fetcher = URLFetcher(allowed_protocols={"data"})
    document = HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=fetcher)
    pdf = document.write_pdf()
    if pdf is None:  # write_pdf returns None only when given a target to write to
        raise RuntimeError("WeasyPrint returned no PDF")
    return bytes(pdf)
