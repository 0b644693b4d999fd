"""The contract's result, declared once: what `rules` gives for an inventory.

`ResultDocument` is the whole result (recommendations.json, the API's answer, what an
assessment stores); its recommendations are `ResultRecommendation`s and its warnings,
skipped and not-applicable rules are the engine's own records (`rules.model`). The JSON
Schema (`result_schema`), the document (`ResultDocument.to_dict`) and the reading of a
stored one (`rules.result_read`) all come from these declarations (`rules.result_fields`).

`result_version` numbers the shape: 1 is every result stored before the field existed
(rules 2026.11.0 to 2026.11.7, whose shapes `rules.result_read` upgrades), 2 the one
declared here. Bump RESULT_VERSION (rules/version.py) when a field is added, and say in
`rules.result_read` how an older result is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple, get_args

from rules.compare import Row, Status
from rules.model import Kind, NotApplicable, Severity, Skipped, Warning
from rules.result_fields import Doc, Ref, Schema, record_schema, to_document

if TYPE_CHECKING:
    from rules.model import Recommendation

NOTHING: Mapping[str, str] = MappingProxyType({})
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low")
STATUSES: tuple[str, ...] = get_args(Status)


class ResultRecommendation(NamedTuple):
    """One setting, check or piece of advice, with the server's current value."""

    rule: Annotated[str, Doc("the rule that made it")]
    target: Annotated[str, Doc("the file it goes to (as named on the server), or "
                                "'program' / 'system' for advice outside the files")]  # fmt: skip
    setting: Annotated[str, Doc("the option or tunable; a check's is 'check:COMMAND'")]
    value: Annotated[str, Doc("the value recommended ('' turns a flag on)")] = ""
    rationale: Annotated[str, Doc("the derivation in words: inputs, caps, rounding")] = ""
    sources: Annotated[tuple[str, ...], Doc("the papers it rests on")] = ()
    evidence: Annotated[str, Doc("the figure or table the value leans on")] = ""
    effect: Annotated[str, Doc("what the paper measured it to buy")] = ""
    measured_gain_pct: Annotated[float | None, Doc("the run-time cut the paper measured, %")] = None
    kind: Annotated[Kind, Doc("change: a line of a file; check: verify before changing; "
                              "advice: no file line")] = "change"  # fmt: skip
    extra: Annotated[Mapping[str, str], Doc("flat strings by kind: where the value lives "
                                            "(ioo/vmo, tuned's plugin and path), a check's "
                                            "command (docs/contract.md)")] = NOTHING  # fmt: skip
    current: Annotated[str | None, Doc("what the server runs now (inventory.current); null "
                                       "where unknown, '(not set)' where read and "
                                       "absent")] = None  # fmt: skip
    status: Annotated[Status, Doc("change: the server runs another value (or none) and the "
                                  "file changes it; unknown: the value was not read, the "
                                  "file sets it; keep: the server already runs it; check: a "
                                  "check or advice, no line changes")] = "unknown"  # fmt: skip

    @classmethod
    def of(cls, rec: Recommendation, row: Row) -> ResultRecommendation:
        """The engine's recommendation with its comparison against the server."""
        extra = rec.payload.as_extra() if rec.payload is not None else NOTHING
        return cls(
            rec.rule, rec.target, rec.setting, rec.value, rec.rationale, rec.sources,
            rec.evidence, rec.effect, rec.gain_pct, rec.kind, extra, row.current, row.status,
        )  # fmt: skip

    def to_dict(self) -> dict[str, Any]:
        return to_document(self)


class ResultDocument(NamedTuple):
    """The contract's result: the decisions for one inventory and the files made from them."""

    result_version: Annotated[int, Doc("the shape of this document: 1 for results stored "
                                       "before it said, 2 since")] = 1  # fmt: skip
    rules_version: Annotated[str, Doc("the rules that gave this advice")] = ""
    inventory: Annotated[Mapping[str, Any], Ref("Inventory")] = NOTHING
    recommendations: Annotated[tuple[ResultRecommendation, ...], Doc("in rule order")] = ()
    warnings: Annotated[tuple[Warning, ...], Doc("in rule order")] = ()
    skipped: Annotated[tuple[Skipped, ...], Doc("rules that apply but lack an input")] = ()
    not_applicable: Annotated[tuple[NotApplicable, ...], Doc("rules that do not apply")] = ()
    artifacts: Annotated[Mapping[str, str], Doc("file name on the server -> file text")] = NOTHING

    def to_dict(self) -> dict[str, Any]:
        """recommendations.json: keys in the declaration's order."""
        return to_document(self)

    def severity_counts(self) -> dict[str, int]:
        """How many warnings of each severity, most severe first."""
        return count(SEVERITIES, (w.severity for w in self.warnings))

    def status_counts(self) -> dict[str, int]:
        """The recommendations by status, a check or advice by its kind: change, unknown,
        keep, check, advice (the one count every summary of a result shows)."""
        return status_counts(self.recommendations)

    def value_of(self, setting: str) -> str | None:
        """The value a change sets for an option (MEMSIZE, CPUCOUNT …), if any rule set it."""
        return next(
            (r.value for r in self.recommendations if r.setting == setting and r.kind == "change"),
            None,
        )


def count(keys: Iterable[str], found: Iterable[str]) -> dict[str, int]:
    out = dict.fromkeys(keys, 0)
    for key in found:
        out[key] = out.get(key, 0) + 1
    return out


def counted_as(status: str, kind: str) -> str:
    """What a recommendation counts as: its status, but advice for a check that is advice."""
    return "advice" if status == "check" and kind == "advice" else status


def status_counts(recs: Iterable[ResultRecommendation]) -> dict[str, int]:
    """By status, where a check that is advice counts as advice."""
    return count((*STATUSES, "advice"), (counted_as(r.status, r.kind) for r in recs))


# The components the API serves, by record; the inventory is its own component.
COMPONENTS: dict[type, str] = {
    ResultDocument: "Result",
    ResultRecommendation: "ResultRecommendation",
    Warning: "ResultWarning",
    Skipped: "ResultSkipped",
    NotApplicable: "ResultNotApplicable",
}


def result_schemas(ref: Callable[[str], Schema]) -> dict[str, Schema]:
    """Every component of the result by name; `ref(name)` is how one refers to another."""

    def resolve(target: Any) -> Schema:
        return ref(target if isinstance(target, str) else COMPONENTS[target])

    return {name: record_schema(cls, resolve) for cls, name in COMPONENTS.items()}
