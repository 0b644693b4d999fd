"""`python -m rules verify --json` gives measured throughput before → after in `measured`,
as the API does: the recommendations.json's inventory is before, the bundle (a real
collector bundle measured here) after, matched by mount point."""

from __future__ import annotations

import json
from pathlib import Path

import rules
from tests.test_cli_verify import run, written
from tests.web.measured_bundle import measured_bundle, measured_document, remeasured

BEFORE_MB_S = 3200.0


def test_json_carries_the_measured_comparison(tmp_path: Path) -> None:
    text = measured_bundle(tmp_path)
    document = measured_document(text)
    entry = remeasured(document, measured_mb_s=BEFORE_MB_S, measured_by="dd")
    advice = written(tmp_path, json.dumps(rules.advise(document)), "recommendations.json")

    done = run(advice, written(tmp_path, text), "--json")

    assert done.returncode in (0, 1), done.stderr
    found = json.loads(done.stdout)
    records = [r for r in found["measured"] if r["mount"] == entry["mount"]]
    lower = next(r for r in records if r["direction"] == "lower")
    assert lower["before"]["mb_s"] == BEFORE_MB_S
    assert lower["before"]["per_core"] == round(BEFORE_MB_S / lower["cores"], 1)
    assert lower["before"]["words"] == lower["before"]["verdict"]
    assert {r["direction"] for r in records} >= {"read", "write"}
    assert all(r["after_tool"] == "dd" for r in records if r["after"])


def test_the_table_ends_with_the_measured_comparison(tmp_path: Path) -> None:
    text = measured_bundle(tmp_path)
    document = measured_document(text)
    entry = remeasured(document, measured_mb_s=BEFORE_MB_S, measured_by="dd")
    advice = written(tmp_path, json.dumps(rules.advise(document)), "recommendations.json")

    done = run(advice, written(tmp_path, text))

    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    start = lines.index("measured throughput, MB/s per core in use (all streams), before -> after:")
    mine = [line for line in lines[start + 1 :] if line.startswith(f"  {entry['mount']} ")]
    lower = next(line for line in mine if " lower: " in line)
    assert f"({BEFORE_MB_S:g} MB/s)" in lower.split(" -> ")[0]
    assert {line.split(":")[0].split()[-1] for line in mine} >= {"read", "write"}
