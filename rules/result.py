"""The contract's result: the decisions for one inventory plus the files rendered from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine import Decisions
from rules.inventory import Inventory
from rules.model import NotApplicable, Recommendation, Skipped, Warning


@dataclass(frozen=True)
class Result:
    decisions: Decisions
    artifacts: dict[str, str]  # file name on the server -> file text

    @property
    def rules_version(self) -> str:
        return self.decisions.rules_version

    @property
    def inventory(self) -> Inventory:
        return self.decisions.inventory

    @property
    def recommendations(self) -> tuple[Recommendation, ...]:
        return self.decisions.recommendations

    @property
    def warnings(self) -> tuple[Warning, ...]:
        return self.decisions.warnings

    @property
    def skipped(self) -> tuple[Skipped, ...]:
        return self.decisions.skipped

    @property
    def not_applicable(self) -> tuple[NotApplicable, ...]:
        return self.decisions.not_applicable

    def to_dict(self) -> dict[str, Any]:
        """The contract's machine-readable result (recommendations.json)."""
        return {**self.decisions.to_dict(), "artifacts": dict(self.artifacts)}
