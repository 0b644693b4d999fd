"""What rules produce, and how a rule is declared.

A rule is a small pure function `fn(inventory, out)` plus metadata (`@rule(...)`): the
sources it rests on, the settings it may set, what it reads (contract fields such as
"server.cpus", and settings earlier rules set), and when it applies. The engine runs a
rule only where it applies and records the reason where it does not. The rule speaks only
through the `Emitter` it is given: `out.set(...)` for a setting, `out.warn(...)` where the
hardware cannot meet the guidance, `out.skip(...)` when an input it needs is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, NamedTuple

from rules.inventory import Inventory
from rules.payloads import Payload
from rules.result_fields import Doc, to_document
from rules.sources import SOURCES

if TYPE_CHECKING:
    from rules.emitter import Emitter

# What a rule writes to. SAS_CONFIG resolves to the inventory's SAS site config file; the
# others name a file as it is named on the server. PROGRAM is a change to SAS programs or
# LIBNAME statements; SYSTEM a change to the machine outside any generated file.
SAS_CONFIG = "sas_config"
SPDSSERV = "spdsserv.parm"
LIBNAMES = "libnames.parm"
AIX_SCRIPT = "aix_tuning.sh"
# Linux: every OS setting goes to the tuned child profile; linux_tuning.sh installs that
# profile (or, without tuned, applies the same values through sysctl.d, sysfs and udev),
# so the script renders from the tuned.conf recommendations and owns none of its own.
TUNED = "tuned.conf"
LINUX_SCRIPT = "linux_tuning.sh"
PROGRAM = "program"
SYSTEM = "system"

Kind = Literal["change", "check", "advice"]
Severity = Literal["high", "medium", "low"]
Setting = tuple[str, str]  # (target, setting)


# Immutable NamedTuples rather than frozen dataclasses: a result holds dozens of them and
# tuples are built several times faster.
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
    payload: Payload | None = None  # typed data for the renderer of the target file
    gain_pct: float | None = None  # the run-time cut the paper measured, in %


class Warning(NamedTuple):
    """Where the hardware or the setup cannot meet the guidance, and what to do about it."""

    rule: Annotated[str, Doc("the rule that warns")]
    message: Annotated[str, Doc("what is wrong, with the figures")]
    sources: Annotated[tuple[str, ...], Doc("the papers it rests on (GET /rules/ names them)")]
    action: Annotated[str, Doc("what to do about it")] = ""
    severity: Annotated[Severity, Doc("high undercuts every setting; low is worth knowing")] = (
        "medium"
    )

    def to_dict(self) -> dict[str, Any]:
        return to_document(self)


class Skipped(NamedTuple):
    """A rule that applies but lacks an input: the field to fill in."""

    rule: Annotated[str, Doc("the rule that could not decide")]
    field: Annotated[str, Doc("the JSON path of the missing input")]
    reason: Annotated[str, Doc("why it needs that input")]

    def to_dict(self) -> dict[str, Any]:
        return to_document(self)


class NotApplicable(NamedTuple):
    """A rule that does not apply to this server, and why."""

    rule: Annotated[str, Doc("the rule left out")]
    reason: Annotated[str, Doc("why it does not apply")]

    def to_dict(self) -> dict[str, Any]:
        return to_document(self)


RuleFn = Callable[[Inventory, "Emitter"], None]
# Returns why the rule does not apply to this inventory, or None when it does.
Applies = Callable[[Inventory], str | None]


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    sources: tuple[str, ...]
    settings: tuple[Setting, ...]  # what it may set
    fn: RuleFn
    applies: Applies | None = None
    inputs: tuple[str, ...] = ()  # contract fields it reads ("server.cpus", "storage[].role")
    reads: tuple[Setting, ...] = ()  # settings earlier rules set that it reads
    allowed: frozenset[Setting] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Built once per rule, not once per run: the Emitter checks every set() against it.
        object.__setattr__(self, "allowed", frozenset(self.settings))

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "sources": list(self.sources),
            "settings": [{"target": t, "setting": s} for t, s in self.settings],
            "inputs": list(self.inputs),
            "reads": [{"target": t, "setting": s} for t, s in self.reads],
            "doc": (self.fn.__doc__ or "").strip(),
        }


def rule(
    *,
    id: str,
    title: str,
    sources: tuple[str, ...],
    settings: tuple[Setting, ...] = (),
    applies: Applies | None = None,
    inputs: tuple[str, ...] = (),
    reads: tuple[Setting, ...] = (),
) -> Callable[[RuleFn], Rule]:
    """Declare a rule: `@rule(id="cpu.cpucount_cap", title=…, sources=("chew",), …)`."""
    unknown = [s for s in sources if s not in SOURCES]
    if unknown:
        raise ValueError(f"rule {id}: unknown sources {unknown}")

    def wrap(fn: RuleFn) -> Rule:
        return Rule(id, title, sources, settings, fn, applies, inputs, reads)

    return wrap


class RuleError(RuntimeError):
    """A rule broke its own declaration (a programming error, never bad input)."""


@dataclass
class Sink:
    """Where one run's findings collect, in the order the rules made them."""

    recommendations: list[Recommendation] = field(default_factory=list)
    warnings: list[Warning] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    not_applicable: list[NotApplicable] = field(default_factory=list)
