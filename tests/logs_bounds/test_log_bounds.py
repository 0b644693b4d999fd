"""A SAS log of any size is read in bounded memory and stored as a bounded analysis: every
step counted and summed, the longest steps and the largest findings of each kind kept,
the rest counted ("and 12,345 more"); below the bounds nothing changes. The pages, the API
and the report show the counts. The crafted release line of the hostile suite goes
through the log service like any log."""

from __future__ import annotations

import json
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.test import Client

from advisor.logs import services
from advisor.models import JobLog, Organisation
from rules.logs import analyse, analyse_lines, diagnose
from rules.logs.digest import MAX_FINDINGS_PER_RULE, MAX_TIMELINE, TOP_STEPS
from rules.parse.saslog import read_log
from tests.conftest import example
from tests.hostile.payloads import release_line_log
from tests.logs_bounds import biglog

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "parse" / "saslog"
LOG_BYTES = 60_000_000
PEAK_BYTES = 100 * 1024 * 1024
STORED_BYTES = 2 * 1024 * 1024
CHUNK = 64 * 1024  # what the API reads a body by
T = TypeVar("T")


def traced(call: Callable[[], T]) -> tuple[T, int]:
    """The call's result and the peak of the memory it allocated."""
    tracemalloc.start()
    try:
        return call(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            yield chunk


def stored_bytes(analysis: dict[str, Any]) -> int:
    return len(json.dumps(analysis).encode())


def counted(analysis: dict[str, Any]) -> Counter[str]:
    """Each rule's findings, the ones kept and the ones only counted."""
    found = Counter(f["rule"] for f in analysis["findings"])
    for row in analysis["findings_omitted"]:
        found[row["rule"]] += row["count"]
    return found


@pytest.mark.slow
def test_a_60_mb_log_is_read_in_bounded_memory_and_stored_bounded(
    org: Organisation, tmp_path: Path
) -> None:
    path = tmp_path / "night.log"
    expected = biglog.write(path, LOG_BYTES)
    row, peak = traced(
        lambda: services.log_create(
            organisation=org, user=None, name="night.log", chunks=chunks(path)
        )
    )
    stored = JobLog.objects.get(pk=row.pk)
    analysis = stored.analysis
    assert peak < PEAK_BYTES, f"{peak / 2**20:.0f} MiB"
    assert stored_bytes(analysis) < STORED_BYTES
    steps = sum(expected.values()) - expected["log.cpu_contention"]
    assert stored.step_count == analysis["step_count"] == steps
    assert counted(analysis) == expected
    assert stored.findings_count == analysis["findings_total"] == sum(expected.values())
    kept = Counter(f["rule"] for f in analysis["findings"])
    assert set(kept.values()) == {MAX_FINDINGS_PER_RULE}
    assert len(analysis["timeline"]) <= MAX_TIMELINE
    assert sum(bar["steps"] for bar in analysis["timeline"]) == steps
    last = analysis["timeline"][-1]
    assert last["start"] + last["real"] == pytest.approx(analysis["job_seconds"])


def test_the_fixtures_read_streaming_or_held_give_one_analysis() -> None:
    for path in sorted(LOGS.glob("*.log")):
        lines = [ln for ln in path.read_text().splitlines() if not ln.startswith("## ")]
        assert analyse_lines(lines, cpus=8) == analyse(read_log(lines), cpus=8), path.name
        assert analyse_lines(lines)["findings_omitted"] == []


def test_below_the_bounds_every_step_and_finding_is_kept() -> None:
    steps = len(biglog.KINDS) * MAX_FINDINGS_PER_RULE
    text, expected = biglog.text(steps)
    log = read_log(text)
    analysis = analyse(log, cpus=8)
    assert analysis["findings"] == [f._asdict() for f in diagnose(log.steps, 8)]
    assert Counter(f["rule"] for f in analysis["findings"]) == expected
    assert analysis["findings_omitted"] == [] and analysis["findings_total"] == sum(
        expected.values()
    )
    assert [bar["step"] for bar in analysis["timeline"]] == list(range(1, steps + 1))
    assert all("steps" not in bar for bar in analysis["timeline"])


def test_past_the_bounds_the_largest_findings_are_kept_and_the_rest_counted() -> None:
    text, expected = biglog.text(2_000)
    log = read_log(text)
    every = diagnose(log.steps, 8)
    analysis = analyse_lines(text.splitlines(), cpus=8)
    assert counted(analysis) == expected
    reals = {step.number: step.real or 0.0 for step in log.steps}
    for rule in expected:
        mine = sorted(
            (f for f in every if f.rule == rule),
            key=lambda f: (-f.saving, -reals[f.step], f.step),
        )
        kept = [f["step"] for f in analysis["findings"] if f["rule"] == rule]
        assert sorted(kept) == sorted(f.step for f in mine[:MAX_FINDINGS_PER_RULE])
        (omitted,) = [row for row in analysis["findings_omitted"] if row["rule"] == rule]
        rest = mine[MAX_FINDINGS_PER_RULE:]
        assert omitted["count"] == len(rest)
        assert omitted["saving_seconds"] == pytest.approx(sum(f.saving for f in rest))
    # the what-if counts every finding, kept or not
    io = sum(f.saving for f in every if f.rule in ("log.io_bound", "log.sort_spill"))
    assert analysis["what_if"]["io_striped_seconds"] == pytest.approx(io)
    top = sorted(log.steps, key=lambda step: -(step.real or 0.0))[:TOP_STEPS]
    assert [row["step"] for row in analysis["top_steps"]] == [step.number for step in top]
    assert {row["proc"]: row["steps"] for row in analysis["procedures"]} == {
        kind.proc: 2_000 // len(biglog.KINDS) for kind in biglog.KINDS
    }


def test_the_timeline_is_downsampled_whole() -> None:
    text, _ = biglog.text(MAX_TIMELINE * 4 + 7)
    analysis = analyse_lines(text.splitlines())
    bars = analysis["timeline"]
    assert MAX_TIMELINE // 2 <= len(bars) <= MAX_TIMELINE
    assert sum(bar.get("steps", 1) for bar in bars) == analysis["step_count"]
    clock = 0.0
    for bar in bars:
        assert bar["start"] == pytest.approx(clock)
        clock += bar["real"]
    assert clock == pytest.approx(analysis["job_seconds"])
    assert bars[0]["name"] == f"steps 1-{bars[0]['steps']}"


def hostile_log(steps: int) -> str:
    """Everything a log can make the analysis keep, as long as a line allows: a platform,
    procedure and data set names of 4,000 characters, each step a new procedure, long
    option values and unreadable figures."""
    long = "X" * 4000
    lines = [f"NOTE: This session is executing on the {long} platform.", "NOTE: SAS (r) 9.4"]
    for n in range(steps):
        lines += [
            f"{n + 1}  options memsize={long}{n} sortsize={long};",
            f"NOTE: The data set WORK.{long}{n} has 1 observations and 1 variables.",
            f"NOTE: There were 1 observations read from the data set WORK.{long}{n}.",
            f"NOTE: PROCEDURE P{n}{long} used (Total process time):",
            f"      real time           {40 + n % 50}.00 seconds",
            "      user cpu time       1.00 seconds",
            f"      memory              {long}k",
            "",
        ]
    return "\n".join(lines)


def test_a_log_shaped_to_fill_the_analysis_stays_under_its_bound() -> None:
    analysis = analyse_lines(hostile_log(3_000).splitlines())
    assert analysis["step_count"] == 3_000
    assert stored_bytes(analysis) < STORED_BYTES / 4
    assert len(analysis["top_steps"][0]["name"]) == len("PROC ") + 32
    assert len(analysis["procedures"]) <= 20 and len(analysis["problems"]) <= 50
    assert analysis["findings_total"] > len(analysis["findings"])


def test_figures_past_any_sas_prints_are_problems_and_the_log_is_stored(
    org: Organisation,
) -> None:
    text = (
        "NOTE: PROCEDURE SORT used (Total process time):\n"
        "      real time           1e999 seconds\n"
        "      user cpu time       99999999999.00 seconds\n"
        f"      Page Faults                       {'9' * 4000}\n"
    )
    row = services.log_create(organisation=org, user=None, name="x.log", chunks=[text.encode()])
    stored = JobLog.objects.get(pk=row.pk)
    problems = [p["message"] for p in stored.analysis["problems"]]
    assert [p.split(" ")[0] for p in problems] == ["real", "user", "page"]
    assert stored.job_seconds == 0.0


def test_the_crafted_release_line_goes_through_the_log_service(org: Organisation) -> None:
    # tests/hostile's 4 MB unclosed "(TS1M000…" release notes, wrapped over indented lines
    payload = release_line_log()
    row, peak = traced(
        lambda: services.log_create(
            organisation=org, user=None, name="release.log", chunks=[payload]
        )
    )
    assert row.sas_version == "9.4" and row.step_count == 0
    assert row.analysis["header"]["release"] == "9.4"
    assert row.analysis["header"]["version"] == "9.4"  # the build never closed: not read
    assert "no step timing found" in row.analysis["problems"][-1]["message"]
    assert peak < PEAK_BYTES


def test_the_pages_and_the_report_say_what_is_not_shown(client_in: Client, user: Any) -> None:
    from advisor.assessments.services import assessment_create
    from advisor.reports.services import render_report_html

    assessment, _ = assessment_create(
        user=user, document=example("lemans-aix53-etl"), idempotency_key=None
    )
    text, expected = biglog.text(1_000)
    response = client_in.post("/logs/", {"text": text, "assessment": assessment.pk})
    assert response.status_code == 302
    row = JobLog.objects.get()
    page = client_in.get(response["Location"]).content.decode()
    assert f"{1_000 - TOP_STEPS} more steps not shown." in page
    io_rest = expected["log.io_bound"] - MAX_FINDINGS_PER_RULE
    assert f"… and {io_rest} more steps that waited on I/O" in page
    assert "Time by procedure" in page and "steps 1-" in page
    listed = client_in.get("/logs/").content.decode()
    assert row.analysis["job"] in listed and str(sum(expected.values())) in listed
    api = client_in.get(f"/api/v1/logs/{row.pk}/").json()
    assert api["findings_count"] == sum(expected.values())
    assert api["analysis"]["findings_omitted"][0]["count"] > 0
    html = render_report_html(assessment)
    assert f"{sum(expected.values()) - 5} more findings not shown" in html
