"""The parts of a report a client reads first: contents, scope, the action plan, sources.

The action plan is the executive summary's ranking said as instructions: high-severity
warnings first (they undercut every setting), then each setting whose paper measured a
run-time cut, the largest cut first, then what is left in one step each. Settings the
server already runs (status "keep") are no step at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from advisor.assessments.statuses import shown_row, tally
from advisor.reports import folding

# Sources a reader can open without an account: the SAS Global Forum proceedings on
# support.sas.com. The other sources are listed without a link rather than with a guess.
PUBLIC_URLS = {
    "pohl2007": "https://support.sas.com/resources/papers/proceedings/proceedings/forum2007/196-2007.pdf",
    "bogacz2012": "https://support.sas.com/resources/papers/proceedings12/368-2012.pdf",
}
PLACES = {"program": "in the SAS programs", "system": "on the server"}


@dataclass(frozen=True)
class Step:
    """One instruction of the action plan and why it is where it is."""

    title: str
    why: str
    sources: tuple[str, ...] = ()


def _place(target: str) -> str:
    return PLACES.get(target, f"in {target}")


def _change_title(rec: dict[str, Any]) -> str:
    setting, value, place = rec["setting"], str(rec.get("value") or ""), _place(rec["target"])
    if rec.get("kind") == "change":
        return f"Set {setting} to {value} {place}." if value else f"Turn on {setting} {place}."
    if rec.get("kind") == "advice" and len(value.split()) <= 1:
        return f"Use {setting} {value} {place}.".replace("  ", " ")
    if rec.get("kind") == "advice":  # a command or a sentence, not a value
        return f"Apply {setting} {place}: {value}"
    return f"Check {setting} {place}: {value}."


def _for_entries(item: dict[str, Any], chapter: str) -> str:
    """What a folded finding adds to its step: how many entries, and where they are."""
    if not item.get("entries"):
        return ""
    return (
        f" For each of {len(item['entries'])} storage entries ({folding.ENTRY_MARK}), "
        f"listed under {chapter}."
    )


def _change_step(rec: dict[str, Any]) -> Step:
    why = f"Measured in the cited work: run time cut by up to {rec['gain']:.0f} %."
    why += _for_entries(rec, "Recommendations")
    return Step(_change_title(rec), why, tuple(rec["sources"]))


def _warning_step(warning: dict[str, Any]) -> Step:
    title = warning.get("action") or warning["message"]
    why = warning["message"] if warning.get("action") else "A high-severity warning."
    why += _for_entries(warning, "Warnings and what to do")
    return Step(str(title), str(why), tuple(warning.get("sources", [])))


def _remaining_steps(
    recs: Sequence[dict[str, Any]], ranked: Sequence[dict[str, Any]], warnings: int, other: str
) -> list[Step]:
    done = {(r["rule"], r["setting"]) for r in ranked}
    left = tally(shown_row(r) for r in recs if (r["rule"], r["setting"]) not in done)
    checks = left.check + left.advice
    steps = []
    if left.pending:
        steps.append(Step(
            f"Apply the other {left.pending} setting{'s' * (left.pending != 1)} "
            f"({left.change} change, {left.unknown} not read).",
            "No paper measured a run-time cut for these on their own; each is explained "
            "under Recommendations, and the generated files hold them (a value not read "
            "from the server is set whatever it is now).",
        ))  # fmt: skip
    if warnings:
        steps.append(Step(
            f"Review the {other}warning{'s' * (warnings != 1)}"
            f"{f' ({warnings})' if warnings != 1 else ''}.",
            "Medium and low severity: listed under Warnings and what to do.",
        ))  # fmt: skip
    if checks:
        steps.append(Step(
            f"Make the {checks} check{'s' * (checks != 1)} by hand.",
            "Values to confirm on the server or in the programs, not settings to change.",
        ))  # fmt: skip
    return steps


def action_plan(
    warnings: Sequence[dict[str, Any]],
    recs: Sequence[dict[str, Any]],
    ranked: Sequence[dict[str, Any]],
    *,
    entries: folding.Entries | None = None,
) -> list[Step]:
    """Warnings (sorted by severity) and recommendations, with `ranked` the ones carrying
    a measured gain, largest first, as numbered plain-language steps. With the storage
    `entries`, a step repeated for many of them is one step (folding.py)."""
    high = [w for w in warnings if w.get("severity") == "high"]
    todo = [r for r in ranked if r["status"] != "keep"]
    entries = entries if entries is not None else folding.Entries(())
    steps = [_warning_step(w) for w in folding.fold_warnings(high, entries)]
    steps += [_change_step(r) for r in folding.fold_recs(todo, entries)]
    pending = [r for r in recs if r["status"] != "keep"]
    other = "other " if high else ""
    return steps + _remaining_steps(pending, todo, len(warnings) - len(high), other)


def scope_files(recs: Sequence[dict[str, Any]]) -> list[str]:
    """The generated files the advice touches, in the order they first appear."""
    seen = dict.fromkeys(r["target"] for r in recs if r["target"] not in PLACES)
    return list(seen)


def contents(*, notes: bool, logs: bool, scripts: bool) -> list[tuple[str, str]]:
    """(anchor, heading) of each section the report holds, in order."""
    sections = [
        ("scope", "Scope and disclaimer"),
        ("plan", "Action plan"),
        ("notes", "Consultant notes") if notes else None,
        ("summary", "Executive summary"),
        ("server", "The server"),
        ("charts", "Charts"),
        ("current", "Current → recommended"),
        ("recommendations", "Recommendations"),
        ("warnings", "Warnings and what to do"),
        ("logs", "Jobs diagnosed from their SAS logs") if logs else None,
        ("sources", "Sources"),
        ("why", "Why: the papers' lines"),
        ("appendix", "Appendix: generated files") if scripts else None,
    ]
    return [s for s in sections if s is not None]
