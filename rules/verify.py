"""Verify (drift): hold a saved inventory's recommendations against a newer reading.

The newer reading is a collector bundle or a transcript (`rules.parse`); its `current`
block is what the server runs now. Each recommendation becomes a row — setting,
recommended, actual, compliant — where compliant is None for checks and for settings the
reading did not cover.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.compare import Row, rows
from rules.current import Current
from rules.engine import run
from rules.inventory import Inventory
from rules.parse import draft
from rules.parse.draft import Draft
from rules.validate import parse_part


@dataclass(frozen=True)
class Verification:
    rows: list[Row]
    draft: Draft

    @property
    def non_compliant(self) -> list[Row]:
        return [r for r in self.rows if r.compliant is False]

    def to_dict(self) -> dict[str, Any]:
        counted = [r for r in self.rows if r.compliant is not None]
        return {
            "rows": [r.to_dict() for r in self.rows],
            "compliant": sum(1 for r in counted if r.compliant),
            "non_compliant": len(self.non_compliant),
            "not_verified": len(self.rows) - len(counted),
            "problems": self.draft.problems,
            "unknown_commands": self.draft.unknown,
        }


def current_of(found: Draft) -> Current | None:
    """The `current` block a reading gives, validated by the contract."""
    block = found.document.get("current")
    if not isinstance(block, dict):
        return None
    current: Current = parse_part(Current, block, "current")
    return current


def verify(inventory: Inventory, text: str) -> Verification:
    found = draft(text)
    decisions = run(inventory)
    # A reading with no current block verifies nothing: never fall back to the saved one.
    now = current_of(found) or Current()
    return Verification(rows(inventory, decisions.recommendations, now), found)
