"""Time the engine per inventory — validation, every rule and every renderer — against a
baseline revision, in the same run.

    uv run python benchmarks/engine.py [--iterations N] [--baseline REV] [--rounds N]

For each example in examples/ and for a generated inventory with 512 storage entries (the
contract's maximum) it prints the median and 99th percentile of `rules.advise(document)`
for this tree and for the baseline revision's `rules/` (taken with `git archive`), each
beside a fixed reference loop timed in the same process, so the ratio to that loop
compares the two on one machine at one moment. The two are measured in alternating rounds
so a machine that slows down halfway hurts both alike.

Targets, for the example inventories: a median of at most 1 ms, and no example slower than
1.2 times its baseline ratio to the reference loop. The 512-entry inventory is reported
beside them, without a target.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_MEDIAN_MS = 1.0
TARGET_RATIO = 1.2
# The last revision before the contract was declared once (rules/inventory.py).
DEFAULT_BASELINE = "cc87675"
WARMUP = 200
MAX_STORAGE = 512
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


def measure(fn: Callable[[], object], iterations: int, warmup: int = WARMUP) -> list[float]:
    """Wall seconds per call, after a warm-up."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(iterations):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def reference_loop() -> int:
    """A fixed pure-Python loop: its time shows how fast this machine is running right now."""
    total = 0
    for i in range(10_000):
        total += i
    return total


def worker(code_root: Path, cases_file: Path, iterations: int) -> None:
    """Measure one tree's `rules` and print {case: [times]} and the reference loop as JSON."""
    sys.path.insert(0, str(code_root))
    import rules

    cases = json.loads(cases_file.read_text())
    out: dict[str, Any] = {"version": rules.RULES_VERSION, "times": {}}
    for name, doc in cases.items():
        try:
            rules.advise(doc)
        except rules.InventoryError:  # an inventory newer than this tree's contract
            out["times"][name] = None
            continue
        n = iterations if len(doc["storage"]) < 100 else max(30, iterations // 10)
        out["times"][name] = measure(lambda doc=doc: rules.advise(doc), n)
    out["reference"] = statistics.median(measure(reference_loop, 300))
    print(json.dumps(out))


def baseline_tree(rev: str, into: Path) -> Path:
    """The baseline revision's rules/ package, unpacked under `into`."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", rev, "rules"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def run_worker(code_root: Path, cases_file: Path, iterations: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--worker", str(code_root), str(cases_file), str(iterations)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98]


def report(rounds: dict[str, list[dict[str, Any]]], cases: list[str]) -> bool:
    """Print both trees side by side; True when every target holds."""
    summary: dict[str, dict[str, tuple[float, float, float]]] = {}
    for tree, runs in rounds.items():
        reference = statistics.median(r["reference"] for r in runs)
        summary[tree] = {}
        for case in cases:
            if runs[0]["times"][case] is None:
                continue
            times = [t for r in runs for t in r["times"][case]]
            median = statistics.median(times)
            summary[tree][case] = (median, p99(times), median / reference)
        print(f"{tree}: rules {runs[0]['version']}, reference loop {reference * 1e3:.3f} ms")
    head = f"{'inventory':<30} {'base ms':>8} {'base p99':>9} {'base ×ref':>9}"
    print(f"\n{head} {'now ms':>8} {'now p99':>9} {'now ×ref':>9} {'ratio':>6}  verdict")
    ok = True
    targets = set(examples())
    for case in cases:
        now = summary["current"][case]
        if case not in summary["baseline"]:
            figures = f"{'(the baseline has no such inventory)':>28}"
            figures += f" {now[0] * 1e3:>8.3f} {now[1] * 1e3:>9.3f} {now[2]:>9.2f}"
            print(f"{case:<30} {figures} {'':>6}  reported")
            continue
        base = summary["baseline"][case]
        change = now[2] / base[2]
        fits = change <= TARGET_RATIO and now[0] * 1e3 <= TARGET_MEDIAN_MS
        ok = ok and (fits or case not in targets)
        figures = f"{base[0] * 1e3:>8.3f} {base[1] * 1e3:>9.3f} {base[2]:>9.2f}"
        figures += f" {now[0] * 1e3:>8.3f} {now[1] * 1e3:>9.3f} {now[2]:>9.2f} {change:>6.2f}"
        verdict = ("PASS" if fits else "FAIL") if case in targets else "reported"
        print(f"{case:<30} {figures}  {verdict}")
    print(
        f"\nexamples: median ≤ {TARGET_MEDIAN_MS} ms and ≤ {TARGET_RATIO}× the baseline's ratio "
        f"to the reference loop: {'PASS' if ok else 'FAIL'}"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(Path(args.worker[0]), Path(args.worker[1]), int(args.worker[2]))
        return
    cases = {**examples(), f"generated-{MAX_STORAGE}-storage": big_inventory()}
    per_round = max(1, args.iterations // args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        cases_file = Path(tmp) / "cases.json"
        cases_file.write_text(json.dumps(cases))
        base_root = baseline_tree(args.baseline, Path(tmp) / "baseline")
        rounds: dict[str, list[dict[str, Any]]] = {"baseline": [], "current": []}
        for _ in range(args.rounds):
            rounds["baseline"].append(run_worker(base_root, cases_file, per_round))
            rounds["current"].append(run_worker(ROOT, cases_file, per_round))
    print(f"{args.iterations} runs per inventory and tree in {args.rounds} alternating rounds")
    sys.exit(0 if report(rounds, list(cases)) else 1)


if __name__ == "__main__":
    main()
