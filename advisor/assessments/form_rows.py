"""A storage row's inputs written as HTML in Python, exactly as _field.html writes them.

Through Django's widget templates the 512 rows the contract allows take seconds to render;
written here they take a fraction of that. tests/web/test_form_helps.py holds the two to
the same HTML, so the template stays the one description of a field.
"""

from __future__ import annotations

from html import escape
from typing import Any

from django import forms


def _e(value: Any) -> str:
    return escape(str(value), quote=True)  # as Django's escape, without its lazy wrappers


def _attrs(attrs: dict[str, Any]) -> str:
    return "".join(f" {k}" if v is True else f' {k}="{_e(v)}"' for k, v in attrs.items()
                   if v is not False and v is not None)  # fmt: skip


def _control(bound: forms.BoundField) -> str:
    """The input as Django's widget templates write it: the widget's attributes, then
    aria-invalid and the id."""
    widget, name = bound.field.widget, _e(bound.html_name)
    attrs = {**widget.attrs, **({"aria-invalid": "true"} if bound.errors else {})}
    attrs["id"] = bound.auto_id
    value = bound.value()
    if isinstance(widget, forms.Select):
        chosen = "" if value is None else str(value)
        options = "".join(
            f'<option value="{_e(v)}"{" selected" if str(v) == chosen else ""}>{_e(text)}</option>'
            for v, text in widget.choices
        )
        return f'<select name="{name}"{_attrs(attrs)}>{options}</select>'
    if isinstance(widget, forms.CheckboxInput):
        attrs |= {"checked": True} if widget.check_test(value) else {}
        return f'<input type="checkbox" name="{name}"{_attrs(attrs)}>'
    assert isinstance(widget, forms.widgets.Input)
    shown = widget.format_value(value)
    given = f' value="{_e(shown)}"' if shown is not None else ""
    return f'<input type="{widget.input_type}" name="{name}"{given}{_attrs(attrs)}>'


def row_field(bound: forms.BoundField) -> str:
    """One input with its label, mark and error list, as _field.html writes it."""
    mark = getattr(bound.field, "mark", None)
    check = isinstance(bound.field.widget, forms.CheckboxInput)
    needed = getattr(bound.field, "needed", False)
    classes = " ".join(["field"] + ["has-error"] * bool(bound.errors) + ["check"] * check
                       + ["needed"] * needed + ["from-server"] * bool(mark and mark.source)
                       + ["confirm"] * bool(mark and mark.confirm))  # fmt: skip
    label = f'<label for="{_e(bound.id_for_label)}">{_e(bound.label)}</label>'
    control = _control(bound)
    body = f"{control} {label}" if check else f"{label}{control}"
    errors = "".join(f"<p>{_e(e)}</p>" for e in bound.errors)
    tail = f'<div id="{_e(bound.auto_id)}-errors" class="errors">{errors}</div>'
    return f'<div class="{classes}">{body}{_mark(bound, mark)}{tail}</div>'


def _mark(bound: forms.BoundField, mark: Any) -> str:
    if mark is None:
        return ""
    source = (f'<span class="badge server" title="{_e(mark.source)}">from server</span> '
              f'<span class="source">{_e(mark.source)}</span>') if mark.source else ""  # fmt: skip
    confirm = (
        f' <span class="confirm-text">confirm: {_e(mark.confirm)}</span>' if mark.confirm else ""
    )
    return f'<small class="mark" id="{_e(bound.auto_id)}-mark">{source}{confirm}</small>'
