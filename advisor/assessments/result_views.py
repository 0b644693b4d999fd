"""The assessment list and the result pages: list, result, compare.

Thin functions: read the request, call a selector, render. An htmx request gets only the
named partial it asked for; everything also works with plain links and forms.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.utils.timezone import localtime
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from advisor.assessments import presenting
from advisor.assessments.selectors import assessment_or_404, assessment_rows
from advisor.core.changes import setting_changes
from advisor.core.http import PageRequest
from advisor.core.paging import KeysFirstPaginator

PAGE_SIZE = 25


@require_GET
@login_required
def assessment_list(request: PageRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    page = KeysFirstPaginator(assessment_rows(request.user, hostname=query), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    template = "assessments/index.html#results" if request.htmx else "assessments/index.html"
    return render(request, template, {"page": page, "query": query})


@require_GET
@login_required
@vary_on_headers("HX-Request")  # one URL, two bodies: the page and the table's fragment
def assessment_detail(request: PageRequest, pk: int) -> HttpResponse:
    # Looked up in the user's organisation before the cache is read: another
    # organisation's assessment is a 404 whatever the cache holds. The stored result (tens
    # of kilobytes) is read only if the page's result part is not in the cache.
    assessment = assessment_or_404(request.user, pk, defer=("result_json",))
    changes_only = request.GET.get("changes") == "1"
    # htmx restoring history it has no copy of asks for the whole page.
    if request.htmx and not request.htmx.history_restore_request:
        context = _current_context(assessment.result, changes_only=changes_only)
        context["assessment"] = assessment
        return render(request, "assessments/_current.html#current-table", context)

    result = functools.cache(lambda: assessment.result)
    current = functools.cache(lambda: _current_context(result(), changes_only=changes_only))
    context = {
        "assessment": assessment, "others": _compare_choices(request, pk),
        "changes_only": changes_only,
        "cache_seconds": settings.DETAIL_CACHE_SECONDS, "cache_version": _templates_digest(),
        # Called by the template only when the result's part is rendered, not on a hit.
        "result": result,
        "groups": functools.cache(lambda: presenting.groups(result())),
        "warnings": functools.cache(lambda: presenting.warnings(result())),
        "has_current": lambda: isinstance(assessment.inventory.get("current"), dict),
        "pending_files": functools.cache(lambda: presenting.pending_changes(result())),
        **{key: functools.partial(lambda k: current()[k], key) for key in CURRENT_KEYS},
    }  # fmt: skip
    return render(request, "assessments/detail.html", context)


def _compare_choices(request: PageRequest, pk: int) -> list[tuple[int, str]]:
    """(pk, 'host — 2026-11-25 21:03 (#12)') of the 50 newest others: rows, not models,
    labelled here rather than by the template's date filter, which took most of a cached
    page's time."""
    rows = assessment_rows(request.user).exclude(pk=pk).values_list("pk", "hostname", "created_at")
    return [(other, f"{host} — {localtime(at):%Y-%m-%d %H:%M} (#{other})")
            for other, host, at in rows[:50]]  # fmt: skip


# What _current_context gives the table (changes_only is given directly).
CURRENT_KEYS = ("rows", "counts", "total")
# The templates of the result's part: their source is part of its cache key, so a
# deployment that changes them never serves a page rendered by the old ones.
RESULT_TEMPLATES = ("assessments/detail.html", "assessments/_warnings.html",
                    "assessments/_current.html", "assessments/_setting.html")  # fmt: skip


@functools.cache
def _templates_digest() -> str:
    # The backend's template wraps the engine's, which holds the source.
    sources = "".join(get_template(name).template.source for name in RESULT_TEMPLATES)  # type: ignore[attr-defined]
    return hashlib.sha256(sources.encode()).hexdigest()[:16]


def _current_context(result: dict[str, Any], *, changes_only: bool) -> dict[str, Any]:
    """The current → recommended table, filtered to the changes on ?changes=1."""
    every = presenting.current_rows(result)
    return {
        "rows": [r for r in every if r.status == "change"] if changes_only else every,
        "changes_only": changes_only,
        "counts": presenting.status_counts(every),
        "total": len(every),
    }


@require_GET
@login_required
def compare_pick(request: PageRequest, pk: int) -> HttpResponseRedirect:
    """The compare form's target without JavaScript: ?other=N → the compare page."""
    assessment = assessment_or_404(request.user, pk)
    try:
        other = assessment_or_404(request.user, int(request.GET.get("other", "")))
    except ValueError:
        return redirect("web:assessment", pk=assessment.pk)
    return redirect("web:compare", pk=assessment.pk, other_pk=other.pk)


@require_GET
@login_required
def assessment_compare(request: PageRequest, pk: int, other_pk: int) -> HttpResponse:
    before, after = assessment_or_404(request.user, pk), assessment_or_404(request.user, other_pk)
    context = {
        "before": before,
        "after": after,
        "inputs": presenting.input_changes(before.inventory, after.inventory),
        "settings": setting_changes(before.result, after.result),
        "files": presenting.file_diffs(
            before.result.get("artifacts", {}), after.result.get("artifacts", {})
        ),
    }
    return render(request, "assessments/compare.html", context)
