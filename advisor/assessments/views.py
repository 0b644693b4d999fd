"""The assessment pages: list, inventory form with live preview, result, compare.

Thin functions: read the request, call a selector, a service or the rules, render. An htmx
request gets only the named partial it asked for; everything also works as a plain form
post and plain links.
"""

from __future__ import annotations

import json
import re
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

import rules
from advisor.assessments import draft_marks, files, pickers, presenting
from advisor.assessments import inventory_form as inv
from advisor.assessments.form_upload import MAX_JSON_BYTES, InventoryUpload
from advisor.assessments.page_rows import render_with_rows
from advisor.assessments.selectors import assessment_or_404, assessment_rows
from advisor.assessments.services import (
    IdempotencyConflict,
    NoOrganisation,
    assessment_create,
)
from advisor.core.http import PageRequest
from rules import Problem
from rules.derive.labels import os_name
from rules.kinds import HOSTNAME
from rules.result_records import ResultDocument

EXAMPLES_DIR = Path(settings.BASE_DIR) / "examples"
REQUIRED = "is required"
ONCE = "once"  # the form's one-time key (a hidden input)
ONCE_FORMAT = re.compile(r"[0-9a-f]{32}")
CHECKED = "checked"  # a hidden input: saving was tried, so every problem is shown
MAX_LISTED = 50  # problems listed in the summary and the preview; the rest are counted


def examples() -> dict[str, dict[str, Any]]:
    """The shipped example inventories by file stem, labelled by host and the OS as its
    vendor names it: 'lemans, AIX 5.3', 'sasprod, RHEL 9.4'."""
    found = {}
    for path in sorted(EXAMPLES_DIR.glob("*.json")):
        doc = json.loads(path.read_text())
        server = doc["server"]
        shown = os_name(server["os"], server["os_version"], server.get("distribution"),
                        server.get("os_release_name"))  # fmt: skip
        label = f"{server['hostname']}, {shown}"
        found[path.stem] = {"label": label, "title": doc.get("name", ""), "document": doc}
    return found


def _start_data(request: PageRequest) -> tuple[inv.FormData, bool]:
    """Form data for a fresh form: an example, a copy of an assessment, or a blank form."""
    if request.GET.get("from"):
        # The picker's text: a suggestion ('… (#12)'), a number or a host name; a number
        # not the user's is a 404, as its page is; a host name unknown, the blank form.
        text = request.GET["from"].strip()
        number = text.isascii() and text.isdigit() and len(text) <= 18
        pk = pickers.picked(request.user, text) or (int(text) if number else None)
        if pk is not None:
            return inv.data_from_document(assessment_or_404(request.user, pk).inventory), True
    example = examples().get(request.GET.get("example", ""))
    if example is not None:
        return inv.data_from_document(example["document"]), True
    return inv.blank_data(), False


def _advise(data: Any) -> tuple[ResultDocument | None, list[Problem]]:
    """The result for the form's data, or every problem the contract finds in it (the same
    checks, across fields too, as the API, the CLI and fleets)."""
    try:
        inventory = rules.inventory_from(inv.document_from_data(data))
    except rules.InventoryError as exc:
        return None, exc.problems
    return rules.advise_inventory(inventory).document(), []


def _preview_context(data: Any, *, inline_required: bool) -> dict[str, Any]:
    """Validate and advise; problems are placed on the fields (missing ones only once a
    save was tried) and listed with links to them.

    The forms are built only when there are problems to place: binding them costs more
    than the rules themselves, and the preview answers on every keystroke.
    """
    result, problems = _advise(data)
    if result is None:
        form, formset = inv.bind(data)
        shown = [p for p in problems if inline_required
                 or (p.message != REQUIRED and inv.touched(data, p.path))]  # fmt: skip
        inv.place_problems(form, formset, shown)
        listed, summary = inv.entries(problems), inv.entries(shown)
        return {"form": form, "formset": formset, "result": None,
                "problems": listed[:MAX_LISTED], "unlisted": len(listed) - MAX_LISTED,
                "summary": summary[:MAX_LISTED], "summary_count": len(summary),
                "missing": len(problems) - len(shown)}  # fmt: skip
    return {
        "result": result,
        "groups": presenting.groups(result),
        "warnings": presenting.warnings(result),
    }


def _checked(data: Any) -> bool:
    return bool(data.get(CHECKED) == "1")


def new_page(
    request: PageRequest,
    data: Any,
    *,
    show: bool,
    status: int = 200,
    draft: draft_marks.DraftView | None = None,
    checked: bool | None = None,
    upload: InventoryUpload | None = None,
    loaded: str = "",
) -> HttpResponse:
    """The inventory form on `data`; a draft read from the server marks its inputs. Once a
    save was tried (`checked`) every problem shows, listed in a summary at the top."""
    checked = (status == 400 or _checked(data)) if checked is None else checked
    context: dict[str, Any] = (
        _preview_context(data, inline_required=checked) if show else {"pending": True}
    )
    if "form" not in context:
        context["form"], context["formset"] = inv.bind(data)
    if draft is not None:
        draft_marks.mark_fields(context["form"], context["formset"], draft.marks)
        context["draft"], context["carried"] = draft, draft_marks.carried(draft)
    context |= {"checked": checked, "upload": upload or InventoryUpload(), "loaded": loaded,
                "unsaved": status == 400, "examples": examples()}  # fmt: skip
    context["recent"] = assessment_rows(request.user)[:20]
    context["once"] = _once(data) or uuid.uuid4().hex
    return render_with_rows(request, "assessments/new.html", context, status)


