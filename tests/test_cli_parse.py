"""`python -m rules parse`: a bundle or transcript in, the draft (or, with --workload, the
validated inventory) out as JSON; exit 2 with the reason for input it cannot take."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.rules.parse.fixtures import DEBIAN12, transcript

TRANSCRIPT = transcript(*DEBIAN12)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", "parse", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip


def test_a_transcript_prints_the_draft(tmp_path: Path) -> None:
    done = run("-", stdin=TRANSCRIPT)
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert body["inventory"]["server"]["os"] == "linux"
    assert body["provenance"]["server.os"]["command"] == "uname -a"
    assert "workload" in [m["path"] for m in body["missing"]]


def test_with_a_workload_it_prints_a_valid_inventory(tmp_path: Path) -> None:
    bundle, workload = tmp_path / "bundle.txt", tmp_path / "workload.json"
    bundle.write_text(TRANSCRIPT, encoding="utf-8")
    workload.write_text(json.dumps({"workload": {
        "concurrent_sessions": 8, "mix": {"etl": 1}, "largest_table_gb": 50,
        "total_data_gb": 500}}), encoding="utf-8")  # fmt: skip
    done = run(str(bundle), "--workload", str(workload))
    assert done.returncode == 0, done.stderr
    inventory = json.loads(done.stdout)
    assert inventory["workload"]["concurrent_sessions"] == 8
    assert inventory["schema_version"] == 1


def test_a_bad_workload_exits_2_naming_the_field(tmp_path: Path) -> None:
    workload = tmp_path / "workload.json"
    workload.write_text('{"concurrent_sessions": 0}', encoding="utf-8")
    done = run("-", "--workload", str(workload), stdin=TRANSCRIPT)
    assert done.returncode == 2
    assert "workload.concurrent_sessions" in done.stderr
    assert done.stdout == ""


def test_garbled_sections_are_reported_by_line_and_a_missing_file_exits_2() -> None:
    done = run("-", stdin="$ cat /opt/sas/9.4/sasv9_local.cfg\n-MEMSIZE 2G\n%%% junk\n")
    assert done.returncode == 0
    assert done.stderr.startswith("line 3: cat /opt/sas/9.4/sasv9_local.cfg:")
    missing = run("/nonexistent/bundle.txt")
    assert missing.returncode == 2 and "bundle.txt" in missing.stderr
