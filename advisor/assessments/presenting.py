"""Shape a contract result (`rules.result_records.ResultDocument`) for the pages.

Recommendations are grouped by the file they land in, in the order the files are
generated; advice with no file line ("program", "system") follows. Every source id is
resolved to the paper's title so a reader sees *why* next to *what*. Each recommendation's
`current` and `status` (`rules.compare`) make the current → recommended table and each
file's counts (`statuses`); a verification (`rules.verify`) becomes the compliance table,
non-compliant rows first.

A rule that sets or checks one thing per LUN, logical volume or adapter (aix.max_transfer
on a 512-LUN box) repeats a setting hundreds of times: such repeats are shown once, with
their count and the list, so the page stays readable and cheap to render. Read-only checks
are kept apart from the changes, each naming what it measures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from advisor.assessments.statuses import (
    CHECK_PREFIX,
    STATUS_WORDS,
    Counts,
    counts_by_target,
    current_rows,
    shown_setting,
)
from advisor.core import words
from rules.catalog import CATALOG
from rules.render.registry import APPLIES_SETTINGS_OF
from rules.result_records import ResultDocument, ResultRecommendation
from rules.sources import SOURCES
from rules.verify import Verification

GROUP_TITLES = {
    "program": "SAS programs and LIBNAME statements",
    "system": "The machine (outside the generated files)",
}
SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}
MAX_SHOWN_LINES = 400  # lines of a generated file shown on the page; the download has all


def cite(source_ids: list[str]) -> list[dict[str, str]]:
    """Each source as people cite it ('Bartucca 2005, 'Setting up …''), with its title and
    full reference for the "why?" expander."""
    out = []
    for sid in source_ids:
        src = SOURCES.get(sid)
        title, full = (src.title, src.citation) if src else (sid, sid)
        out.append({"id": sid, "title": title, "citation": full, "cited": words.citation(sid)})
    return out


def mounts(result: ResultDocument) -> list[str]:
    """The mount point of each storage entry, by position: how the pages name an entry."""
    return [str(s.get("mount") or "") for s in result.inventory.get("storage", ())]


def slug(name: str) -> str:
    """A group's anchor: 'tuned.conf' → 'tuned-conf'."""
    return "".join(c if c.isalnum() else "-" for c in name)


@dataclass
class Group:
    name: str
    title: str
    text: str | None  # the file's text; None for advice that is not a file
    settings: list[dict[str, Any]] = field(default_factory=list)
    counts: Counts = field(default_factory=Counts)  # its rows by status (statuses.tally)
    applies: str | None = None  # the file whose settings this one applies
    applied: Counts | None = None  # that file's counts
    max_shown_lines: ClassVar[int] = MAX_SHOWN_LINES

    @property
    def slug(self) -> str:
        return slug(self.name)

    @property
    def applies_slug(self) -> str:
        return slug(self.applies or "")

    @property
    def shown_text(self) -> str:
        """The file as the page shows it: whole up to MAX_SHOWN_LINES lines; a longer one
        (aix_tuning.sh on a 512-LUN box, 400 KB) is cut there, the download has it all."""
        if self.text is None or self.line_count <= MAX_SHOWN_LINES:
            return self.text or ""
        return "\n".join(self.text.splitlines()[:MAX_SHOWN_LINES])

    @property
    def line_count(self) -> int:
        if not self.text:
            return 0
        return self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    @property
    def cut(self) -> bool:
        return self.line_count > MAX_SHOWN_LINES

    @property
    def actions(self) -> list[dict[str, Any]]:
        """What the file (or the advice) asks for: everything but the read-only checks."""
        return [s for s in self.settings if s.get("kind") != "check"]

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The settings the file writes (to set, change or keep), per-device repeats once."""
        return [s for s in self.settings if s.get("kind") == "change"]

    @property
    def advice(self) -> list[dict[str, Any]]:
        return [s for s in self.settings if s.get("kind") == "advice"]

    @property
    def checks(self) -> list[dict[str, Any]]:
        return [s for s in self.settings if s.get("kind") == "check"]


RULE_TITLES = {r.id: r.title for r in CATALOG}


def measures(rec: ResultRecommendation) -> str:
    """What a read-only check measures, in words: the disk attributes it reads, else the
    tunable its command names, else its rule's title ("check:vmstat -v" names no one)."""
    if not rec.setting.startswith(CHECK_PREFIX):
        return rec.setting  # "run queue per CPU", "WORK file system block size"
    if rec.extra.get("disk_attributes"):
        return " and ".join(rec.extra["disk_attributes"].split()) + " of the disks"
    parts = rec.setting.removeprefix(CHECK_PREFIX).split()
    if len(parts) > 1 and not parts[-1].startswith("-"):
        return parts[-1]
    return RULE_TITLES.get(rec.rule, " ".join(parts))


