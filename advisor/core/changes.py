"""What changed between two results, setting by setting: for a re-evaluation on newer
rules, and for a fleet's drift against its previous run; and the generated files' lines
that differ (the compare page's inputs: rules.compare_inventories).

The line diff leaves comments out: every generated setting is preceded by a comment with
its rule id and reason, and the header echoes the inputs and the rules version, so a new
rules version rewords dozens of comments without changing what the server runs. Lines
that differ only in a comment (`#`, `/* … */`) are not changes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from typing import Any

from rules.result_records import ResultDocument, ResultRecommendation

Key = tuple[str, str]


def _index(result: ResultDocument) -> dict[Key, ResultRecommendation]:
    return {(rec.target, rec.setting): rec for rec in result.recommendations if rec.kind != "check"}


def setting_changes(old: ResultDocument, new: ResultDocument) -> list[dict[str, Any]]:
    """Every setting whose value the new result changes, adds or drops, with the new
    rule's reason (or the old one's, for a setting no longer recommended)."""
    before, after = _index(old), _index(new)
    rows = []
    for key in sorted(set(before) | set(after)):
        was, now = before.get(key), after.get(key)
        if was is not None and now is not None and was.value == now.value:
            continue
        given = now if now is not None else was
        assert given is not None  # the key is on one side at least
        change = "removed" if now is None else ("added" if was is None else "changed")
        rows.append({
            "target": key[0], "setting": key[1], "change": change,
            "old": None if was is None else was.value, "new": None if now is None else now.value,
            "why": f"no longer recommended (was: {given.rationale})" if now is None
            else given.rationale,
            "rule": given.rule, "sources": list(given.sources),
        })  # fmt: skip
    return rows


def settings_drift(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """(setting, old, new) for two hosts' recommended SAS configurations."""
    return [
        (name, old.get(name), new.get(name))
        for name in sorted(set(old) | set(new))
        if old.get(name) != new.get(name)
    ]


# A trailing comment: "/* … */" at the end, or "#" after white space with no quote after
# it (a "#" inside a quoted shell or YAML string is text, not a comment).
_TRAILING = re.compile(r"\s*/\*.*\*/\s*$|\s+#[^\"']*$")
CONTEXT_LINES = 3


def code_of(line: str) -> str:
    """The line without its comment; "" for a line that is only a comment."""
    stripped = line.strip()
    if stripped.startswith(("#", "/*")) and not stripped.startswith("#!"):
        return ""
    return _TRAILING.sub("", line).rstrip()


def _code_lines(text: str) -> tuple[list[int], list[str], list[str]]:
    """The lines that hold code: their numbers, the lines, the lines without comments."""
    found = [(n, ln, code_of(ln)) for n, ln in enumerate(text.splitlines(), 1)]
    kept = [row for row in found if row[2]]
    return [n for n, _, _ in kept], [ln for _, ln, _ in kept], [c for _, _, c in kept]


Side = tuple[list[int], list[str]]  # a file's code lines: numbers and text


def _hunk(old: Side, new: Side, ops: list[tuple[str, int, int, int, int]]) -> list[str]:
    """One hunk; its header gives the file's own line numbers, comments being left out."""
    _, i1, _, j1, _ = ops[0]
    at_old = old[0][i1] if i1 < len(old[0]) else len(old[0])
    at_new = new[0][j1] if j1 < len(new[0]) else len(new[0])
    out = [f"@@ line {at_old} → line {at_new} @@"]
    for tag, a1, a2, b1, b2 in ops:
        if tag == "equal":
            out += [" " + ln for ln in new[1][b1:b2]]
            continue
        out += ["-" + ln for ln in old[1][a1:a2]] + ["+" + ln for ln in new[1][b1:b2]]
    return out


def line_diff(name: str, before: str, after: str) -> dict[str, Any]:
    """A unified diff of one file's code lines: comment-only churn is no change."""
    old_at, old, old_code = _code_lines(before)
    new_at, new, new_code = _code_lines(after)
    matcher = difflib.SequenceMatcher(None, old_code, new_code, autojunk=False)
    lines: list[str] = []
    for ops in matcher.get_grouped_opcodes(CONTEXT_LINES):
        lines += _hunk((old_at, old), (new_at, new), ops)
    if lines:
        lines = [f"--- a/{name}", f"+++ b/{name}", *lines]
    changed = sum(1 for ln in lines[2:] if ln[:1] in "+-")
    return {"name": name, "lines": lines, "changed": changed}


def file_diffs(before: Mapping[str, str], after: Mapping[str, str]) -> list[dict[str, Any]]:
    """The line diff of every generated file, including files only one side has."""
    return [
        line_diff(name, before.get(name, ""), after.get(name, ""))
        for name in sorted(set(before) | set(after))
    ]
