"""The assessment list and the result pages: list, result, compare.

Thin functions: read the request, call a selector, render. An htmx request gets only the
named partial it asked for; everything also works with plain links and forms.

The result page leads with what matters most: the changes whose paper measured the
largest run-time cut, ranked as the PDF report ranks them (`reports.content`), and the
warnings counted by severity. A comparison reads older → newer unless the reader swaps.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Case, CharField, QuerySet, Value, When
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers

from advisor.assessments import listing, measured, pickers, presenting, statuses
from advisor.assessments.current_read import current_read
from advisor.assessments.selectors import assessment_or_404, assessment_rows, assessments_for_user
from advisor.capacity import whatif
from advisor.core.changes import file_diffs
from advisor.core.http import PageRequest
from advisor.core.paging import KeysFirstPaginator
from advisor.core.results import SEVERITY_COLUMNS, result_of
from advisor.models import Assessment
from advisor.reports.content import SUMMARY_CHANGES, ranked_changes
from rules.compare_inventories import compare
from rules.result_records import ResultDocument
from rules.version import RULES_VERSION

PAGE_SIZE = 25
NAME_MAX_LENGTH = Assessment._meta.get_field("name").max_length or 200  # the label's limit


@require_GET
@login_required
def assessment_list(request: PageRequest) -> HttpResponse:
    """Filtered by host name, source and fleet (listing.py), all kept in the address."""
    found = listing.filters(request.user, request.GET)
    context: dict[str, Any] = {
        "query": found.query, "filters": found, "params": urlencode(found.params()),
        "sources": listing.SOURCES, "fleets": listing.fleet_choices(request.user, found),
        "left_out": listing.fleet_servers_left_out(request.user, found),
    }  # fmt: skip
    if not found.error:
        rows = with_top_severity(listing.rows(request.user, found))
        page = KeysFirstPaginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
        context["page"] = listing.named(page)
    template = "assessments/index.html#results" if request.htmx else "assessments/index.html"
    return render(request, template, context, status=400 if found.error else 200)


def with_top_severity(rows: QuerySet[Assessment]) -> QuerySet[Assessment]:
    """Each row's most severe warning ("high", "medium", "low" or ""), from the count
    columns stored with its result."""
    whens = [
        When(**{f"{SEVERITY_COLUMNS[sev]}__gt": 0}, then=Value(sev))
        for sev in presenting.SEVERITY_ORDER
    ]
    return rows.annotate(top_severity=Case(*whens, default=Value(""), output_field=CharField()))


@require_GET
@login_required
def compare_selected(request: PageRequest) -> HttpResponseRedirect:
    """The list's "Compare selected" form (a GET, so it works without JavaScript): exactly
    two of the organisation's assessments → their comparison, older first."""
    picked = {int(v) for v in request.GET.getlist("pick") if v.isascii() and v.isdigit()
              and len(v) < 19}  # fmt: skip  # a key, not a number the database cannot hold
    found = list(assessments_for_user(request.user).filter(pk__in=picked)[:3]) if picked else []
    if len(picked) != 2 or len(found) != 2:
        n = len(found) if len(picked) == 2 else len(picked)
        messages.error(request, "Compare selected: tick exactly two assessments to compare "
                       f"({n} {'was' if n == 1 else 'were'} ticked).")  # fmt: skip
        query = request.GET.get("q", "")
        return HttpResponseRedirect(
            reverse("web:list") + (f"?{urlencode({'q': query})}" if query else "")
        )
    older, newer = sorted(found, key=_age)
    return redirect("web:compare", pk=older.pk, other_pk=newer.pk)


def _age(assessment: Assessment) -> tuple[Any, int]:
    return assessment.created_at, assessment.pk


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
        context = _current_context(result_of(assessment), changes_only=changes_only)
        context["assessment"] = assessment
        return render(request, "assessments/_current.html#current-table", context)

    return detail_page(request, assessment, changes_only=changes_only)


