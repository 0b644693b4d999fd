"""A draft read from the server (`rules.parse.draft`), shown on the inventory form: marks
beside the inputs it filled (where each value came from, or why to confirm it), the
fields it could not read, and a summary of the current settings it found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.forms import Form as DjangoForm

from advisor.assessments.forms import INPUT_NAMES, STORAGE_FIELDS, STORAGE_PREFIX
from rules.current import Current
from rules.fields import specs
from rules.parse.draft import Draft

_ROW_FIELD = re.compile(r"storage\[(\d+)\]\.([a-z_]+)$")
WORKLOAD = "workload"  # the draft never guesses it: its fieldsets are marked as a whole


@dataclass(frozen=True)
class Mark:
    """What the page says beside one input: where the value came from, or why to confirm it."""

    source: str = ""
    confirm: str = ""


@dataclass
class DraftView:
    marks: dict[str, Mark]  # by input name: 'cpus', 'storage-1-max_transfer_kb'
    workload: str  # why the workload must be given ('' when it need not be)
    missing: list[dict[str, Any]]  # path, reason, guess, anchor (the input's id)
    problems: list[dict[str, Any]]
    unknown: list[dict[str, Any]]
    notes: list[str]
    current: list[tuple[str, str]]  # the current settings read: label, how many / which
    accounting: dict[str, int] = field(default_factory=dict)  # sections used, unused, unknown
    unused: list[dict[str, Any]] = field(default_factory=list)  # line, command, why


def input_name(path: str) -> str | None:
    """The form input a draft path fills: 'server.cpus' → 'cpus', 'storage[1].mount' →
    'storage-1-mount'; None for a path no input shows (the current block, a group)."""
    row = _ROW_FIELD.match(path)
    if row is not None:
        name = row.group(2)
        return f"{STORAGE_PREFIX}-{row.group(1)}-{name}" if name in STORAGE_FIELDS else None
    return INPUT_NAMES.get(path)


def draft_view(draft: Draft) -> DraftView:
    marks: dict[str, Mark] = {}
    for path, prov in draft.provenance.items():
        if (name := input_name(path)) is not None:
            marks[name] = Mark(source=prov.text)
    missing, workload = [], ""
    for item in draft.missing:
        name = input_name(item.path)
        if name is not None:
            marks[name] = Mark(marks.get(name, Mark()).source, item.reason)
        elif item.path.split(".", 1)[0] == WORKLOAD:
            workload = item.reason
        anchor = f"id_{name}" if name else ("workload-mix" if item.path == WORKLOAD else "")
        guess = ("yes" if item.guess else "no") if isinstance(item.guess, bool) else item.guess
        missing.append({**item.to_dict(), "guess": guess, "anchor": anchor})
    problems = sorted(draft.problems, key=lambda p: int(p.get("line") or 0))
    return DraftView(marks, workload, missing, problems, draft.unknown, draft.notes,
                     current_summary(draft.document.get("current")),
                     draft.accounting, draft.unused)  # fmt: skip


def current_summary(block: Any) -> list[tuple[str, str]]:
    """What the current block holds, for the panel: 'SAS options' → '12 read'."""
    if not isinstance(block, Mapping):
        return []
    out = []
    for key, spec in specs(Current):
        value = block.get(key)
        if isinstance(value, Mapping):
            out.append((spec.label, f"{len(value)} read"))
        elif value not in (None, ""):
            out.append((spec.label, str(value)))
    return out


def _mark_form(each: DjangoForm, marks: Mapping[str, Mark]) -> list[str]:
    """Attach each input's mark (_field.html shows `field.field.mark`, and the input is
    described by it for screen readers); the sources marked, in the form's order."""
    sources = []
    for bound in each:
        mark = marks.get(bound.html_name)
        if mark is None:
            continue
        bound.field.mark = mark  # type: ignore[attr-defined]
        attrs = bound.field.widget.attrs
        attrs["aria-describedby"] = f"{attrs.get('aria-describedby', '')} {bound.auto_id}-mark"
        sources += [mark.source] if mark.source else []
    return sources


def mark_fields(form: DjangoForm, formset: Any, marks: Mapping[str, Mark]) -> None:
    """Mark the inputs a draft filled; each storage row lists its sources (`row.sources`)."""
    _mark_form(form, marks)
    for row in formset.forms:
        row.sources = _mark_form(row, marks)
