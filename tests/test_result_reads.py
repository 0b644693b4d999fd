"""advisor/ reads a stored result only through its one reader (advisor/core/results.py),
as the contract's records: no module reaches into the stored text or the result's JSON by
its keys, so no module keeps fallbacks of its own for an older shape."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ADVISOR = ROOT / "advisor"
READER = ADVISOR / "core" / "results.py"
# The model's own definition of the row (result_json, the `result` property it serves the
# API with) and the migrations that count what was stored.
ALLOWED = {ADVISOR / "models.py"}
# What reads a result: the model's stored text or JSON, or a key of the result document.
KEYS = (
    "recommendations|warnings|skipped|not_applicable|artifacts|result_version|measured_gain_pct"
    "|extra"
)
READS = re.compile(
    r"\.result\b(?!_)"  # Assessment.result, the JSON data
    r"|\.result_json\b"  # the stored text
    rf"|\[\"({KEYS})\"\]"  # result["recommendations"], rec["extra"]
    rf"|\.get\(\"({KEYS})\""  # result.get("artifacts", {})
)


def result_reads() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(ADVISOR.rglob("*.py")):
        if path == READER or path in ALLOWED or "migrations" in path.parts:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if READS.search(line.split("#", 1)[0]):
                found.setdefault(str(path.relative_to(ROOT)), []).append(f"{number}: {line}")
    return found


def test_advisor_reads_results_only_through_the_reader() -> None:
    assert result_reads() == {}, "read results through advisor/core/results.py"


def test_the_check_finds_what_it_looks_for() -> None:
    for line in ('x = assessment.result["warnings"]', "t = a.result_json",
                 'rec.get("extra") or {}', 'w["severity"] and result["artifacts"]'):  # fmt: skip
        assert READS.search(line), line
    for line in ("results.result_of(a).warnings", 'defer("result_json")', "row.result_version"):
        assert not READS.search(line), line