def _once(data: Any) -> str | None:
    """The form's one-time key, when it carries a well-formed one."""
    value = data.get(ONCE)
    return value if isinstance(value, str) and ONCE_FORMAT.fullmatch(value) else None


def _save(request: PageRequest) -> tuple[Any, bool]:
    """Store the posted form once: a retry of the same post (after an error, a timeout, a
    double click) finds the assessment the first one stored. The same key with changed
    inputs (the form saved, then edited after going back) is a new assessment."""
    document = inv.document_from_data(request.POST)
    once = _once(request.POST)
    key = f"form-{once}" if once else None
    try:
        return assessment_create(user=request.user, document=document, idempotency_key=key)
    except IdempotencyConflict:
        return assessment_create(user=request.user, document=document)


@require_http_methods(["GET", "POST"])
@login_required
def assessment_new(request: PageRequest) -> HttpResponse:
    if request.method == "GET":
        data, show = _start_data(request)
        return new_page(request, data, show=show)
    changed = inv.row_action(request.POST)
    draft = draft_marks.from_form(request.POST)  # what a reading of the server marked
    if changed is not None:
        return _rows(request, changed, draft and draft_marks.shifted(draft, request.POST))
    try:
        assessment, _ = _save(request)
    except rules.InventoryError:
        return new_page(request, request.POST, show=True, status=400, draft=draft)
    except NoOrganisation as exc:
        raise PermissionDenied(str(exc)) from exc
    return redirect("web:assessment", pk=assessment.pk)


def _rows(
    request: PageRequest, data: inv.FormData, draft: draft_marks.DraftView | None
) -> HttpResponse:
    """After add/remove/duplicate: the storage fieldset (htmx) or the whole page; a
    draft's marks follow their rows."""
    if not request.htmx:
        return new_page(request, data, show=True, draft=draft)
    form, formset = inv.bind(data)
    focus = _focus_row(request, len(formset.forms))
    if focus is not None:
        formset.forms[focus].fields["name"].widget.attrs["autofocus"] = True
    context: dict[str, Any] = {"form": form, "formset": formset}
    if draft is not None:
        draft_marks.mark_fields(form, formset, draft.marks)
        context["carried"] = draft_marks.carried(draft)
    response = render_with_rows(request, "assessments/new.html#storage", context)
    # After settle, so the preview posts the new rows rather than the old ones.
    response["HX-Trigger-After-Settle"] = "rows-changed"
    return response


def _focus_row(request: PageRequest, count: int) -> int | None:
    """The row a keyboard user should land on: the one just added or duplicated."""
    if "add_row" in request.POST:
        return count - 1 if count else None
    for key in request.POST:
        match = inv.ROW_ACTION.match(key)
        if match and match.group(1) == "duplicate_row":
            index = int(match.group(2)) + 1
            return index if index < count else None
    return None


@require_POST
@login_required
def assessment_preview(request: PageRequest) -> HttpResponse:
    checked = _checked(request.POST)
    context = _preview_context(request.POST, inline_required=checked)
    context |= {"oob": True, "checked": checked}
    return render(request, "assessments/new.html#preview", context)


@require_POST
@login_required
def assessment_upload(request: PageRequest) -> HttpResponse:
    """A JSON inventory file loaded into the form (a plain multipart post); what the form
    has no input for is listed beside the file input."""
    upload = InventoryUpload(request.POST, request.FILES)
    if not upload.is_valid():
        upload.fields["inventory"].widget.attrs |= {"autofocus": True, "aria-invalid": "true"}
        return new_page(request, inv.blank_data(), show=False, status=400, upload=upload,
                        checked=False)  # fmt: skip
    document = upload.cleaned_data["inventory"]
    for note in inv.left_out(document):
        upload.add_error("inventory", note)
    rows = len(document.get("storage") or [])
    loaded = f"{upload.file_name} loaded: {rows} storage row{'s' * (rows != 1)}."
    data = inv.data_from_document(document)
    return new_page(request, data, show=True, checked=True, upload=upload, loaded=loaded)


# Room for the multipart envelope around the largest file taken.
assessment_upload.max_body_bytes = MAX_JSON_BYTES + 64 * 1024  # type: ignore[attr-defined]


@require_POST
@login_required
def assessment_json(request: PageRequest) -> HttpResponse:
    """The form as it stands, as a contract document to keep or to send (not validated:
    an unfinished inventory can be saved to a file and loaded again)."""
    document = inv.document_from_data(request.POST)
    host = document.get("server", {}).get("hostname")
    name = f"{host}-inventory.json" if HOSTNAME.accepts(host) else "inventory.json"
    return files.attachment(inv.as_json(document), name, "application/json; charset=utf-8")
