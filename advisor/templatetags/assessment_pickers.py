"""`{% assessment_suggestions exclude=assessment.pk as options %}`: a picker's suggestions
for the signed-in user (advisor/assessments/pickers.py), so a page that shows a picker
needs nothing from its view."""

from __future__ import annotations

from typing import Any

from django import template

from advisor.assessments.pickers import suggestions

register = template.Library()


@register.simple_tag(takes_context=True)
def assessment_suggestions(context: dict[str, Any], exclude: int | None = None) -> list[str]:
    request = context.get("request")
    if request is None:
        return []
    return suggestions(request.user, exclude=exclude)
