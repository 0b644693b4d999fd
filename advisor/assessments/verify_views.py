"""Verify a saved assessment: a newer bundle from its server against the advice it gave.

Each recommendation the assessment gave (as stored, whatever rules made it) is shown with
what the server runs now and whether that is what was recommended
(`reading.verify_assessment`); the rows that drifted come first. A bundle of another host
or OS is refused naming both (400); the "renamed" box accepts another host name, never
another OS. The refusal stands above the form, the paste kept in its box (an htmx answer
updates it out of band). A paste over the limit is refused in the browser before it is sent
(static/advisor/paste_limit.js); a body the middleware would not read is answered here with
this page and the refusal, 413 (advisor.core.refused_body). Owner only: another
organisation's assessment is a 404 here as everywhere.
A verify that judged something is kept (`verifications.verification_store`) and the page
says when; the assessment page then shows it as "last verified".
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

import rules
from advisor.assessments import draft_marks, measured, presenting, reading, verifications
from advisor.assessments.selectors import assessment_or_404
from advisor.assessments.server_views import ReadingForm, body_too_large, size_limit, too_large
from advisor.core.http import PageRequest
from advisor.core.middleware import takes_bundles
from advisor.core.refused_body import answers_refused_body, refused_size
from advisor.models import Assessment
from advisor.models import Verification as Stored
from rules.measured_verify import measured_list
from rules.verify import Verification, unjudgeable

PAGE = "assessments/verify.html"


RENAMED_HINT = (
    "If the server was renamed since the assessment, tick “The server was renamed” "
    "and verify again."
)


class BundleForm(ReadingForm):
    """The newer reading: a bundle or a transcript (a JSON inventory tells nothing new)."""

    allow_renamed_host = forms.BooleanField(
        label="The server was renamed since the assessment",
        required=False,
        help_text="Verify a reading that names another host. A reading of another OS is "
        "never verified.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["text"].label = "Paste the newer bundle or a terminal transcript"
        self.fields["allow_renamed_host"].widget.attrs["aria-describedby"] = "id_renamed_help"


def _refuse_mismatch(form: BundleForm, exc: reading.ReadingMismatch) -> None:
    for problem in exc.problems:
        form.add_error(None, f"{problem.message[0].upper()}{problem.message[1:]}.")
    if exc.renamable:
        form.add_error(None, RENAMED_HINT)


def _render(
    request: PageRequest, assessment: Assessment, form: BundleForm, status: int = 200, **extra: Any
) -> HttpResponse:
    context = {"assessment": assessment, "form": form, "limit": size_limit(), **extra}
    template = f"{PAGE}#verify-result" if request.htmx else PAGE
    return render(request, template, context, status=status)


def _checked(found: Verification, stored: dict[str, Any]) -> dict[str, Any]:
    counts = found.to_dict()
    return {
        "rows": presenting.verify_rows(found),
        "counts": {k: counts[k] for k in ("non_compliant", "compliant", "not_verified")},
        "draft": draft_marks.draft_view(found.draft),
        "read_anything": bool(found.draft.provenance),
        "host": found.host,
        "rules_version": found.rules_version,
        "measured": measured.before_after(stored, found.draft.document),
    }


@answers_refused_body
@takes_bundles
@require_http_methods(["GET", "POST"])
@login_required
def assessment_verify(request: PageRequest, pk: int) -> HttpResponse:
    assessment = assessment_or_404(request.user, pk)
    if (refused := refused_size(request)) is not None:
        form = BundleForm()
        form.cleaned_data = {}  # unbound: nothing was read, the refusal is its one error
        form.add_error(None, body_too_large(refused))
        return _render(request, assessment, form, 413)
    if request.method == "GET":
        return _render(request, assessment, BundleForm())
    form = BundleForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render(request, assessment, form, form.status)
    text, allow = form.reading(), form.cleaned_data["allow_renamed_host"]
    try:
        found = reading.verify_assessment(
            assessment=assessment, text=text, allow_renamed_host=allow
        )
    except reading.TooLarge:
        form.add_error(None, too_large(len(text)))
        return _render(request, assessment, form, 413)
    except reading.ReadingMismatch as exc:
        _refuse_mismatch(form, exc)
        return _render(request, assessment, form, 400)
    except rules.InventoryError as exc:
        # The reading's current block breaks the contract (a value too long, too many).
        for problem in exc.problems:
            form.add_error(None, f"{problem.path}: {problem.message}")
        return _render(request, assessment, form, 400)
    stored = _store(request, assessment, form, found)
    checked = _checked(found, assessment.inventory)
    return _render(request, assessment, form, checked=checked, stored=stored)


def _store(
    request: PageRequest, assessment: Assessment, form: BundleForm, found: Verification
) -> Stored | None:
    """Keep the verify, unless it judged nothing (then the page says it was not kept)."""
    if unjudgeable(found):
        return None
    source = Stored.Source.UPLOAD if form.cleaned_data.get("upload") else Stored.Source.PASTE
    return verifications.verification_store(
        assessment=assessment, user=request.user, checked=found, source=source,
        measured=measured_list(assessment.inventory, found.draft.document),
    )  # fmt: skip