def in_words(rec: ResultRecommendation, where: Sequence[str] = ()) -> dict[str, str]:
    """The recommendation's text for a reader (`words.plain`): `said` (its rationale),
    `effect_said`, `evidence_said`, and `phrase`, the setting as an admin writes it."""
    return {
        "said": words.plain(rec.rationale, where),
        "effect_said": words.plain(rec.effect, where),
        "evidence_said": words.plain(rec.evidence, where),
        "phrase": words.setting_phrase(rec.setting, rec.value),
    }


def shown(rec: ResultRecommendation, where: Sequence[str] = ()) -> dict[str, Any]:
    """A recommendation as the page and the report show it: its fields, its sources
    resolved, its text in words (`in_words`; the fields keep the rules' text for the "why?"
    expander), its status in words and the run-time cut its paper measured (0: none)."""
    out = {**rec._asdict(), "cited": cite(list(rec.sources)), "repeats": [rec.value]}
    out |= in_words(rec, where)
    out["word"] = STATUS_WORDS.get(rec.status, rec.status)
    out["gain"] = rec.measured_gain_pct or 0.0
    if rec.kind == "check":
        out["measures"] = measures(rec)
    return out


def collapsed(
    recs: Iterable[ResultRecommendation], where: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """One entry per (rule, setting), where the first occurrence stands: a per-device
    repeat (the same check or change for each LUN, LV or adapter) keeps every value in
    `repeats`, in order. Sources are resolved once per entry, not once per device."""
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    for rec in recs:
        key = (rec.rule, rec.setting)
        first = by_key.get(key)
        if first is None:
            by_key[key] = shown(rec, where)
        else:
            first["repeats"].append(rec.value)
    return list(by_key.values())


def groups(result: ResultDocument) -> list[Group]:
    """Files first (each with its settings, repeats collapsed, and its counts), then advice
    groups, in a stable order."""
    artifacts = result.artifacts
    by_name: dict[str, Group] = {name: Group(name, name, text) for name, text in artifacts.items()}
    recs: dict[str, list[ResultRecommendation]] = {}
    for rec in result.recommendations:
        if rec.target not in by_name:
            by_name[rec.target] = Group(rec.target, GROUP_TITLES.get(rec.target, rec.target), None)
        recs.setdefault(rec.target, []).append(rec)
    counts = counts_by_target(current_rows(result.recommendations))
    where = mounts(result)
    for target, group in by_name.items():
        group.settings = collapsed(recs.get(target, []), where)
        group.counts = counts.get(target, Counts())
        applies = APPLIES_SETTINGS_OF.get(target)
        if applies is not None and applies in artifacts:
            group.applies, group.applied = applies, counts.get(applies, Counts())
    files = [g for g in by_name.values() if g.text is not None]
    advice = [g for g in by_name.values() if g.text is None]
    return files + advice


class Warnings(list[dict[str, Any]]):
    """The warnings as shown: one entry per rule and severity, most severe first; a rule
    that warns once per storage entry (work.raid5 on 512 LUNs) is one entry whose `others`
    hold the rest of its messages. A list, so the form's preview can take it as it is."""

    @property
    def total(self) -> int:
        return sum(w["count"] for w in self)

    @property
    def by_severity(self) -> list[tuple[str, int, list[dict[str, Any]]]]:
        """(severity, how many warnings, the entries), most severe first."""
        out: dict[str, tuple[int, list[dict[str, Any]]]] = {}
        for w in self:
            count, items = out.get(w["severity"], (0, []))
            out[w["severity"]] = (count + w["count"], [*items, w])
        return [(sev, count, items) for sev, (count, items) in out.items()]

    @property
    def counts(self) -> list[tuple[str, int]]:
        """(severity, how many warnings), most severe first: the result page's summary."""
        return [(sev, count) for sev, count, _ in self.by_severity]


def warnings(result: ResultDocument) -> Warnings:
    """Warnings, most severe first, repeats collapsed, each with its sources resolved."""
    by_key: dict[tuple[str, str], dict[str, Any]] = {}
    where = mounts(result)
    for w in result.warnings:
        first = by_key.get((w.rule, w.severity))
        if first is None:
            by_key[(w.rule, w.severity)] = {
                **w._asdict(), "cited": cite(list(w.sources)), "others": [], "count": 1,
                "said": words.plain(w.message, where), "action_said": words.plain(w.action, where),
            }  # fmt: skip
        else:
            first["others"].append(words.plain(w.message, where))
            first["count"] += 1
    items = sorted(by_key.values(), key=lambda w: SEVERITY_ORDER.get(w["severity"], 1))
    return Warnings(items)


# Verify: a saved assessment against a newer reading -----------------------------------

COMPLIANCE_ORDER = {False: 0, True: 1, None: 2}


def verify_rows(verification: Verification) -> list[dict[str, Any]]:
    """The rows, non-compliant first, each setting shown as the current table shows it."""
    out = []
    for row in sorted(verification.rows, key=lambda r: COMPLIANCE_ORDER[r.compliant]):
        setting, recommended = shown_setting(row.setting, row.recommended)
        out.append({**row.to_dict(), "setting": setting, "recommended": recommended})
    return out
