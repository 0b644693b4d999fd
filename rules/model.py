"""What rules produce: recommendations, warnings and skips, and how a rule is declared.

A rule is a small pure function `fn(inventory, out)` plus metadata (`@rule(...)`). It
speaks only through the `Emitter` it is given: `out.set(...)` for a setting, `out.warn(...)`
where the hardware cannot meet the guidance, `out.skip(...)` when an input it needs is
missing. Every setting a rule may touch is declared up front, so the engine can refuse a
rule that strays and the catalog can prove that each setting has exactly one owner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from rules.inventory import Inventory
from rules.sources import SOURCES

# Targets a rule writes to. SAS_CONFIG resolves to sasv9.cfg (9.1.3) or sasv9_local.cfg
# (9.2+); PROGRAM is a change to SAS programs or LIBNAME statements; SYSTEM is a change to
# the machine outside any generated file (mounts, layout, monitoring).
SAS_CONFIG = "sas_config"
SPDSSERV = "spdsserv.parm"
LIBNAMES = "libnames.parm"
AIX_SCRIPT = "aix_tuning.sh"
PROGRAM = "program"
SYSTEM = "system"
TARGETS: tuple[str, ...] = (SAS_CONFIG, SPDSSERV, LIBNAMES, AIX_SCRIPT, PROGRAM, SYSTEM)

Kind = Literal["change", "check", "advice"]
Severity = Literal["high", "medium", "low"]


# Recommendations, warnings and skips are immutable NamedTuples rather than frozen
# dataclasses: a result holds dozens of them and tuples are built several times faster.
_NO_EXTRA: Mapping[str, str] = MappingProxyType({})


class Recommendation(NamedTuple):
    rule: str
    target: str  # a file name (sasv9_local.cfg, aix_tuning.sh …), "program" or "system"
    setting: str
    value: str
    rationale: str  # the derivation in words: inputs, caps, rounding
    sources: tuple[str, ...]
    evidence: str = ""  # the figure or table the value leans on
    effect: str = ""  # what the paper measured it to buy
    kind: Kind = "change"  # "check": verify before changing; "advice": no file line
    extra: Mapping[str, str] = _NO_EXTRA  # structured data for renderers

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "target": self.target,
            "setting": self.setting,
            "value": self.value,
            "rationale": self.rationale,
            "sources": list(self.sources),
            "evidence": self.evidence,
            "effect": self.effect,
            "kind": self.kind,
            "extra": dict(self.extra),
        }


class Warning(NamedTuple):
    rule: str
    message: str
    sources: tuple[str, ...]
    action: str = ""  # what to do about it
    severity: Severity = "medium"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "message": self.message,
            "sources": list(self.sources),
            "action": self.action,
            "severity": self.severity,
        }


class Skipped(NamedTuple):
    rule: str
    field: str  # the JSON path of the missing input
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "field": self.field, "reason": self.reason}


RuleFn = Callable[[Inventory, "Emitter"], None]


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    sources: tuple[str, ...]
    settings: tuple[tuple[str, str], ...]  # (target, setting) pairs it may set
    fn: RuleFn
    allowed: frozenset[tuple[str, str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once per rule, not once per run: the Emitter checks every set() against it.
        object.__setattr__(self, "allowed", frozenset(self.settings))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "sources": list(self.sources),
            "settings": [{"target": t, "setting": s} for t, s in self.settings],
            "doc": (self.fn.__doc__ or "").strip(),
        }


def rule(
    *, id: str, title: str, sources: tuple[str, ...], settings: tuple[tuple[str, str], ...] = ()
) -> Callable[[RuleFn], Rule]:
    """Declare a rule: `@rule(id="cpu.cpucount_cap", title=…, sources=("chew",), settings=…)`."""
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        raise ValueError(f"rule {id}: unknown sources {unknown}")
    bad_targets = [t for t, _ in settings if t not in TARGETS]
    if bad_targets:
        raise ValueError(f"rule {id}: unknown targets {bad_targets}")

    def wrap(fn: RuleFn) -> Rule:
        return Rule(id=id, title=title, sources=sources, settings=settings, fn=fn)

    return wrap


class RuleError(RuntimeError):
    """A rule broke its own declaration (a programming error, never bad input)."""


class Emitter:
    """The one channel from a rule to the result; also lets a rule read earlier settings."""

    def __init__(self, inventory: Inventory, sink: _Sink, current: Rule) -> None:
        self.inventory = inventory
        self._sink = sink
        self._rule = current
        self._allowed = current.allowed

    def resolve(self, target: str) -> str:
        return self.inventory.sas.config_file if target == SAS_CONFIG else target

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
        extra: Mapping[str, str] | None = None,
    ) -> None:
        if (target, setting) not in self._allowed:
            raise RuleError(f"{self._rule.id} set undeclared setting {target}:{setting}")
        # Positional: a rule run builds some fifty of these, and keywords cost twice as much.
        self._sink.recommendations.append(
            Recommendation(
                self._rule.id,
                self.inventory.sas.config_file if target == SAS_CONFIG else target,
                setting,
                value,
                rationale,
                sources or self._rule.sources,
                evidence,
                effect,
                kind,
                dict(extra) if extra else _NO_EXTRA,
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
        """The recommendation an earlier rule made for this setting, if any."""
        resolved = self.resolve(target)
        for rec in self._sink.recommendations:
            if rec.target == resolved and rec.setting == setting:
                return rec
        return None


@dataclass
class _Sink:
    recommendations: list[Recommendation] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
