"""The verifications kept of an assessment: its history (newest first, paged) and each one
shown again as it was. Scoped as the assessment is: another organisation's is a 404."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from advisor.assessments import verifications
from advisor.assessments.presenting import COMPLIANCE_ORDER
from advisor.assessments.selectors import assessment_or_404
from advisor.assessments.statuses import shown_setting
from advisor.core.http import PageRequest
from advisor.core.paging import KeysFirstPaginator
from advisor.models import Verification
from rules.measured_verify import figure

PAGE_SIZE = 25
DEFERRED = ("inventory", "result_json")  # neither page reads the assessment's own result


@require_GET
@login_required
def verification_list(request: PageRequest, pk: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk, defer=DEFERRED)
    rows = verifications.verifications_of(assessment)
    page = KeysFirstPaginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"assessment": assessment, "page": page}
    return render(request, "assessments/verifications.html", context)


@require_GET
@login_required
def verification_detail(request: PageRequest, pk: int, verification_pk: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk, defer=DEFERRED)
    kept = verifications.verification_or_404(assessment, verification_pk)
    context = {"assessment": assessment, "kept": kept, "rows": kept_rows(kept),
               "counts": {key: getattr(kept, key) for key in verifications.COUNTS},
               "host": kept.found.get("host") or {}, "measured": kept_measured(kept)}  # fmt: skip
    return render(request, "assessments/verification.html", context)


def kept_rows(kept: Verification) -> list[dict[str, Any]]:
    """The rows as the verify page showed them: not compliant first, settings as shown."""
    rows = [r for r in kept.found.get("rows", []) if isinstance(r, dict)]
    out = []
    for row in sorted(rows, key=lambda r: COMPLIANCE_ORDER.get(r.get("compliant"), 2)):
        setting, recommended = shown_setting(str(row.get("setting", "")),
                                             str(row.get("recommended", "")))  # fmt: skip
        out.append({**row, "setting": setting, "recommended": recommended})
    return out


def kept_measured(kept: Verification) -> list[dict[str, Any]]:
    """The measured throughput kept, each record with its before and after side by side."""
    records = [m for m in kept.found.get("measured", []) if isinstance(m, dict)]
    return [{**m, "sides": (_side(m.get("before")), _side(m.get("after")))} for m in records]


def _side(side: Any) -> str | None:
    """A kept figure as the verify page words it: "95 MB/s per core (1520 MB/s), short"."""
    if not isinstance(side, dict):
        return None
    try:
        per_core, mb_s = figure(float(side["per_core"])), figure(float(side["mb_s"]))
    except (KeyError, TypeError, ValueError):
        return None
    return f"{per_core} MB/s per core ({mb_s} MB/s), {side.get('words', '')}"
