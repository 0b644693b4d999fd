"""Run the catalog over an inventory and assemble the result.

Order: rules run in catalog order (`rules.catalog.CATALOG`), so a rule may read a value an
earlier rule set (`out.get`) — memory after CPU, buffers after memory, AIX after I/O.
Tie-break: there is none to make. Each (target, setting) pair is declared by exactly one
rule (checked when the catalog is built), and a rule that sets anything it did not declare
raises `RuleError`. Two rules can therefore never disagree about one line of a file.
Renderers run last and only format what the rules decided.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.catalog import CATALOG
from rules.inventory import Inventory
from rules.model import Emitter, Recommendation, Rule, Skipped, Warning, _Sink
from rules.render import render_artifacts
from rules.version import RULES_VERSION


@dataclass(frozen=True)
class Result:
    rules_version: str
    inventory: Inventory
    recommendations: tuple[Recommendation, ...]
    warnings: tuple[Warning, ...]
    skipped: tuple[Skipped, ...]
    artifacts: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        """The contract's machine-readable result."""
        return {
            "rules_version": self.rules_version,
            "inventory": self.inventory.to_dict(),
            "recommendations": [r.to_dict() for r in self.recommendations],
            "warnings": [w.to_dict() for w in self.warnings],
            "skipped": [s.to_dict() for s in self.skipped],
            "artifacts": dict(self.artifacts),
        }


def run(inventory: Inventory, catalog: tuple[Rule, ...] = CATALOG) -> Result:
    sink = _Sink()
    for current in catalog:
        current.fn(inventory, Emitter(inventory, sink, current))
    decided = Result(
        rules_version=RULES_VERSION,
        inventory=inventory,
        recommendations=tuple(sink.recommendations),
        warnings=tuple(sink.warnings),
        skipped=tuple(sink.skipped),
        artifacts={},
    )
    return Result(
        rules_version=decided.rules_version,
        inventory=inventory,
        recommendations=decided.recommendations,
        warnings=decided.warnings,
        skipped=decided.skipped,
        artifacts=render_artifacts(decided),
    )
