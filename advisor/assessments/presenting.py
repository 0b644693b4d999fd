"""Shape a contract result (the dict stored on an assessment) for the pages.

Recommendations are grouped by the file they land in, in the order the files are
generated; advice with no file line ("program", "system") follows. Every source id is
resolved to the paper's title so a reader sees *why* next to *what*.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.sources import SOURCES

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
