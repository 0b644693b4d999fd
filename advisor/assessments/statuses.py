"""Current → recommended: each recommendation's status, and the one count of them.

A recommendation's `status` (`rules.compare`) is `change` (the server was read running
another value, or none: the file changes it), `unknown` (the value was not read: the file
sets it, whether or not that changes anything), `keep` (the server already runs it) or
`check` (read-only checks and advice, which set no line). Every summary of a result — the
page's lead and its per-file lines, each file's badge, the report's chapter and its action
plan — counts with `tally`, so no two of them can disagree with the table or each other.

Some files carry no settings of their own: linux_tuning.sh and ansible_linux.yml apply
tuned.conf's values, ansible_aix.yml applies aix_tuning.sh's (`APPLIES_SETTINGS_OF`).
Their lines are counted once, in the file they belong to, and the others say so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from advisor.core.results import STATUS_COLUMNS
from rules.render.registry import APPLIES_SETTINGS_OF
from rules.result_read import unread_status
from rules.result_records import ResultDocument, ResultRecommendation, count, counted_as

if TYPE_CHECKING:
    from advisor.models import Assessment

STATUS_ORDER = {"change": 0, "unknown": 1, "keep": 2, "check": 3}
# The word a reader sees: an unread value is one the file sets, whatever the server runs.
STATUS_WORDS = {"change": "change", "unknown": "set", "keep": "keep", "check": "check"}
PENDING = ("change", "unknown")  # the lines the generated files write on this server
CHECK_PREFIX = "check:"  # a check's setting names the command; its value is the command line


@dataclass(frozen=True)
class CurrentRow:
    """One line of the current → recommended table."""

    rule: str
    target: str
    setting: str
    recommended: str
    current: str | None  # None: not read from the server
    status: str  # change | unknown | keep | check
    kind: str = "change"  # change | check | advice

    @property
    def word(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)


def shown_setting(setting: str, value: str) -> tuple[str, str]:
    """(setting, recommended) as a reader sees them: a check is its command, a flag is on."""
    if setting.startswith(CHECK_PREFIX):
        return value, "—"
    return setting, value if value != "" else "(on)"


def current_row(rec: ResultRecommendation) -> CurrentRow:
    """A recommendation as the table shows it."""
    setting, recommended = shown_setting(rec.setting, rec.value)
    return CurrentRow(rec.rule, rec.target, setting, recommended, rec.current, rec.status, rec.kind)


def shown_row(shown: Mapping[str, Any]) -> CurrentRow:
    """The row of a recommendation as a page or report shows it (`presenting.shown`: its
    fields, a folded one's text marked)."""
    fields = {f: shown[f] for f in ResultRecommendation._fields if f in shown}
    fields.setdefault("status", unread_status(fields.get("kind", "change")))
    return current_row(ResultRecommendation(**fields))


def current_rows(
    recs: Iterable[ResultRecommendation], *, changes_first: bool = False
) -> list[CurrentRow]:
    """Every recommendation with what the server runs now; changes first when asked."""
    rows = [current_row(rec) for rec in recs]
    if changes_first:
        rows.sort(key=lambda r: STATUS_ORDER.get(r.status, len(STATUS_ORDER)))
    return rows


@dataclass(frozen=True)
class Counts:
    """How many settings change, were not read (the file sets them) or are kept; and how
    many read-only checks and pieces of advice, which set no line."""

    change: int = 0
    unknown: int = 0
    keep: int = 0
    check: int = 0
    advice: int = 0

    @property
    def settings(self) -> int:
        return self.change + self.unknown + self.keep

    @property
    def pending(self) -> int:
        """The settings the files write on this server: changes and unread values."""
        return self.change + self.unknown

    @property
    def phrase(self) -> str:
        """The settings by status in words: '2 change, 5 not read, 0 keep of 7'."""
        return f"{self.change} change, {self.unknown} not read, {self.keep} keep of {self.settings}"


def tally(rows: Iterable[CurrentRow]) -> Counts:
    """The one count of a set of rows, by status (a check or advice by its kind), as the
    assessment's count columns count its result (rules.result_records.status_counts)."""
    found = count((*STATUS_ORDER, "advice"), (counted_as(r.status, r.kind) for r in rows))
    return Counts(**found)


def stored_counts(assessment: Assessment) -> Counts:
    """The assessment's counts as its columns hold them: no need to read its result."""
    return Counts(**{key: getattr(assessment, column) for key, column in STATUS_COLUMNS.items()})


def pending_rows(rows: Iterable[CurrentRow]) -> list[CurrentRow]:
    """The rows the "to set or change" filter shows: changes and unread values."""
    return [r for r in rows if r.status in PENDING]


def counts_by_target(rows: Iterable[CurrentRow]) -> dict[str, Counts]:
    by_target: dict[str, list[CurrentRow]] = {}
    for row in rows:
        by_target.setdefault(row.target, []).append(row)
    return {target: tally(found) for target, found in by_target.items()}


@dataclass(frozen=True)
class FileSummary:
    """One generated file's line in the summary: its counts and what it writes, or the
    file whose settings it applies."""

    name: str
    counts: Counts
    pending: list[CurrentRow]  # changes and unread values, in table order
    applies: str | None = None  # the file whose settings this one applies
    applied: Counts | None = None  # that file's counts


def file_summaries(result: ResultDocument) -> list[FileSummary]:
    """Per generated file, in the order the files are generated, its tally and its rows
    to set or change; a file that applies another's settings names that file instead."""
    rows = current_rows(result.recommendations)
    by_target = counts_by_target(rows)
    artifacts = result.artifacts
    out = []
    for name in artifacts:
        applies = APPLIES_SETTINGS_OF.get(name)
        if applies not in artifacts:
            applies = None
        counts = by_target.get(name, Counts())
        mine = pending_rows(r for r in rows if r.target == name)
        applied = by_target.get(applies, Counts()) if applies else None
        out.append(FileSummary(name, counts, mine, applies, applied))
    return out
