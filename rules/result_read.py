"""A stored result of any version read into the declared records (`rules.result_records`).

The one place older shapes are upgraded. Version 1 is every result stored before results
said their version; the golden files' history (tests/fixtures/stored_results/) shows its
shapes:

- rules 2026.11.0: no `not_applicable`, no `measured_gain_pct` (the run-time cut is read
  from `GAINS_2026_11_0`, the figures those rules' effect texts gave), no `current` or
  `status`;
- 2026.11.1 to 2026.11.3: `measured_gain_pct` and `not_applicable`, still no `current` or
  `status`;
- 2026.11.4 on: every field of version 2 but `result_version`.

A result without `current` read nothing from the server: each of its settings is
`unknown` (a check or advice `check`), never a guessed change. Any other field a document
leaves out is read as its declared default. The records come back stamped with the
current RESULT_VERSION (they are in its shape); `stored_version` says what the document
was. A document that is no result is a `ResultError` naming the path of each problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.problems import Problem
from rules.result_fields import BAD, from_document
from rules.result_records import ResultDocument
from rules.version import RESULT_VERSION

# The run-time cut (%) the effect text of each rules 2026.11.0 recommendation reported,
# by (rule, setting): pohl2007 Table 3 (87.2 % of the 1-CPU time), bartucca2005 runs 3, 4
# and final (−25.8 %, −12.8 %, −7.2 %), xu Table 2 (solid state up to 2.8× faster).
GAINS_2026_11_0: dict[tuple[str, str], float] = {
    ("cpu.threads", "THREADS"): 12.8,
    ("cpu.cpucount_cap", "CPUCOUNT"): 12.8,
    ("io.bufsize", "BUFSIZE"): 25.8,
    ("io.utility_pagesize", "PROC SORT PAGESIZE"): 12.8,
    ("io.bufno", "BUFNO"): 7.2,
    ("work.placement", "WORK"): 64.3,
}


class ResultError(ValueError):
    """A document that is not a stored result; `problems` names each by JSON path."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def stored_version(document: Mapping[str, Any]) -> int:
    """The result_version a document says, 1 where it says none."""
    version = document.get("result_version")
    return version if isinstance(version, int) and not isinstance(version, bool) else 1


def read_result(document: Any) -> ResultDocument:
    """The records a stored result (or a recommendations.json) of any version holds."""
    if not isinstance(document, Mapping):
        raise ResultError([Problem("$", 'must be a result: an object with "recommendations"')])
    found = document.get("recommendations")
    if not isinstance(found, list):
        what = "is missing" if found is None else "must be a list"
        raise ResultError([Problem("recommendations", f"{what}: not a recommendations.json")])
    problems = _version_problems(document)
    document = upgraded(document, stored_version(document))
    read = from_document(ResultDocument, document, "", problems)
    if not problems:
        problems = _named_problems(read.recommendations)
    if problems or read is BAD:
        raise ResultError(problems)
    result: ResultDocument = read._replace(result_version=RESULT_VERSION)
    return result


def _version_problems(document: Mapping[str, Any]) -> list[Problem]:
    version = document.get("result_version")
    if version is None:
        return []
    if not isinstance(version, int) or isinstance(version, bool):
        return [Problem("result_version", "must be an integer")]
    if not 1 <= version <= RESULT_VERSION:
        return [Problem("result_version", f"must be between 1 and {RESULT_VERSION}: these "
                                          "rules read no other shape")]  # fmt: skip
    return []


def _named_problems(recs: Any) -> list[Problem]:
    """A recommendation names the file it went to and its setting."""
    return [
        Problem(f"recommendations[{i}].{key}", "is missing")
        for i, rec in enumerate(recs)
        for key in ("target", "setting")
        if not getattr(rec, key)
    ]


def upgraded(document: Mapping[str, Any], version: int) -> dict[str, Any]:
    """The result in the current shape (a copy: the stored one is left alone)."""
    recs = document["recommendations"]
    return {**document, "recommendations": [_rec(r, version) for r in recs]}


def _rec(rec: Any, version: int) -> Any:
    if not isinstance(rec, Mapping):
        return rec  # the reader names the problem
    out = dict(rec)
    if version == 1 and "measured_gain_pct" not in out:
        key = (str(out.get("rule")), str(out.get("setting")))
        out["measured_gain_pct"] = GAINS_2026_11_0.get(key)
    if "status" not in out:
        out["status"] = unread_status(out.get("kind", "change"))
    return out


def unread_status(kind: Any) -> str:
    """The status of a recommendation whose value nothing read: unknown for a change, check
    for a check or advice."""
    return "unknown" if kind == "change" else "check"
