"""Reading a night's SAS log: a 100 MB log parsed streaming, every step diagnosed; a log of
hundreds of thousands of 30-second steps; the crafted release line beside a real log.

    uv run python benchmarks/logs.py [--mb 100] [--steps-mb 58] [--crafted-mb 4]

The night's log is built from real logs (tests/fixtures/parse/saslog: SAS 9.4 on Linux
with FULLSTIMER and NOTEs wrapped at LINESIZE=64, the SAS 9.2 UNIX documentation example,
SAS 9.1.3 on AIX from bartucca2005) repeated to the size asked; the steps log repeats the
footer layout of the first with a new procedure and 30-odd seconds each step (the shape
that made the analysis keep a finding per step: 58 MB of them peaked at 391 MiB and stored
149 MB). Each is written to a temporary file and read by a child process with
`rules.logs.analyse_lines`, as the log service reads an upload, so its peak RSS is the
whole cost of reading and diagnosing the log; the size of the analysis it would store is
printed beside it.

The crafted log is the hostile suite's: SAS release notes whose "(TS1M" never closes,
wrapped over indented lines of digits (tests/hostile/payloads.py). It is read in this
process beside a real log of the same size; a pattern that backtracked over the run would
make it many times slower per MB than the real one.

Prints seconds, MB/s, steps/s, peak RSS and stored size beside the targets, and a fixed
reference loop timed in the same run, so a slow machine shows as such.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(1, str(ROOT))

from engine import measure, reference_loop  # noqa: E402

from rules.logs import analyse_lines  # noqa: E402

LOGS = ROOT / "tests" / "fixtures" / "parse" / "saslog"
PARTS = (
    "unix94_fullstimer_wrapped_sspkmnd.log",
    "unix92_fullstimer_doc.log",
    "aix913_sort_bartucca2005.log",
)
PROCS = ("SORT", "SQL", "MEANS", "PRINT", "TABULATE", "FREQ", "DATA")
TARGET_SECONDS, TARGET_RSS_MB = 5.0, 100.0
TARGET_STORED_MB = 2.0
TARGET_CRAFTED_RATIO = 3.0  # crafted seconds per MB against a real log's
CHILD = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[2])
from rules.logs import analyse_lines
start = time.perf_counter()
with open(sys.argv[1], encoding="utf-8", errors="replace") as handle:
    analysis = analyse_lines(handle, cpus=8)
seconds = time.perf_counter() - start
rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "steps": analysis["step_count"],
                  "lines": analysis["lines"], "findings": analysis["findings_total"],
                  "stored": len(json.dumps(analysis).encode()), "rss_mb": rss_kb / 1024}))
"""


def block() -> str:
    text = []
    for name in PARTS:
        lines = (LOGS / name).read_text(encoding="utf-8").splitlines()
        text.extend(line for line in lines if not line.startswith("## "))
    return "\n".join(text) + "\n"


def short_steps(first: int, count: int) -> str:
    """`count` steps of the SAS 9.4 fixture's footer layout, 30 to 90 seconds each."""
    steps = []
    for n in range(first, first + count):
        proc = PROCS[n % len(PROCS)]
        footer = "DATA statement" if proc == "DATA" else f"PROCEDURE {proc}"
        real = 30 + (n * 7919) % 600 / 10
        steps.append(
            f"NOTE: {footer} used (Total process time):\n"
            f"      real time           {real:.2f} seconds\n"
            f"      user cpu time       {real / (1 + n % 4):.2f} seconds\n"
            "      system cpu time     0.50 seconds\n"
        )
    return "".join(steps)


def crafted(size: int) -> str:
    """tests/hostile/payloads.py's release_line_log."""
    run = "0" * 4000
    notes = f"NOTE: SAS (r) Proprietary Software 9.4 (TS1M{run}\n" + f" {run}\n" * 20
    return notes * (size // len(notes))


def write_log(path: Path, megabytes: int, steps: bool = False) -> int:
    size, written, first = megabytes * 1024 * 1024, 0, 0
    with path.open("w", encoding="utf-8") as out:
        while written < size:
            chunk = short_steps(first, 1000) if steps else block() * 50
            out.write(chunk)
            written, first = written + len(chunk), first + 1000
    return path.stat().st_size


def read_in_child(megabytes: int, steps: bool) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "night.log"
        size = write_log(log, megabytes, steps)
        run = subprocess.run(
            [sys.executable, "-c", CHILD, str(log), str(ROOT)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    return json.loads(run.stdout) | {"mb": size / (1024 * 1024)}


def report(title: str, got: dict[str, Any], target_seconds: float | None) -> bool:
    print(f"{title}: {got['mb']:.0f} MiB, {got['lines']:,} lines, {got['steps']:,} steps, "
          f"{got['findings']:,} findings")  # fmt: skip
    target = f" (target: ≤ {target_seconds:.0f} s)" if target_seconds else ""
    print(
        f"  parse + diagnose: {got['seconds']:.2f} s{target}, "
        f"{got['mb'] / got['seconds']:.1f} MiB/s, {got['steps'] / got['seconds']:,.0f} steps/s"
    )
    stored_mb = got["stored"] / 1e6
    print(f"  peak RSS of the reading process: {got['rss_mb']:.0f} MB "
          f"(target: ≤ {TARGET_RSS_MB:.0f} MB); stored analysis {stored_mb:.2f} MB "
          f"(target: ≤ {TARGET_STORED_MB:.0f} MB)")  # fmt: skip
    fast = target_seconds is None or got["seconds"] <= target_seconds
    return fast and got["rss_mb"] <= TARGET_RSS_MB and stored_mb <= TARGET_STORED_MB


def seconds_per_mb(text: str) -> float:
    start = time.perf_counter()
    analyse_lines(io.StringIO(text))
    return (time.perf_counter() - start) / (len(text) / (1024 * 1024))


def crafted_against_real(megabytes: int) -> bool:
    size = megabytes * 1024 * 1024
    real = block() * (size // len(block()))
    real_rate = min(seconds_per_mb(real) for _ in range(3))
    crafted_rate = min(seconds_per_mb(crafted(size)) for _ in range(3))
    ratio = crafted_rate / real_rate
    print(f"crafted release line ({megabytes} MiB) against a real log of the same size: "
          f"{crafted_rate:.3f} s/MiB crafted, {real_rate:.3f} s/MiB real, "
          f"{ratio:.2f}x (target: ≤ {TARGET_CRAFTED_RATIO:.0f}x)")  # fmt: skip
    return ratio <= TARGET_CRAFTED_RATIO


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--mb", type=int, default=100)
    options.add_argument("--steps-mb", type=int, default=58, help="0 to leave it out")
    options.add_argument("--crafted-mb", type=int, default=4, help="0 to leave it out")
    args = options.parse_args()
    reference = statistics.median(measure(reference_loop, 300))
    print(f"reference loop: {reference * 1e3:.3f} ms")
    ok = report("night's log", read_in_child(args.mb, False), TARGET_SECONDS)
    if args.steps_mb:
        ok &= report("30-second steps", read_in_child(args.steps_mb, True), None)
    if args.crafted_mb:
        ok &= crafted_against_real(args.crafted_mb)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
