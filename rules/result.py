"""The contract's result: the decisions for one inventory plus the files rendered from them."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from rules.compare import rows
from rules.engine import Decisions
from rules.inventory import Inventory
from rules.model import NotApplicable, Recommendation, Skipped, Warning
from rules.result_records import ResultDocument, ResultRecommendation
from rules.version import RESULT_VERSION


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

    def document(self) -> ResultDocument:
        """The result as the contract declares it (rules.result_records): each
        recommendation with what the server runs now, and the files."""
        d = self.decisions
        compared = rows(d.inventory, d.recommendations)
        return ResultDocument(
            result_version=RESULT_VERSION,
            rules_version=d.rules_version,
            inventory=d.inventory.to_dict(),
            recommendations=tuple(
                ResultRecommendation.of(r, row)
                for r, row in zip(d.recommendations, compared, strict=True)
            ),
            warnings=d.warnings,
            skipped=d.skipped,
            not_applicable=d.not_applicable,
            artifacts=MappingProxyType(self.artifacts),
        )

    def to_dict(self) -> dict[str, Any]:
        """The contract's machine-readable result (recommendations.json)."""
        return self.document().to_dict()
