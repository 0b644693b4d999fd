"""Run the catalog over an inventory and collect the decisions; renderers come later.

Order: rules run in catalog order (`rules.catalog.CATALOG`), so a rule may read a value an
earlier rule set (declared in its `reads`, proved earlier when the catalog is built) —
memory after CPU, buffers after memory, the TMP domain after TMPDOMAIN.
Applicability: a rule whose `applies` gives a reason is not run; the reason is recorded in
`not_applicable`, so "does not apply" is never confused with "forgotten".
Tie-break: there is none to make. Each (target, setting) pair is declared by exactly one
rule (checked when the catalog is built), and a rule that sets anything it did not declare
raises `RuleError`. Two rules can therefore never disagree about one line of a file.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.catalog import CATALOG
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import NotApplicable, Recommendation, Rule, Sink, Skipped, Warning
from rules.version import RULES_VERSION


@dataclass(frozen=True)
class Decisions:
    """Everything the rules decided for one inventory; renderers only format this."""

    rules_version: str
    inventory: Inventory
    recommendations: tuple[Recommendation, ...]
    warnings: tuple[Warning, ...]
    skipped: tuple[Skipped, ...]
    not_applicable: tuple[NotApplicable, ...]

    def for_target(self, target: str) -> list[Recommendation]:
        """The recommendations aimed at one file (or 'program'/'system'), in rule order."""
        return [r for r in self.recommendations if r.target == target]


def run(inventory: Inventory, catalog: tuple[Rule, ...] = CATALOG) -> Decisions:
    sink = Sink()
    for current in catalog:
        reason = current.applies(inventory) if current.applies is not None else None
        if reason is not None:
            sink.not_applicable.append(NotApplicable(current.id, reason))
            continue
        current.fn(inventory, Emitter(inventory, sink, current))
    return Decisions(
        RULES_VERSION,
        inventory,
        tuple(sink.recommendations),
        tuple(sink.warnings),
        tuple(sink.skipped),
        tuple(sink.not_applicable),
    )