def detail_page(
    request: PageRequest,
    assessment: Assessment,
    *,
    changes_only: bool = False,
    rename: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The whole result page; `rename` carries a refused name back into its form."""
    result = functools.cache(lambda: result_of(assessment))
    current = functools.cache(lambda: _current_context(result(), changes_only=changes_only))
    groups = functools.cache(lambda: presenting.groups(result()))
    warnings = functools.cache(lambda: presenting.warnings(result()))
    context = {
        "assessment": assessment, "others": _has_others(request, assessment.pk),
        "changes_only": changes_only, "rename": rename or {}, "name_max_length": NAME_MAX_LENGTH,
        "cache_seconds": settings.DETAIL_CACHE_SECONDS, "cache_version": _templates_digest(),
        # Called by the template only when the result's part is rendered, not on a hit.
        "result": result, "groups": groups, "warnings": warnings,
        "top_changes": functools.cache(lambda: top_changes(groups())),
        "severities": functools.partial(severities, assessment),
        "current_read": functools.cache(
            lambda: current_read(assessment.inventory, assessment.os)
        ),
        "pending_files": functools.cache(lambda: statuses.file_summaries(result())),
        "measured": functools.cache(lambda: measured.chart(assessment.inventory)),
        # The capacity panel (outside the cached part) starts from this server's figures.
        "capacity_values": functools.cache(lambda: whatif.initial(assessment)),
        **{key: functools.partial(lambda k: current()[k], key) for key in CURRENT_KEYS},
    }  # fmt: skip
    return render(request, "assessments/detail.html", context, status=status)


def top_changes(groups: list[presenting.Group]) -> list[dict[str, Any]]:
    """The changes whose paper measured the largest run-time cut, as the PDF ranks them;
    a per-device repeat counts once. Each knows its group, to link to its explanation."""
    changes = [{**s, "group": g} for g in groups for s in g.actions]
    return ranked_changes(changes)[:SUMMARY_CHANGES]


def _has_others(request: PageRequest, pk: int) -> bool:
    """Whether there is another assessment to compare with; the picker
    (_assessment_picker.html) lists the suggestions itself."""
    return assessment_rows(request.user).exclude(pk=pk).exists()


# What _current_context gives the table (changes_only is given directly).
CURRENT_KEYS = ("rows", "counts", "total")
# The templates of the result's part: their source is part of its cache key, so a
# deployment that changes them never serves a page rendered by the old ones.
RESULT_TEMPLATES = (
    "assessments/detail.html", "assessments/_result_part.html", "assessments/_warnings.html",
    "assessments/_current.html", "assessments/_setting.html",
    "assessments/_result_summary.html", "assessments/_result_group.html",
    "assessments/_group_counts.html", "assessments/_measured_chart.html",
    "assessments/_next_steps.html",
)  # fmt: skip


def _templates_digest() -> str:
    # The backend's template wraps the engine's, which holds the source. The measured
    # throughput chart is drawn by the rules running now (rules.measured), not read from the
    # stored result, so their version is part of the key too.
    sources = "".join(get_template(name).template.source for name in RESULT_TEMPLATES)  # type: ignore[attr-defined]
    return hashlib.sha256((sources + RULES_VERSION).encode()).hexdigest()[:16]


def severities(assessment: Assessment) -> list[tuple[str, int]]:
    """(severity, how many warnings), most severe first, from the count columns."""
    found = [(sev, getattr(assessment, column)) for sev, column in SEVERITY_COLUMNS.items()]
    return [(sev, n) for sev, n in found if n]


def _current_context(result: ResultDocument, *, changes_only: bool) -> dict[str, Any]:
    """The current → recommended table; on ?changes=1 only the settings the files set or
    change here (an unread value is one the file sets, so an admin wants to see it)."""
    every = statuses.current_rows(result.recommendations)
    settings_rows = [r for r in every if r.status != "check"]  # checks are listed apart
    counts = statuses.tally(every)
    return {
        "rows": statuses.pending_rows(every) if changes_only else settings_rows,
        "changes_only": changes_only,
        "counts": counts,
        "total": counts.settings,
    }


@require_GET
@login_required
def compare_pick(request: PageRequest, pk: int) -> HttpResponseRedirect:
    """The compare picker's target without JavaScript: ?other= a number, a suggestion
    ('host — date (#12)') or a host name (pickers.picked) → the compare page."""
    assessment = assessment_or_404(request.user, pk)
    other = pickers.picked(request.user, request.GET.get("other", ""))
    if other is None:
        typed = request.GET.get("other", "").strip()[:60]
        messages.error(request, f"Compare with: no assessment is “{typed}”; type a host name "
                       "or a number, or pick one of the suggestions." if typed else
                       "Compare with: type a host name or a number.")  # fmt: skip
        return redirect("web:assessment", pk=assessment.pk)
    return redirect("web:compare", pk=assessment.pk, other_pk=other)


@require_GET
@login_required
def assessment_compare(request: PageRequest, pk: int, other_pk: int) -> HttpResponse:
    """Older → newer whatever order the address gives; ?swapped=1 reads newer → older."""
    first, second = assessment_or_404(request.user, pk), assessment_or_404(request.user, other_pk)
    swapped = request.GET.get("swapped") == "1"
    before, after = sorted((first, second), key=_age, reverse=swapped)
    context = {
        "before": before,
        "after": after,
        "swapped": swapped,
        "cmp": compare(before.inventory, after.inventory, result_of(before), result_of(after)),
        "files": file_diffs(result_of(before).artifacts, result_of(after).artifacts),
    }
    return render(request, "assessments/compare.html", context)
