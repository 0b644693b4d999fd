"""The new-assessment page (or its storage fieldset) with the storage rows written one at
a time, as bytes, into their place.

A draft read from a large paste fills up to 512 rows, about 18 KB of HTML each. Rendered
inside the page, each template level joins the rows' 10 MB of text again (twice that as
soon as one character is not ASCII), and the worker's memory rose by some 60 MB for the
one page. Here the page is rendered with a marker where the rows go; each row is rendered
on its own and encoded at once, so the page costs its bytes and one copy of them.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

ROW_TEMPLATE = "assessments/_storage_row.html"


def render_with_rows(
    request: HttpRequest, template_name: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    """`template_name` rendered on `context`, its storage rows (`context['formset']`)
    written where the template prints `rows_marker`."""
    marker = mark_safe(f"<!-- storage rows {uuid.uuid4().hex} -->")
    page = render_to_string(template_name, context | {"rows_marker": marker}, request)
    head, found, tail = page.partition(marker)
    del page
    chunks = [head.encode()]
    if found:
        chunks += _rows(context["formset"].forms)
    chunks.append(tail.encode())
    return HttpResponse(b"".join(chunks), status=status)


def _rows(forms: list[Any]) -> list[bytes]:
    """Each row's HTML, encoded as soon as it is written."""
    template, url = get_template(ROW_TEMPLATE), reverse("web:new")
    return [
        template.render({"row": row, "index": i, "number": i + 1, "rows_url": url}).encode()
        for i, row in enumerate(forms)
    ]
