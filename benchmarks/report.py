"""Benchmark: build the consultant report (HTML + PDF) for a 20-LUN inventory.

Target: ≤ 5 s per report on the CI machine. Runs without a database: the assessment is
built in memory exactly as `assessment_create` would store it.

    uv run python benchmarks/report.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")

import django  # noqa: E402

django.setup()

import rules  # noqa: E402
from advisor.assessments.services import assessment_from_result  # noqa: E402
from advisor.models import Assessment, Organisation  # noqa: E402
from advisor.reports.pdf import html_to_pdf  # noqa: E402
from advisor.reports.services import render_report_html  # noqa: E402
from tests.conftest import example  # noqa: E402
from tests.reports.conftest import twenty_luns  # noqa: E402

TARGET_S = 5.0  # the acceptance: a 20-LUN report builds in ≤ 5 s


def twenty_lun_assessment() -> Assessment:
    document = twenty_luns(example("prime-spds-aix"))
    result = rules.advise_inventory(rules.parse(document))
    return assessment_from_result(result, organisation=Organisation(name="Benchmark Org"))


def build_once(assessment: Assessment) -> tuple[float, float, int, float]:
    """(HTML seconds, PDF seconds, PDF bytes, CPU seconds) for one build."""
    cpu = time.process_time()
    start = time.perf_counter()
    html = render_report_html(assessment)
    rendered = time.perf_counter()
    pdf = html_to_pdf(html)
    done = time.perf_counter()
    return rendered - start, done - rendered, len(pdf), time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    assessment = twenty_lun_assessment()
    build_once(assessment)  # warm-up: imports, template and font caches
    timings = [build_once(assessment) for _ in range(runs)]
    totals = [t[0] + t[1] for t in timings]
    print(f"20-LUN report ({len(assessment.inventory['storage'])} storage entries), {runs} runs")
    print(f"  HTML render  median {statistics.median(t[0] for t in timings):.3f} s")
    print(f"  PDF (WeasyPrint) median {statistics.median(t[1] for t in timings):.3f} s")
    print(f"  total        median {statistics.median(totals):.3f} s, max {max(totals):.3f} s")
    # CPU time is what the build costs whatever else runs on the machine.
    print(f"  CPU time     median {statistics.median(t[3] for t in timings):.3f} s")
    print(f"  PDF size     {timings[-1][2] / 1024:.0f} KiB")
    # The median judges: on a shared machine a single slow run says more about neighbours.
    verdict = "PASS" if statistics.median(totals) <= TARGET_S else "FAIL"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"  load average {load:.2f} on {os.cpu_count()} CPUs while measuring")
    print(f"{verdict}: median build {statistics.median(totals):.2f} s, target {TARGET_S:.0f} s")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
