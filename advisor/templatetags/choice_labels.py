"""{% load choice_labels %}: a contract choice as the form labels it ('linux' → 'Linux',
'debian' → 'Debian', 'work' → 'SAS WORK'), for pages that show stored values."""

from __future__ import annotations

from django import template

from advisor.assessments.forms import CHOICE_LABELS

register = template.Library()


@register.filter
def choice_label(value: str | None, is_choice: bool = True) -> str | None:
    """{{ r.a|choice_label:r.choice }}: the form's label of a choice; anything else (and a
    value no label lists) as it is."""
    if value is None or not is_choice:
        return value
    return CHOICE_LABELS.get(value, value)
