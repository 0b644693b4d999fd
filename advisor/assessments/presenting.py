"""Shape a contract result (the dict stored on an assessment) for the pages.

Recommendations are grouped by the file they land in, in the order the files are
generated; advice with no file line ("program", "system") follows. Every source id is
resolved to the paper's title so a reader sees *why* next to *what*. Each recommendation's
`current` and `status` (`rules.compare`) make the current → recommended table; a draft read
from the server (`rules.parse.draft`) becomes marks on the inventory form's inputs; a
verification (`rules.verify`) becomes the compliance table, non-compliant rows first.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.sources import SOURCES
from rules.verify import Verification

GROUP_TITLES = {
    "program": "SAS programs and LIBNAME statements",
    "system": "The machine (outside the generated files)",
}
SEVERITY_ORDER = {"high": 0, "medium": 1, "low": 2}


def cite(source_ids: list[str]) -> list[dict[str, str]]:
    out = []
    for sid in source_ids:
        src = SOURCES.get(sid)
        if src is None:
            out.append({"id": sid, "title": sid, "citation": sid})
        else:
            out.append({"id": sid, "title": src.title, "citation": src.citation})
    return out


@dataclass
class Group:
    name: str
    title: str
    text: str | None  # the file's text; None for advice that is not a file
    settings: list[dict[str, Any]] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return "".join(c if c.isalnum() else "-" for c in self.name)


def _setting(rec: Mapping[str, Any]) -> dict[str, Any]:
    return {**rec, "cited": cite(list(rec.get("sources", [])))}


def groups(result: Mapping[str, Any]) -> list[Group]:
    """Files first (each with its settings), then advice groups, in a stable order."""
    artifacts: Mapping[str, str] = result.get("artifacts", {})
    by_name: dict[str, Group] = {name: Group(name, name, text) for name, text in artifacts.items()}
    for rec in result.get("recommendations", []):
        target = rec.get("target", "system")
        if target not in by_name:
            by_name[target] = Group(target, GROUP_TITLES.get(target, target), None)
        by_name[target].settings.append(_setting(rec))
    files = [g for g in by_name.values() if g.text is not None]
    advice = [g for g in by_name.values() if g.text is None]
    return files + advice


def warnings(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Warnings, most severe first, each with its sources resolved."""
    items = [{**w, "cited": cite(list(w.get("sources", [])))} for w in result.get("warnings", [])]
    return sorted(items, key=lambda w: SEVERITY_ORDER.get(w.get("severity", "medium"), 1))


def _flatten(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key in sorted(value):
            yield from _flatten(value[key], f"{path}.{key}" if path else key)
    elif isinstance(value, list) and value and any(isinstance(v, dict) for v in value):
        for i, item in enumerate(value):
            yield from _flatten(item, f"{path}[{i}]")
    else:
        yield path, json.dumps(value)


def input_changes(before: Any, after: Any) -> list[dict[str, str]]:
    """Every inventory field whose value differs: path, old value, new value."""
    old, new = dict(_flatten(before)), dict(_flatten(after))
    paths = sorted(set(old) | set(new))
    return [
        {"path": p, "old": old.get(p, "—"), "new": new.get(p, "—")}
        for p in paths
        if old.get(p) != new.get(p)
    ]


def file_diffs(before: Mapping[str, str], after: Mapping[str, str]) -> list[dict[str, Any]]:
    """A unified diff of every generated file, including files only one side has."""
    out = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, ""), after.get(name, "")
        lines = list(
            difflib.unified_diff(
                old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", lineterm=""
            )
        )
        changed = sum(1 for ln in lines if ln[:1] in "+-" and not ln.startswith(("+++", "---")))
        out.append({"name": name, "lines": lines, "changed": changed})
    return out


# Current → recommended -----------------------------------------------------------------

STATUS_ORDER = {"change": 0, "keep": 1, "check": 2}
CHECK_PREFIX = "check:"  # a check's setting names the command; its value is the command line


@dataclass(frozen=True)
class CurrentRow:
    """One line of the current → recommended table."""

    rule: str
    target: str
    setting: str
    recommended: str
    current: str | None  # None: not read from the server
    status: str  # change | keep | check


def shown_setting(setting: str, value: str) -> tuple[str, str]:
    """(setting, recommended) as a reader sees them: a check is its command, a flag is on."""
    if setting.startswith(CHECK_PREFIX):
        return value, "—"
    return setting, value if value != "" else "(on)"


def _status(rec: Mapping[str, Any]) -> str:
    # Results stored before the comparison existed: every change is one, nothing was read.
    return str(rec.get("status") or ("change" if rec.get("kind") == "change" else "check"))


def current_rows(result: Mapping[str, Any], *, changes_first: bool = False) -> list[CurrentRow]:
    """Every recommendation with what the server runs now; changes first when asked."""
    rows = []
    for rec in result.get("recommendations", []):
        setting, recommended = shown_setting(str(rec["setting"]), str(rec.get("value", "")))
        current = rec.get("current")
        rows.append(CurrentRow(
            rec["rule"], rec.get("target", "system"), setting, recommended,
            None if current is None else str(current), _status(rec),
        ))  # fmt: skip
    if changes_first:
        rows.sort(key=lambda r: STATUS_ORDER.get(r.status, 3))
    return rows


@dataclass(frozen=True)
class FileChanges:
    """The lines of one generated file that will change on this server."""

    name: str
    changes: list[CurrentRow]
    settings: int  # the file's lines that set something


def pending_changes(result: Mapping[str, Any]) -> list[FileChanges]:
    """Per generated file, its settings whose current value differs from the recommendation."""
    rows = current_rows(result)
    out = []
    for name in result.get("artifacts", {}):
        setting = [r for r in rows if r.target == name and r.status != "check"]
        out.append(FileChanges(name, [r for r in setting if r.status == "change"], len(setting)))
    return out


def status_counts(rows: list[CurrentRow]) -> dict[str, int]:
    counts = dict.fromkeys(STATUS_ORDER, 0)
    for row in rows:
        counts[row.status] = counts.get(row.status, 0) + 1
    return counts


# Verify: a saved assessment against a newer reading -----------------------------------

COMPLIANCE_ORDER = {False: 0, True: 1, None: 2}


def verify_rows(verification: Verification) -> list[dict[str, Any]]:
    """The rows, non-compliant first, each setting shown as the current table shows it."""
    out = []
    for row in sorted(verification.rows, key=lambda r: COMPLIANCE_ORDER[r.compliant]):
        setting, recommended = shown_setting(row.setting, row.recommended)
        out.append({**row.to_dict(), "setting": setting, "recommended": recommended})
    return out
