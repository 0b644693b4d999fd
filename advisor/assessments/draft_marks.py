"""A draft read from the server (`rules.parse.draft`), shown on the inventory form: marks
beside the inputs it filled (where each value came from, or why to confirm it), the
fields it could not read, and a summary of the current settings it found.

The form carries what it shows in a hidden input (`carried`, signed, so a page only ever
shows what a reading gave), so that when a save is refused the form comes back with its
marks and the "Read from your server" panel, and a storage row removed or duplicated
keeps each row's own marks (`shifted`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core import signing
from django.forms import Form as DjangoForm

from advisor.assessments.forms import INPUT_NAMES, STORAGE_FIELDS, STORAGE_PREFIX
from advisor.core.words import path_words
from rules.current import Current
from rules.fields import specs
from rules.parse.draft import PROMPT, Draft, Provenance

_ROW_FIELD = re.compile(r"storage\[(\d+)\]\.([a-z_]+)$")
_ROW_INPUT = re.compile(rf"{STORAGE_PREFIX}-(\d+)-(.+)$")
WORKLOAD = "workload"  # the draft never guesses it: its fieldsets are marked as a whole
CARRIED = "draft"  # the hidden input that keeps the draft's marks with the form
_SALT = "advisor.assessments.draft_marks"
# A draft of 512 file systems signs to ~150 KB; above this the form goes without it.
MAX_CARRIED = 512 * 1024


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
            marks[name] = Mark(source=source_text(prov))
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


def source_text(prov: Provenance) -> str:
    """Where a value came from, in the form's words: 'RAM (GB) 125 from `free -g` (line 7),
    Mem: 125'; a storage row's field by its own label, the row being the one it sits in."""
    label = path_words(prov.path).split(" · ")[-1]
    where = f" (line {prov.line})" if prov.line else ""
    tail = "".join(f", {part}" for part in (prov.raw, prov.note) if part)
    source = prov.command if prov.command.startswith(PROMPT) else f"`{prov.command}`"
    return f"{label} {_shown(prov.value)} from {source}{where}{tail}"


def _shown(value: Any) -> str:
    """A value as the form shows it: 125.0 as '125', True as 'yes', a list by commas."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    if isinstance(value, list | tuple):
        return ", ".join(_shown(v) for v in value)
    return str(value)


def current_summary(block: Any) -> list[tuple[str, str]]:
    """What the current block holds, for the panel: 'SAS options' → '12 read'; nothing
    when no setting was read (the block then says only where the reading came from)."""
    if not isinstance(block, Mapping) or not any(
        block.get(key) is not None for key, _ in specs(Current) if key != "source"
    ):
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


def carried(view: DraftView) -> str:
    """The view as the form's hidden input keeps it ('' when too large to carry)."""
    payload = {**vars(view), "marks": {k: [m.source, m.confirm] for k, m in view.marks.items()}}
    text = signing.dumps(payload, salt=_SALT, compress=True)
    return text if len(text) <= MAX_CARRIED else ""


def from_form(data: Mapping[str, Any]) -> DraftView | None:
    """The view a form's hidden input carries; None without one, or one not signed here."""
    text = data.get(CARRIED)
    if not isinstance(text, str) or not text or len(text) > MAX_CARRIED:
        return None
    try:
        payload = signing.loads(text, salt=_SALT)
    except signing.BadSignature:
        return None
    marks = {k: Mark(source, confirm) for k, (source, confirm) in payload.pop("marks").items()}
    return DraftView(marks=marks, **payload)


def shifted(view: DraftView, data: Mapping[str, Any]) -> DraftView:
    """The view after the form's row button (`inventory_form.row_action`): a removed
    row's marks go with it, the rows after it move up; a duplicate is a row the admin
    made, unmarked, and the rows after it move down."""
    for key in data:
        found = re.fullmatch(r"(remove|duplicate)_row-([0-9]{1,4})", key)
        if found is not None:
            return _renumbered(view, _moved(found.group(1), int(found.group(2))))
    return view


def _moved(action: str, at: int) -> Callable[[int], int | None]:
    """Where row i goes once row `at` is removed (None: it was that row) or duplicated."""
    if action == "remove":
        return lambda i: None if i == at else i - (i > at)
    return lambda i: i + (i > at)


def _renumbered(view: DraftView, new: Callable[[int], int | None]) -> DraftView:
    """The view with each storage row's marks and listed fields at the row's new index;
    those of a row no longer there left out."""
    marks = {}
    for name, mark in view.marks.items():
        row = _ROW_INPUT.match(name)
        if row is None:
            marks[name] = mark
        elif (index := new(int(row.group(1)))) is not None:
            marks[f"{STORAGE_PREFIX}-{index}-{row.group(2)}"] = mark
    missing = []
    for item in view.missing:
        row = _ROW_FIELD.match(item["path"])
        if row is None:
            missing.append(item)
        elif (index := new(int(row.group(1)))) is not None:
            path = f"storage[{index}].{row.group(2)}"
            shown = input_name(path)
            missing.append({**item, "path": path, "anchor": f"id_{shown}" if shown else ""})
    return dataclasses.replace(view, marks=marks, missing=missing)
