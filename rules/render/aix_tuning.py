"""Renderer: aix_tuning (to be written)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.engine import Result


def render(result: Result) -> str:
    return ""
