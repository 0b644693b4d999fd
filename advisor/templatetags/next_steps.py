"""{% next_steps inventory files as steps %}: the steps to take with an assessment's files
(rules.next_steps), shared by the result page and the report's action plan. With the
context's `assessment`, the verify step links its Verify page and gives the API's verify
URL: whole on a page served to a browser, the path alone in the PDF (no request, no host)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.urls import reverse

from rules.next_steps import Steps, steps

register = template.Library()


@register.simple_tag(takes_context=True)
def next_steps(
    context: template.Context, inventory: Mapping[str, Any], files: Iterable[Any]
) -> Steps:
    """`files`: the file names, or the report's (name, text) pairs."""
    names = [f[0] if isinstance(f, tuple) else f for f in files]
    assessment, request = context.get("assessment"), context.get("request")
    pk = getattr(assessment, "pk", None)
    if pk is None:  # no assessment, or a report drawn before it is stored
        return steps(inventory, names)
    api = reverse("api-assessment-verify", args=[pk])
    if request is None:
        return steps(inventory, names, api_verify=api)
    page = reverse("web:verify", args=[pk])
    return steps(inventory, names, verify_page=page, api_verify=request.build_absolute_uri(api))
