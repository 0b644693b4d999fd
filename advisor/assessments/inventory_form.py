"""Between the HTML form and the inventory contract, in both directions.

Form data (flat strings, storage rows as a Django formset) becomes a contract document; a
document (an example or a stored assessment) becomes form data; the contract's problems
(`storage[1].mount`, `workload.mix`) are placed on the field or row that caused them. Each
conversion follows the contract field's kind (`advisor.assessments.forms.FormField`), so a
field added to the contract round-trips without a change here. Values that do not parse as
numbers are passed on as text so that the contract, not the form, words the error.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict

from advisor.assessments import presets
from advisor.assessments.forms import (
    CHOICE_LABELS,
    CURRENT,
    INPUT_NAMES,
    STORAGE,
    STORAGE_FIELDS,
    STORAGE_PREFIX,
    TOP,
    FormField,
    InventoryForm,
    StorageFormSet,
    path_anchor,
    path_label,
)
from advisor.assessments.touched import touched as touched  # the preview's filter
from advisor.core.words import without_regex
from rules import InventoryError, Problem, inventory_from
from rules.fields import Bool, Choice, Int, ListOf, Num
from rules.inventory import MAX_STORAGE, SCHEMA_VERSION

FormData = dict[str, str]

# A new row starts on the first choice of each required list, but for RAID 5 (the common
# data LUN); an optional list (storage[].shared) starts on its empty choice, unknown.
ROW_DEFAULTS: FormData = {"raid": "5"}
BLANK_ROW: FormData = {
    f.name: ROW_DEFAULTS.get(f.name, f.spec.kind.options[0])
    if isinstance(f.spec.kind, Choice) and not f.spec.nullable
    else ""
    for f in STORAGE
}
_ROW_PATH = re.compile(r"^storage\[(\d+)\](?:\.([a-z_]+))?")
ROW_ACTION = re.compile(r"^(remove_row|duplicate_row)-([0-9]{1,4})$")
_GROUPS = ("workload.mix", "storage")
MAX_CURRENT_BYTES = 2 * 1024 * 1024


def _get(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key, "")
    return str(value).strip() if value is not None else ""


def _number(text: str, *, integer: bool) -> Any:
    """'8' -> 8, '998.5' -> 998.5; anything else stays text for the contract to reject."""
    try:
        return int(text) if integer else float(text)
    except ValueError:
        return text


_OMIT = object()  # an empty input for a field the document then leaves out


def _value(field: FormField, text: str) -> Any:
    """The contract value a form input holds. Empty means unknown: null where the contract
    takes null for an optional field, else the field is left out (and, if required, the
    contract says so)."""
    kind, spec = field.spec.kind, field.spec
    if isinstance(kind, Bool):
        checked = text.lower() in ("on", "true", "1")
        # An optional yes/no (storage[].san) left unchecked is unknown, not "no".
        return None if not checked and spec.nullable and not spec.required else checked
    if text == "":
        return None if spec.nullable and not spec.required and not field.in_nullable else _OMIT
    if field.percent:
        pct = _number(text, integer=False)
        return round(pct / 100, 6) if isinstance(pct, float) and pct else (pct or _OMIT)
    if isinstance(kind, ListOf):
        return text.replace(",", " ").split()
    if isinstance(kind, Int | Num):
        return _number(text, integer=isinstance(kind, Int))
    return text


def _put(doc: dict[str, Any], path: str, value: Any) -> None:
    *parents, key = path.replace("[]", "").split(".")
    target = doc
    for part in parents:
        target = target.setdefault(part, {})
    target[key] = value


def _fill(fields: tuple[FormField, ...], data: Mapping[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for field in fields:
        value = _value(field, _get(data, field.name))
        if value is not _OMIT:
            _put(doc, field.path, value)
    return doc


def document_from_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """The contract document the form describes (not yet validated); a workload preset
    gives the mix unless shares were typed (`advisor.assessments.presets`)."""
    chosen = presets.preset_applies(data) if presets.PRESET in data else None
    data = presets.with_preset(data)
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "name": _get(data, "name")}
    doc |= _fill(TOP[1:], data)
    # No SPD Server version: none; but the SPD Server preset turns it on, so the contract
    # asks for the version rather than taking warehouse queries without the warehouse.
    doc.setdefault("sas", {}).setdefault("spds", {} if chosen == "spds" else None)
    doc.setdefault("workload", {}).setdefault("mix", {})
    doc["storage"] = [_fill(STORAGE, row).get("storage", {}) for row in rows_from_data(data)]
    if current := _current(_get(data, CURRENT.name)):
        doc["current"] = current
    return doc


def _current(text: str) -> Any:
    """The hidden `current` input's JSON; text that is not JSON goes on to the contract,
    which names the field in its refusal."""
    if not text:
        return None
    if len(text) > MAX_CURRENT_BYTES:
        return "too large"
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _shown(field: FormField, value: Any) -> str:
    """How a contract value looks in its input."""
    if isinstance(field.spec.kind, Bool):
        return "on" if value else ""
    if field.percent:
        return f"{value * 100:g}" if isinstance(value, int | float) and value else ""
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return _text(value)


def _lookup(doc: Any, path: str) -> Any:
    for part in path.replace("[]", "").split("."):
        doc = doc.get(part) if isinstance(doc, Mapping) else None
    return doc


def data_from_document(doc: Mapping[str, Any]) -> FormData:
    """Form data that shows this document (an example or a stored inventory)."""
    data: FormData = {}
    for field in TOP:
        shown = _shown(field, _lookup(doc, field.path))
        if shown or not isinstance(field.spec.kind, Bool):
            data[field.name] = shown
    data[presets.PRESET] = data[presets.FILLED] = presets.matching(data)
    if isinstance(doc.get("current"), Mapping):
        data[CURRENT.name] = json.dumps(doc["current"], separators=(",", ":"))
    storage = doc.get("storage")
    rows = [
        {f.name: _shown(f, _lookup(entry, f.path.removeprefix("storage[]."))) or BLANK_ROW[f.name]
         for f in STORAGE}
        for entry in (storage if isinstance(storage, list) else [])
        if isinstance(entry, Mapping)
    ]  # fmt: skip
    return data_with_rows(data, rows)


def blank_data() -> FormData:
    chosen = {presets.PRESET: presets.DEFAULT, presets.FILLED: presets.DEFAULT}
    base: FormData = {
        "os": "aix",
        "sas_version": "9.4",
        **chosen,
        **presets.shares(presets.DEFAULT),
    }
    return data_with_rows(base, [dict(BLANK_ROW)])


def rows_from_data(data: Mapping[str, Any]) -> list[FormData]:
    try:
        count = int(_get(data, f"{STORAGE_PREFIX}-TOTAL_FORMS") or 0)
    except ValueError:
        count = 0
    count = max(0, min(count, MAX_STORAGE))
    return [
        {key: _get(data, f"{STORAGE_PREFIX}-{i}-{key}") for key in STORAGE_FIELDS}
        for i in range(count)
    ]


def data_with_rows(data: Mapping[str, Any], rows: list[FormData]) -> FormData:
    """The same form data with the storage rows replaced (and renumbered)."""
    prefix = f"{STORAGE_PREFIX}-"
    out: FormData = {
        k: _get(data, k) for k in data if not k.startswith(prefix) and k != "csrfmiddlewaretoken"
    }
    out |= {
        f"{prefix}TOTAL_FORMS": str(len(rows)),
        f"{prefix}INITIAL_FORMS": "0",
        f"{prefix}MIN_NUM_FORMS": "0",
        f"{prefix}MAX_NUM_FORMS": str(MAX_STORAGE),
    }
    for i, row in enumerate(rows):
        out |= {f"{prefix}{i}-{key}": row.get(key, "") for key in STORAGE_FIELDS}
    return out


def row_action(data: QueryDict | Mapping[str, Any]) -> FormData | None:
    """Apply an add/remove/duplicate button to the rows; None when no such button was sent."""
    rows = rows_from_data(data)
    if "add_row" in data:
        if len(rows) < MAX_STORAGE:
            rows.append(dict(BLANK_ROW))
        return data_with_rows(data, rows)
    for key in data:
        match = ROW_ACTION.match(key)
        if not match or int(match.group(2)) >= len(rows):
            continue
        index = int(match.group(2))
        if match.group(1) == "remove_row":
            rows.pop(index)
        elif len(rows) < MAX_STORAGE:
            rows.insert(index + 1, dict(rows[index]))
        return data_with_rows(data, rows)
    return None


def bind(data: Mapping[str, Any]) -> tuple[InventoryForm, Any]:
    """The forms on `data`, the workload preset settled (the mix inputs show its shares)."""
    form = InventoryForm(presets.with_preset(data))
    formset = StorageFormSet(data, prefix=STORAGE_PREFIX)
    form.full_clean()
    formset.full_clean()
    return form, formset


def _form_field(path: str) -> str | None:
    """The input a contract path names ('sas.spds' names the SPD Server version)."""
    return INPUT_NAMES.get(path) or INPUT_NAMES.get(f"{path}.version")


def place_problems(form: InventoryForm, formset: Any, problems: list[Problem]) -> None:
    """Put each contract problem on the field (or row, or group) its path names, worded
    as the form words it (`friendly`)."""
    for problem in problems:
        message = friendly(problem.message)
        row = _ROW_PATH.match(problem.path)
        if row and int(row.group(1)) < len(formset.forms):
            target = formset.forms[int(row.group(1))]
            field = row.group(2)
            target.add_error(field if field in target.fields else None, message)
            continue
        if problem.path in _GROUPS:
            form.group_errors.setdefault(problem.path, []).append(message)
            continue
        field = _form_field(problem.path)
        if field is not None and field in form.fields:
            form.add_error(field, message)
        else:
            form.add_error(None, f"{path_label(problem.path)}: {message}")


_PATH_IN_TEXT = re.compile(r"\b(?:server|sas|workload|storage)(?:\[\d+\]|\.[a-z_]+)+")
_MIX_SUM = re.compile(r"fractions must sum to 1 \(±([0-9.]+)\), got (\S+)")
_QUOTED_CHOICE = re.compile(r"'([a-z0-9_]{1,20})'")


def _choice_label(found: re.Match[str]) -> str:
    return CHOICE_LABELS.get(found.group(1), found.group(0))


def friendly(message: str) -> str:
    """A contract message in the form's words: the mix in percent, as it is typed, JSON
    paths ('duplicates storage[0].mount') as the labels on the page, and quoted choices
    ("'xfs' does not run on AIX") as the lists show them (XFS), and character classes
    in words ('[A-Za-z0-9_.-]' → letters, digits, '_', '.' and '-')."""
    mix = _MIX_SUM.fullmatch(message)
    if mix is not None:
        tolerance, total = float(mix.group(1)) * 100, float(mix.group(2)) * 100
        return f"the shares must add up to 100 % (±{tolerance:g} %); they add up to {total:.4g} %"
    message = _QUOTED_CHOICE.sub(_choice_label, message)
    message = _PATH_IN_TEXT.sub(lambda found: path_label(found.group(0)), message)
    return without_regex(message)


@dataclass(frozen=True)
class Entry:
    """One problem as the error summary and the preview list it: a link to its input."""

    label: str
    message: str
    anchor: str  # the input's id; '' when no input shows the path


def left_out(doc: Mapping[str, Any]) -> list[str]:
    """What a loaded document holds that the form has no input for (unknown keys, another
    contract version): the form drops it, so the page says so."""
    try:
        inventory_from(doc)
    except InventoryError as exc:
        return [f"{path_label(p.path)}: {friendly(p.message)}; left out of the form"
                for p in exc.problems
                if p.message == "unknown field" or p.path in ("$", "schema_version")]  # fmt: skip
    return []


def as_json(doc: Any) -> str:
    """The document as a file: numbers JSON cannot hold ('1e999') kept as the text typed."""

    def finite(value: Any) -> Any:
        if isinstance(value, float) and not math.isfinite(value):
            return str(value)
        if isinstance(value, dict):
            return {k: finite(v) for k, v in value.items()}
        return [finite(v) for v in value] if isinstance(value, list) else value

    return json.dumps(finite(doc), indent=2, ensure_ascii=False) + "\n"


def entries(problems: list[Problem]) -> list[Entry]:
    return [Entry(path_label(p.path), friendly(p.message), path_anchor(p.path)) for p in problems]
