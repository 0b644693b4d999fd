"""{% next_steps inventory files as steps %}: the steps to take with an assessment's files
(rules.next_steps), shared by the result page and the report's action plan."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template

from rules.next_steps import Step, steps

register = template.Library()


@register.simple_tag
def next_steps(inventory: Mapping[str, Any], files: Iterable[Any]) -> list[Step]:
    """`files`: the file names, or the report's (name, text) pairs."""
    names = [f[0] if isinstance(f, tuple) else f for f in files]
    return steps(inventory, names)
