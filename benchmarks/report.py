"""Benchmark: build the consultant report (HTML + PDF) for a 20-LUN and a 512-entry inventory.

Targets, per report (the median of the runs): the 20-LUN report ≤ 5 s on the CI machine; a
report for 512 storage entries (the contract's maximum: a SAS grid node or a big AIX LPAR)
≤ 20 s on a 2-CPU machine, well inside the worker's 60 s soft time limit. Two 512-entry
inventories are built: the engine benchmark's (the SPD Server example grown over every
role) and the lemans example grown to 256 WORK and 256 data LUNs that share adapters, whose
long values (the direct I/O mounts, UTILLOC's list) once made one table cell take 30 s.
A fixed reference loop is timed in the same run, so a slow or busy machine shows as such;
CPU time is printed beside the wall time for the same reason.

Runs without a database: each assessment is built in memory exactly as `assessment_create`
would store it.

    uv run python benchmarks/report.py [--runs 5] [--big-runs 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

from engine import big_inventory, measure, reference_loop  # noqa: E402

import rules  # noqa: E402
from advisor.assessments.services import assessment_from_result  # noqa: E402
from advisor.models import Assessment, Organisation  # noqa: E402
from advisor.reports.pdf import html_to_pdf  # noqa: E402
from advisor.reports.services import render_report_html  # noqa: E402
from tests.conftest import example  # noqa: E402
from tests.reports.conftest import many_luns, twenty_luns  # noqa: E402

TARGET_S = 5.0  # the acceptance: a 20-LUN report builds in ≤ 5 s
BIG_TARGET_S = 20.0  # a 512-entry report on a 2-CPU machine (the worker's soft limit: 60 s)
BIG = 512


def assessment_of(document: dict[str, Any]) -> Assessment:
    result = rules.advise_inventory(rules.inventory_from(document))
    return assessment_from_result(result, organisation=Organisation(name="Benchmark Org"))


def cases() -> list[tuple[str, Assessment, float]]:
    """(what, assessment, target in seconds) of each report measured."""
    return [
        ("20-LUN report", assessment_of(twenty_luns(example("prime-spds-aix"))), TARGET_S),
        (f"{BIG} entries, every role", assessment_of(big_inventory()), BIG_TARGET_S),
        (
            f"{BIG} entries, WORK and data sharing adapters",
            assessment_of(many_luns(example("lemans-aix53-etl"), BIG)),
            BIG_TARGET_S,
        ),
    ]


def build_once(assessment: Assessment) -> tuple[float, float, int, float]:
    """(HTML seconds, PDF seconds, PDF bytes, CPU seconds) for one build."""
    cpu = time.process_time()
    start = time.perf_counter()
    html = render_report_html(assessment)
    rendered = time.perf_counter()
    pdf = html_to_pdf(html)
    done = time.perf_counter()
    return rendered - start, done - rendered, len(pdf), time.process_time() - cpu


def report(what: str, assessment: Assessment, target: float, runs: int) -> bool:
    """Print one case's figures beside its target; True when its median meets it."""
    timings = [build_once(assessment) for _ in range(runs)]
    totals = [t[0] + t[1] for t in timings]
    median = statistics.median(totals)
    print(f"{what} ({len(assessment.inventory['storage'])} storage entries), {runs} runs")
    print(f"  HTML render  median {statistics.median(t[0] for t in timings):.3f} s")
    print(f"  PDF (WeasyPrint) median {statistics.median(t[1] for t in timings):.3f} s")
    print(f"  total        median {median:.3f} s, max {max(totals):.3f} s")
    # CPU time is what the build costs whatever else runs on the machine.
    print(f"  CPU time     median {statistics.median(t[3] for t in timings):.3f} s")
    print(f"  PDF size     {timings[-1][2] / 1024:.0f} KiB")
    # The median judges: on a shared machine a single slow run says more about neighbours.
    verdict = "PASS" if median <= target else "FAIL"
    print(f"  {verdict}: median build {median:.2f} s, target {target:.0f} s")
    return median <= target


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs of the 20-LUN report")
    parser.add_argument("--big-runs", type=int, default=3, help="runs of each 512-entry one")
    args = parser.parse_args()
    measured = cases()
    build_once(measured[0][1])  # warm-up: imports, template and font caches
    before = statistics.median(measure(reference_loop, 300))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    passed = [
        report(what, assessment, target, args.runs if target == TARGET_S else args.big_runs)
        for what, assessment, target in measured
    ]
    after = statistics.median(measure(reference_loop, 300))
    print(
        f"reference loop (10,000 additions): {before * 1e3:.3f} ms before the builds, "
        f"{after * 1e3:.3f} ms after"
    )
    print(f"load average {load:.2f} to {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print(f"{'PASS' if all(passed) else 'FAIL'}: every report within its target")
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
