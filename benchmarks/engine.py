"""Time the engine per inventory: validation, every rule and every renderer.

    uv run python benchmarks/engine.py [--iterations N]

Prints the median and 99th percentile of `rules.advise(document)` for each example in
examples/ and for a generated inventory with 512 storage entries (the contract's maximum).
Target: a median of at most 1 ms per example inventory. With --profile, prints where the
time goes for the slowest inventory.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rules  # noqa: E402
from rules.validate import MAX_STORAGE  # noqa: E402

TARGET_MEDIAN_MS = 1.0
WARMUP = 200
ROLES = ("data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work")


def examples() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted((ROOT / "examples").glob("*.json"))}


def big_inventory() -> dict[str, Any]:
    """The SPD Server example grown to 512 storage entries over every role."""
    doc = json.loads((ROOT / "examples" / "prime-spds-aix.json").read_text())
    doc["name"] = f"generated, {MAX_STORAGE} storage entries"
    doc["storage"] = [
        {
            "name": f"lv{i}", "mount": f"/fs{i}", "role": ROLES[i % len(ROLES)],
            "raid": "5", "disks": 5, "stripe_kb": 64, "max_transfer_kb": 256,
            "size_gb": 180, "media": "hdd", "filesystem": "jfs2",
            "adapters": [f"fscsi{i % 4}"],
        }
        for i in range(MAX_STORAGE)
    ]  # fmt: skip
    return doc


def measure(fn: Callable[[], object], iterations: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds per call, after a warm-up.

    CPU time is printed beside wall time because on a shared machine the wall figure also
    counts the time other processes held the CPU.
    """
    for _ in range(WARMUP):
        fn()
    wall, cpu = [], []
    for _ in range(iterations):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def reference_loop() -> int:
    """A fixed pure-Python loop: its time shows how fast this machine is running right now.

    Shared virtual machines change speed from minute to minute; printing this beside the
    figures tells a slow machine from a slow engine.
    """
    total = 0
    for i in range(10_000):
        total += i
    return total


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    cases = {**examples(), f"generated-{MAX_STORAGE}-storage": big_inventory()}
    print(f"rules {rules.RULES_VERSION}; {args.iterations} runs each after {WARMUP} warm-up")
    print(f"{'inventory':<28} {'median ms':>10} {'p99 ms':>10} {'median CPU ms':>14}")
    medians = {}
    for name, doc in cases.items():
        iterations = args.iterations if len(doc["storage"]) < 100 else args.iterations // 10
        times, cpu = measure(lambda doc=doc: rules.advise(doc), iterations)
        medians[name] = statistics.median(times)
        figures = f"{medians[name] * 1e3:>10.3f} {p99(times) * 1e3:>10.3f}"
        print(f"{name:<28} {figures} {statistics.median(cpu) * 1e3:>14.3f}")
    reference = statistics.median(measure(reference_loop, 300)[0]) * 1e3
    print(f"machine speed: a 10,000-step reference loop took {reference:.3f} ms")
    worst = max(medians[n] for n in examples())
    verdict = "within" if worst * 1e3 <= TARGET_MEDIAN_MS else "OVER"
    print(
        f"slowest example median {worst * 1e3:.3f} ms: {verdict} the {TARGET_MEDIAN_MS} ms target"
    )
    if args.profile:
        slowest = max(medians, key=lambda n: medians[n])
        doc = cases[slowest]
        profile = cProfile.Profile()
        profile.runcall(lambda: [rules.advise(doc) for _ in range(50)])
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)


if __name__ == "__main__":
    main()
