"""Rules: io (to be written)."""

from __future__ import annotations

from rules.model import Rule

RULES: tuple[Rule, ...] = ()
