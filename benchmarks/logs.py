"""Reading a night's SAS log: a 100 MB log parsed streaming, every step diagnosed.

    uv run python benchmarks/logs.py [--mb 100]

The log is built from real logs (tests/fixtures/parse/saslog: SAS 9.4 on Linux with
FULLSTIMER and NOTEs wrapped at LINESIZE=64, the SAS 9.2 UNIX documentation example,
SAS 9.1.3 on AIX from bartucca2005) repeated to the size asked, and written to a
temporary file. A child process reads it line by line with `rules.parse.saslog.iter_steps`
and runs every step rule on each step as it comes, so its peak RSS is the whole cost of
reading the log. Prints seconds, MB/s, steps/s and peak RSS beside the targets, and a
fixed reference loop timed in the same run, so a slow machine shows as such.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine import measure, reference_loop  # noqa: E402

LOGS = ROOT / "tests" / "fixtures" / "parse" / "saslog"
PARTS = (
    "unix94_fullstimer_wrapped_sspkmnd.log",
    "unix92_fullstimer_doc.log",
    "aix913_sort_bartucca2005.log",
)
TARGET_SECONDS, TARGET_RSS_MB = 5.0, 100.0
CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[2])
from rules.logs.findings import STEP_RULES
from rules.parse.saslog import LogReader, iter_steps
start = time.perf_counter()
reader, steps, findings = LogReader(), 0, 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    for step in iter_steps(handle, reader):
        steps += 1
        findings += sum(1 for rule in STEP_RULES if rule(step, 8) is not None)
seconds = time.perf_counter() - start
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "steps": steps, "lines": reader.line,
                  "findings": findings, "rss_mb": rss_kb / 1024}))
"""


def block() -> str:
    text = []
    for name in PARTS:
        lines = (LOGS / name).read_text(encoding="utf-8").splitlines()
        text.extend(line for line in lines if not line.startswith("## "))
    return "\n".join(text) + "\n"


def write_log(path: Path, megabytes: int) -> int:
    chunk = block().encode()
    copies = megabytes * 1024 * 1024 // len(chunk) + 1
    with path.open("wb") as out:
        for _ in range(copies):
            out.write(chunk)
    return path.stat().st_size


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--mb", type=int, default=100)
    args = options.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "night.log"
        size = write_log(log, args.mb)
        run = subprocess.run(
            [sys.executable, "-c", CHILD, str(log), str(ROOT)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    got = json.loads(run.stdout)
    reference = statistics.median(measure(reference_loop, 300))
    mb = size / (1024 * 1024)
    print(f"log: {mb:.0f} MiB, {got['lines']:,} lines, {got['steps']:,} steps, "
          f"{got['findings']:,} findings")  # fmt: skip
    print(f"reference loop: {reference * 1e3:.3f} ms")
    print(
        f"parse + diagnose: {got['seconds']:.2f} s (target: ≤ {TARGET_SECONDS:.0f} s), "
        f"{mb / got['seconds']:.0f} MiB/s, {got['steps'] / got['seconds']:,.0f} steps/s"
    )
    print(f"peak RSS of the reading process: {got['rss_mb']:.0f} MB "
          f"(target: ≤ {TARGET_RSS_MB:.0f} MB)")  # fmt: skip
    ok = got["seconds"] <= TARGET_SECONDS and got["rss_mb"] <= TARGET_RSS_MB
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
