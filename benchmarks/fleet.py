"""Fleets through the real stack: gunicorn, two Celery workers over Redis, PostgreSQL.

    uv run python benchmarks/fleet.py [--sizes 1000 10000] [--one-by-one 300]

Creates and migrates a PostgreSQL database (BENCH_DATABASE_URL, default
advisor_fleet_bench on 127.0.0.1), starts gunicorn and two workers (prefork, two pool
processes each, as docker-compose.yml runs them) over Redis (BENCH_REDIS_URL, default
db 13), uploads fleets of each size as NDJSON to /api/v1/fleets/ and polls the status URL
every 0.1 s until done. Prints servers/s from upload to done, each worker's peak RSS
after each fleet and how much it grew, and, in the same run, the rate of posting the
same servers one by one to /api/v1/assessments/ from one client. The servers cycle
through the example inventories with distinct host names. Targets (2-core
machine): 10,000 servers in <= 60 s, >= 5x the one-by-one rate, worker RSS flat.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import free_port, prepare_database, start_gunicorn

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ("lemans-aix53-etl", "prime-spds-aix", "linux-rhel9-sas94", "windows-sas94")
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_fleet_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
TARGET_SECONDS_10K, TARGET_SPEEDUP = 60.0, 5.0
TARGET_RSS_GROWTH_MB = 10.0


def servers(count: int, prefix: str) -> list[dict[str, Any]]:
    docs = [json.loads((ROOT / "examples" / f"{name}.json").read_text()) for name in EXAMPLES]
    out = []
    for n in range(count):
        doc = copy.deepcopy(docs[n % len(docs)])
        doc["server"]["hostname"] = f"{prefix}{n:05d}"
        out.append(doc)
    return out


def call(base: str, token: str, path: str, body: bytes | None = None, kind: str = "") -> Any:
    request = urllib.request.Request(base + path, data=body, method="POST" if body else "GET")
    request.add_header("Authorization", f"Token {token}")
    if kind:
        request.add_header("Content-Type", kind)
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def start_worker(env: dict[str, str], name: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "celery", "-A", "advisor", "worker", "--pool=prefork",
            "--concurrency=2", "--loglevel=WARNING", "--without-gossip", "--without-mingle",
            "--without-heartbeat", "-n", f"{name}@%h"]  # fmt: skip
    return subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)


def peak_rss_mb(pid: int) -> float:
    """The largest VmHWM among the worker's processes (its pool child does the work)."""
    pids = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                pids.append(int(entry.name))
    peak = 0
    for each in pids:
        try:
            for line in Path(f"/proc/{each}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            continue
    return peak / 1024


def run_fleet(base: str, token: str, count: int) -> float:
    body = "".join(json.dumps(d) + "\n" for d in servers(count, f"f{count}-")).encode()
    start = time.perf_counter()
    fleet = call(base, token, "/api/v1/fleets/?name=bench", body, "application/x-ndjson")
    while True:
        state = call(base, token, f"/api/v1/fleets/{fleet['id']}/")
        if state["status"] == "done":
            break
        time.sleep(0.1)
    seconds = time.perf_counter() - start
    assert state["done"] == count and state["failed"] == 0, state
    return seconds


def one_by_one(base: str, token: str, count: int) -> float:
    docs = servers(count, "single-")
    start = time.perf_counter()
    for doc in docs:
        call(base, token, "/api/v1/assessments/", json.dumps(doc).encode(), "application/json")
    return count / (time.perf_counter() - start)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    options.add_argument("--one-by-one", type=int, default=300)
    args = options.parse_args()
    env = {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
           "REDIS_URL": os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS),
           "SECRET_KEY": "bench-secret-key-not-for-production-" + "k3Yx9" * 10, "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1", "DJANGO_SETTINGS_MODULE": "advisor.settings",
           "GUNICORN_WORKER_CLASS": "sync"}  # fmt: skip
    subprocess.run(["redis-cli", "-u", env["REDIS_URL"], "flushdb"], check=True,
                   capture_output=True)  # fmt: skip
    token = prepare_database(env)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    gunicorn = start_gunicorn(env, port, 2)
    workers = [start_worker(env, "bench1"), start_worker(env, "bench2")]
    ok = True
    try:
        time.sleep(3)  # the workers connect to Redis
        single = one_by_one(base, token, args.one_by_one)
        print(f"one by one to /api/v1/assessments/ (1 client): {single:.1f} servers/s")
        peaks: list[float] = []
        for size in args.sizes:
            seconds = run_fleet(base, token, size)
            rate = size / seconds
            rss = [peak_rss_mb(w.pid) for w in workers]
            peaks.append(max(rss))
            shown = ", ".join(f"{r:.0f} MB" for r in rss)
            print(f"fleet of {size:>6,}: {seconds:6.1f} s, {rate:6.1f} servers/s "
                  f"({rate / single:.1f}x one by one), worker peak RSS {shown}")  # fmt: skip
            if size == 10_000:
                ok &= seconds <= TARGET_SECONDS_10K
            ok &= rate >= TARGET_SPEEDUP * single
        growth = peaks[-1] - peaks[0]
        print(f"worker peak RSS grew {growth:.1f} MB from the first fleet to the last")
        ok &= growth <= TARGET_RSS_GROWTH_MB
        print(f"targets: 10,000 servers <= {TARGET_SECONDS_10K:.0f} s; >= "
              f"{TARGET_SPEEDUP:.0f}x the one-by-one rate; worker RSS growth <= "
              f"{TARGET_RSS_GROWTH_MB:.0f} MB")  # fmt: skip
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        gunicorn.terminate()
        for process in (*workers, gunicorn):
            process.wait(timeout=30)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
