"""The fleet by finding: each warning and each setting to change, with its severity and the
servers it affects ("42 servers: THP enabled"), as Red Hat Insights shows an estate.

Read from every server's stored result once, when the fleet is done (services.fleet_finish
through presenting.compute_summary), and kept in its summary: the page and the CSV read
that row, never the results. A finding's servers are kept as ranges of positions
("0-3,8"), which an estate of look-alike servers keeps short.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.db.models import F

from advisor.core.results import result_of
from advisor.core.words import setting_name
from advisor.models import Assessment, Fleet
from rules.catalog import BY_ID
from rules.result_records import ResultDocument

SEVERITY_RANK = {"high": 0, "medium": 1, "low": 2, "setting": 3}
SORTS = ("count", "severity", "finding")
CHUNK = 200  # results read at a time


def compute(fleet: Fleet) -> list[dict[str, Any]]:
    """Every finding of the fleet's advised servers, most servers first."""
    found: dict[str, dict[str, Any]] = {}
    positions: dict[str, list[int]] = {}
    rows = (
        Assessment.objects.filter(fleet_item__fleet_id=fleet.pk)
        .only("pk", "result_json", "result_version")
        .annotate(position=F("fleet_item__position"))
        .order_by("fleet_item__position")
    )
    varies: set[str] = set()
    for assessment in rows.iterator(chunk_size=CHUNK):
        for key, finding in _of(result_of(assessment)):
            first = found.setdefault(key, finding)
            if (first["title"], first["action"]) != (finding["title"], finding["action"]):
                varies.add(key)
            positions.setdefault(key, []).append(assessment.position)
    out = []
    for key, finding in found.items():
        where = positions[key]
        said = _general(finding) if key in varies else finding
        out.append(said | {"key": key, "count": len(where), "positions": ranges(where)})
    return ordered(out, "count")


def _general(finding: dict[str, Any]) -> dict[str, Any]:
    """A warning whose words differ from server to server (each its own figures): named
    by its rule's title, the first server's words kept as an example, never as the
    group's figures."""
    rule = BY_ID.get(finding["rule"])
    title = rule.title if rule is not None else finding["title"]
    return finding | {
        "title": f"{title} (the figures differ by server)",
        "action": f"On the first of them: {finding['title']}",
    }


def _of(result: ResultDocument) -> Iterator[tuple[str, dict[str, Any]]]:
    """One server's findings by key: each warning's rule once (its most severe), each
    setting its files change."""
    warned: dict[str, dict[str, Any]] = {}
    for w in result.warnings:
        seen = warned.get(w.rule)
        if seen is None or SEVERITY_RANK[w.severity] < SEVERITY_RANK[seen["severity"]]:
            warned[w.rule] = {"kind": "warning", "severity": w.severity, "title": w.message,
                              "action": w.action, "rule": w.rule}  # fmt: skip
    yield from ((f"w:{rule}", finding) for rule, finding in warned.items())
    for rec in result.recommendations:
        if rec.kind == "change" and rec.status != "keep":
            title = f"Set {setting_name(rec.setting)} in {rec.target}"
            yield f"s:{rec.target}:{rec.setting}", {
                "kind": "setting", "severity": "setting", "title": title, "action": "",
                "rule": rec.rule,
            }  # fmt: skip


def ordered(findings: Iterable[dict[str, Any]], sort: str) -> list[dict[str, Any]]:
    """By servers affected (most first), by severity (most severe first) or by name."""
    if sort == "severity":
        return sorted(findings, key=lambda f: (SEVERITY_RANK[f["severity"]], -f["count"],
                                               f["title"]))  # fmt: skip
    if sort == "finding":
        return sorted(findings, key=lambda f: (f["title"].casefold(), f["key"]))
    return sorted(findings, key=lambda f: (-f["count"], SEVERITY_RANK[f["severity"]], f["key"]))


def ranges(positions: Iterable[int]) -> str:
    """[0, 1, 2, 3, 8] -> '0-3,8'."""
    parts: list[str] = []
    start = end = None
    for n in sorted(set(positions)):
        if end is not None and n == end + 1:
            end = n
            continue
        if start is not None:
            parts.append(str(start) if start == end else f"{start}-{end}")
        start = end = n
    if start is not None:
        parts.append(str(start) if start == end else f"{start}-{end}")
    return ",".join(parts)


def expand(text: str, limit: int) -> list[int]:
    """'0-3,8' -> [0, 1, 2, 3, 8], at most `limit` of them (a stored summary is trusted, but
    a fleet's size bounds what it can hold)."""
    out: list[int] = []
    for part in filter(None, text.split(",")):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
        if len(out) >= limit:
            return out[:limit]
    return out
