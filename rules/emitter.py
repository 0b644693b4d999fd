"""The one channel from a rule to the run's findings; it also lets a rule read settings
that earlier rules set, but only those the rule declared in `reads`."""

from __future__ import annotations

from rules.inventory import Inventory
from rules.model import (
    SAS_CONFIG,
    Kind,
    Recommendation,
    Rule,
    RuleError,
    Severity,
    Sink,
    Skipped,
    Warning,
)
from rules.payloads import Payload
from rules.sources import release_caveat


class Emitter:
    def __init__(self, inventory: Inventory, sink: Sink, current: Rule) -> None:
        self.inventory = inventory
        self._sink = sink
        self._rule = current
        self._allowed = current.allowed
        # A SAS 9.4 documentation source cited for an older SAS release says so.
        self._caveat = release_caveat(current.sources, inventory.sas.version)

    def resolve(self, target: str) -> str:
        return self.inventory.config_file if target == SAS_CONFIG else target

    def set(
        self,
        target: str,
        setting: str,
        value: str,
        *,
        rationale: str,
        sources: tuple[str, ...] | None = None,
        evidence: str = "",
        effect: str = "",
        kind: Kind = "change",
        payload: Payload | None = None,
        gain_pct: float | None = None,
    ) -> None:
        if (target, setting) not in self._allowed:
            raise RuleError(f"{self._rule.id} set undeclared setting {target}:{setting}")
        caveat = release_caveat(sources, self.inventory.sas.version) if sources else self._caveat
        # Positional: a rule run builds some fifty of these, and keywords cost twice as much.
        self._sink.recommendations.append(
            Recommendation(
                self._rule.id,
                self.inventory.config_file if target == SAS_CONFIG else target,
                setting,
                value,
                rationale + caveat if caveat else rationale,
                sources or self._rule.sources,
                evidence,
                effect,
                kind,
                payload,
                gain_pct,
            )
        )

    def warn(
        self,
        message: str,
        *,
        action: str = "",
        severity: Severity = "medium",
        sources: tuple[str, ...] | None = None,
    ) -> None:
        self._sink.warnings.append(
            Warning(self._rule.id, message, sources or self._rule.sources, action, severity)
        )

    def skip(self, field_path: str, reason: str) -> None:
        self._sink.skipped.append(Skipped(self._rule.id, field_path, reason))

    def get(self, target: str, setting: str) -> Recommendation | None:
        """The recommendation an earlier rule made for a setting this rule declared it reads."""
        if (target, setting) not in self._rule.reads:
            raise RuleError(f"{self._rule.id} read undeclared setting {target}:{setting}")
        resolved = self.resolve(target)
        for rec in self._sink.recommendations:
            if rec.target == resolved and rec.setting == setting:
                return rec
        return None
