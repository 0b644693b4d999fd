"""REST API throughput and latency under gunicorn, driven by locust (headless, as a library).

    uv run python benchmarks/api.py [--requests 600] [--workers 4] [--redis redis://…]

Creates and migrates a PostgreSQL database (BENCH_DATABASE_URL, default advisor_api_bench
on 127.0.0.1), makes a user with an organisation and a token, starts gunicorn on a free
loopback port and sends a fixed number of requests to each endpoint at 1, 8 and 32
concurrent clients. Prints requests/s and p50/p99 latency per endpoint and concurrency,
then PASS/FAIL for the targets of the API issue:
  advice throughput >= ADVICE_VS_HEALTH x the health endpoint's, at each concurrency;
  assessment creation p99 <= CREATE_P99_MS at 8 clients;
  no errors at all.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gevent
from locust import FastHttpUser, constant, events, task  # patches sockets for gevent
from locust.env import Environment

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = json.loads((ROOT / "examples" / "lemans-aix53-etl.json").read_text())
CONCURRENCY = (1, 8, 32)
WARMUP_REQUESTS = 50
ADVICE_VS_HEALTH = 0.7  # advice must keep 70 % of the cheapest endpoint's throughput
CREATE_P99_MS = 50.0  # assessment creation, 99th percentile, at 8 clients
CREATE_P99_AT = 8
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_api_bench"


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expect: int
    body: Any = None
    auth: bool = True
    unique: bool = False  # a distinct inventory per request: defeats the advice memo


ENDPOINTS = (
    Endpoint("health", "GET", "/api/v1/health/", 200, auth=False),
    Endpoint("advice", "POST", "/api/v1/advice/", 200, INVENTORY),
    Endpoint("advice-cold", "POST", "/api/v1/advice/", 200, INVENTORY, unique=True),
    Endpoint("assessments", "POST", "/api/v1/assessments/", 201, INVENTORY),
)


@dataclass
class Run:
    endpoint: str
    clients: int
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    first_start: float = float("inf")  # epoch seconds: the window excludes client start-up
    last_end: float = 0.0

    @property
    def rps(self) -> float:
        seconds = self.last_end - self.first_start
        return (len(self.latencies_ms) + self.errors) / seconds if seconds > 0 else 0.0

    def percentile(self, p: float) -> float:
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[int(p) - 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def prepare_database(env: dict[str, str]) -> str:
    """Recreate and migrate the database; return a fresh token for a member user."""
    url = env["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True)
    script = (
        "from django.contrib.auth.models import User\n"
        "from rest_framework.authtoken.models import Token\n"
        "from advisor.models import Membership, Organisation\n"
        "u = User.objects.create_user('bench')\n"
        "o = Organisation.objects.create(name='Bench')\n"
        "Membership.objects.create(user=u, organisation=o)\n"
        "print(Token.objects.create(user=u).key)\n"
    )
    out = subprocess.run([*manage, "shell", "-c", script], env=env, check=True,
                         capture_output=True, text=True)  # fmt: skip
    return out.stdout.strip().splitlines()[-1]


def start_gunicorn(env: dict[str, str], port: int, workers: int) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "gunicorn", "advisor.wsgi:application",
        "--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--backlog", "2048",
        "--log-level", "warning",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health/", timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not answer /api/v1/health/ within 30 s")


def user_class(endpoint: Endpoint, token: str, budget: list[int]) -> type[FastHttpUser]:
    headers = {"Content-Type": "application/json"}
    if endpoint.auth:
        headers["Authorization"] = f"Token {token}"
    body = json.dumps(endpoint.body) if endpoint.body is not None else None
    serial = iter(range(10**9))

    class Client(FastHttpUser):
        wait_time = constant(0)

        @task
        def call(self) -> None:
            if budget[0] <= 0:
                gevent.sleep(0.05)  # done: idle until the runner stops
                return
            budget[0] -= 1
            data = body
            if endpoint.unique:
                data = json.dumps({**endpoint.body, "name": f"bench {next(serial)}"})
            with self.client.request(endpoint.method, endpoint.path, data=data,
                                     headers=headers, catch_response=True) as response:  # fmt: skip
                if response.status_code != endpoint.expect:
                    response.failure(f"HTTP {response.status_code}")

    return Client


def drive(base: str, endpoint: Endpoint, token: str, clients: int, requests: int) -> Run:
    run = Run(endpoint.name, clients)
    budget = [requests]
    env = Environment(user_classes=[user_class(endpoint, token, budget)], host=base,
                      events=events)  # fmt: skip

    def record(
        response_time: float, exception: Exception | None, start_time: float, **_: Any
    ) -> None:
        run.first_start = min(run.first_start, start_time)
        run.last_end = max(run.last_end, time.time())
        if exception is not None:
            run.errors += 1
        else:
            run.latencies_ms.append(response_time)

    env.events.request.add_listener(record)
    runner = env.create_local_runner()
    runner.start(clients, spawn_rate=10_000)
    while len(run.latencies_ms) + run.errors < requests:
        gevent.sleep(0.005)
    runner.quit()
    env.events.request.remove_listener(record)
    return run


def report(runs: list[Run]) -> bool:
    print(f"{'endpoint':<12} {'clients':>7} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for r in runs:
        print(f"{r.endpoint:<12} {r.clients:>7} {r.rps:>9.1f} {r.percentile(50):>8.2f} "
              f"{r.percentile(99):>8.2f} {r.errors:>7}")  # fmt: skip
    by = {(r.endpoint, r.clients): r for r in runs}
    verdicts = []
    for clients in CONCURRENCY:
        advice, health = by[("advice", clients)].rps, by[("health", clients)].rps
        ok = advice >= ADVICE_VS_HEALTH * health
        verdicts.append(ok)
        print(
            f"{'PASS' if ok else 'FAIL'} advice {advice:.0f} req/s >= {ADVICE_VS_HEALTH} x "
            f"health {health:.0f} req/s at {clients} clients ({advice / health:.2f}x)"
        )
    p99 = by[("assessments", CREATE_P99_AT)].percentile(99)
    verdicts.append(p99 <= CREATE_P99_MS)
    print(f"{'PASS' if verdicts[-1] else 'FAIL'} assessment creation p99 {p99:.1f} ms <= "
          f"{CREATE_P99_MS:.0f} ms at {CREATE_P99_AT} clients")  # fmt: skip
    for clients in CONCURRENCY:
        cold, health = by[("advice-cold", clients)].rps, by[("health", clients)].rps
        print(f"INFO advice without the memo (a new inventory per request): {cold:.0f} req/s, "
              f"{cold / health:.2f}x health at {clients} clients")  # fmt: skip
    errors = sum(r.errors for r in runs)
    verdicts.append(errors == 0)
    print(f"{'PASS' if errors == 0 else 'FAIL'} errors: {errors}")
    return all(verdicts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=600, help="per endpoint and level")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--redis", default="", help="REDIS_URL for the server (default none)")
    args = parser.parse_args()
    logging.getLogger("locust.runners").setLevel(logging.ERROR)  # "spawn rate is very high"
    env = {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
           "SECRET_KEY": "benchmark-only", "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1",
           "API_RATE_USER": "10000000/minute", "LOG_LEVEL": "WARNING",
           "REDIS_URL": args.redis}  # fmt: skip
    if not args.redis:
        env.pop("REDIS_URL")
    token = prepare_database(env)
    port = free_port()
    server = start_gunicorn(env, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        runs = []
        for endpoint in ENDPOINTS:
            drive(base, endpoint, token, 1, WARMUP_REQUESTS)
            runs += [drive(base, endpoint, token, c, args.requests) for c in CONCURRENCY]
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"gunicorn: {args.workers} sync workers; {args.requests} requests per row; "
          f"{os.cpu_count()} CPUs; rules {INVENTORY['name']!r}")  # fmt: skip
    return 0 if report(runs) else 1


if __name__ == "__main__":
    sys.exit(main())
