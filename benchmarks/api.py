"""REST API throughput and latency under gunicorn, driven by wrk (one Lua script per endpoint).

    uv run python benchmarks/api.py [--duration 5] [--workers N] [--redis redis://…]

Needs wrk on the PATH (Debian: apt-get install wrk). Creates and migrates a PostgreSQL
database (BENCH_DATABASE_URL, default advisor_api_bench on 127.0.0.1), makes a user with
an organisation and a token, starts gunicorn on a free loopback port and loads each
endpoint for a fixed time at 1, 8 and 32 concurrent clients, so every row sends a bounded
number of requests. gunicorn runs sync workers, as docker-compose.yml runs it behind
nginx (--worker-class gthread: the default of a bare gunicorn.conf.py). Prints
requests/s and p50/p99 latency per endpoint and concurrency, then PASS/FAIL for the
targets of the API issue:
  advice throughput >= ADVICE_VS_HEALTH x the health endpoint's, at each concurrency;
  assessment creation p99 <= CREATE_P99_MS at 8 clients;
  no errors at all (a status of 400 or more, or a socket error / timeout; the exact
  status is checked once before each endpoint is loaded).
Then the status of a finished fleet of FLEET_SERVERS servers (a re-run, so its drift
compares every host), at FLEET_CLIENTS clients beside advice: first as served (the
summary and counts stored when the fleet finished), then with both deleted, so each
request counts and computes them again from every server, as before. Target (issue
"Hostile input at scale"): the stored status >= FLEET_SPEEDUP x the recomputing rate
measured in the same run, and >= FLEET_SPEEDUP x FLEET_BEFORE_RPS, the rate measured on
the live stack before.
`--fleet-only` loads advice and the fleet rows alone.

wrk is a C event loop: on a 2-core machine it costs a fraction of what a Python load
generator does, so the figures describe the server rather than the harness.
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


from wrk import Endpoint, Run, drive

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = json.loads((ROOT / "examples" / "lemans-aix53-etl.json").read_text())
CONCURRENCY = (1, 8, 32)
WARMUP_SECONDS = 1
ADVICE_VS_HEALTH = 0.7  # advice must keep 70 % of the cheapest endpoint's throughput
CREATE_P99_MS = 50.0  # assessment creation, 99th percentile, at 8 clients
CREATE_P99_AT = 8
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_api_bench"
# gunicorn's worker count comes from gunicorn.conf.py (one per CPU) unless --workers is
# given. Measured with this script on 2 CPUs, 5 s per row, at 8 clients:
#   2 workers: health 1796 req/s, advice 2247, advice-cold 1134, creation 536 (p99 25 ms)
#   3 workers: health 1321-2403, advice 1546-2482, advice-cold 670-1107, creation 382-515
#   4 workers: health 2182 req/s, advice 1858, advice-cold 856,  creation 434 (p99 31 ms)
# The requests are CPU-bound, so more workers than CPUs only time-slice the two CPUs
# against each other, wrk and PostgreSQL.
CONFIG = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
FLEET_SERVERS = 2000
FLEET_CLIENTS = 8
FLEET_BEFORE_RPS = 17.0  # a finished 2,000-server fleet's status, recomputed per request
FLEET_SPEEDUP = 10.0
FLEET_EXAMPLES = ("lemans-aix53-etl", "prime-spds-aix", "linux-rhel9-sas94", "windows-sas94")
# Run by `manage.py shell` without a broker: the chunks are advised in-process. The first
# run is the one the second is compared against (drift over every host).
FLEET_SCRIPT = """
import copy, json
from pathlib import Path
from django.contrib.auth.models import User
from advisor.fleets.reading import Entry
from advisor.fleets.services import fleet_create, fleet_reevaluate
docs = [json.loads((Path({examples!r}) / f"{{name}}.json").read_text()) for name in {names!r}]
entries = []
for n in range({count}):
    document = copy.deepcopy(docs[n % len(docs)])
    document["server"]["hostname"] = f"sas{{n:05d}}"
    entries.append(Entry(document, f"sas{{n:05d}}.json"))
user = User.objects.get(username="bench")
first, _ = fleet_create(user=user, entries=entries, name="bench")
second = fleet_reevaluate(user=user, fleet=first)
second.refresh_from_db()
assert second.status == "done", second.status
print(second.pk)
"""


ENDPOINTS = (
    Endpoint("health", "GET", "/api/v1/health/", 200, auth=False),
    Endpoint("advice", "POST", "/api/v1/advice/", 200, INVENTORY),
    Endpoint("advice-cold", "POST", "/api/v1/advice/", 200, INVENTORY, unique=True),
    Endpoint("assessments", "POST", "/api/v1/assessments/", 201, INVENTORY),
)


def expect_status(base: str, endpoint: Endpoint, token: str) -> None:
    """One request with the exact status the endpoint must answer, before it is loaded."""
    data = json.dumps(endpoint.body).encode() if endpoint.body is not None else None
    request = urllib.request.Request(base + endpoint.path, data=data, method=endpoint.method)
    request.add_header("Content-Type", "application/json")
    if endpoint.auth:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            got = response.status
    except urllib.error.HTTPError as exc:
        got = exc.code
    if got != endpoint.expect:
        raise SystemExit(f"{endpoint.name}: status {got}, expected {endpoint.expect}")


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
        "--config", str(ROOT / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}",
        "--workers", str(workers), "--log-level", "warning",
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


def make_fleet(env: dict[str, str]) -> int:
    """A finished fleet of FLEET_SERVERS servers, the re-run of another; its id."""
    script = FLEET_SCRIPT.format(examples=str(ROOT / "examples"), names=FLEET_EXAMPLES,
                                 count=FLEET_SERVERS)  # fmt: skip
    fleet_env = {k: v for k, v in env.items() if k not in ("REDIS_URL", "CELERY_BROKER_DIR")}
    out = subprocess.run([sys.executable, str(ROOT / "manage.py"), "shell", "-c", script],
                         env=fleet_env, check=True, capture_output=True, text=True)  # fmt: skip
    return int(out.stdout.strip().splitlines()[-1])


def fleet_runs(base: str, token: str, env: dict[str, str], duration: int) -> list[Run]:
    """Advice, the finished fleet's status as served, then with its stored summary gone."""
    import psycopg

    started = time.monotonic()
    fleet_id = make_fleet(env)
    print(
        f"fleet {fleet_id}: {FLEET_SERVERS} servers advised in {time.monotonic() - started:.0f} s"
    )
    path = f"/api/v1/fleets/{fleet_id}/"
    stored = Endpoint("fleet-stored", "GET", path, 200)
    recomputed = Endpoint("fleet-recomp", "GET", path, 200)
    runs = []
    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        # The table as autovacuum leaves it soon after the upload: statistics and visibility
        # map set, so both runs are planned as on a settled stack.
        conn.execute("VACUUM ANALYZE advisor_fleetitem")
    for endpoint in (ENDPOINTS[1], stored):
        expect_status(base, endpoint, token)
        drive(base, endpoint, token, 1, WARMUP_SECONDS)
        runs.append(drive(base, endpoint, token, FLEET_CLIENTS, duration))
    with psycopg.connect(env["DATABASE_URL"], autocommit=True) as conn:
        conn.execute("DELETE FROM advisor_fleetsummary WHERE fleet_id = %s", [fleet_id])
        conn.execute("UPDATE advisor_fleet SET done_count = NULL, failed_count = NULL "
                     "WHERE id = %s", [fleet_id])  # fmt: skip
    expect_status(base, recomputed, token)
    runs.append(drive(base, recomputed, token, FLEET_CLIENTS, duration))
    return runs


def fleet_report(runs: list[Run]) -> bool:
    for r in runs:
        print(f"{r.endpoint:<12} {r.clients:>7} {r.requests:>8} {r.rps:>9.1f} "
              f"{r.p50_ms:>8.2f} {r.p99_ms:>8.2f} {r.errors:>7}")  # fmt: skip
    by = {(r.endpoint, r.clients): r for r in runs}
    advice = by[("advice", FLEET_CLIENTS)]
    stored, recomputed = by[("fleet-stored", FLEET_CLIENTS)], by[("fleet-recomp", FLEET_CLIENTS)]
    same_run = stored.rps >= FLEET_SPEEDUP * recomputed.rps
    before = stored.rps >= FLEET_SPEEDUP * FLEET_BEFORE_RPS
    print(f"{'PASS' if same_run else 'FAIL'} finished fleet status {stored.rps:.0f} req/s (p99 "
          f"{stored.p99_ms:.0f} ms) >= {FLEET_SPEEDUP:.0f} x recomputing it {recomputed.rps:.1f} "
          f"req/s (p99 {recomputed.p99_ms:.0f} ms) in this run "
          f"({stored.rps / max(recomputed.rps, 0.01):.0f}x), {FLEET_SERVERS} servers, "
          f"{FLEET_CLIENTS} clients")  # fmt: skip
    print(f"{'PASS' if before else 'FAIL'} finished fleet status {stored.rps:.0f} req/s >= "
          f"{FLEET_SPEEDUP:.0f} x the recomputing rate ({FLEET_BEFORE_RPS:.0f} req/s measured "
          "before)")  # fmt: skip
    print(f"INFO advice {advice.rps:.0f} req/s at {FLEET_CLIENTS} clients: the fleet status is "
          f"{stored.rps / advice.rps:.2f}x advice")  # fmt: skip
    return same_run and before and not any(r.errors for r in runs)


def report(runs: list[Run]) -> bool:
    print(f"{'endpoint':<12} {'clients':>7} {'requests':>8} {'req/s':>9} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'errors':>7}")  # fmt: skip
    for r in runs:
        print(f"{r.endpoint:<12} {r.clients:>7} {r.requests:>8} {r.rps:>9.1f} "
              f"{r.p50_ms:>8.2f} {r.p99_ms:>8.2f} {r.errors:>7}")  # fmt: skip
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
    p99 = by[("assessments", CREATE_P99_AT)].p99_ms
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
    parser.add_argument("--duration", type=int, default=5, help="seconds per endpoint and level")
    parser.add_argument("--workers", type=int, default=CONFIG["workers"],
                        help=f"gunicorn workers (default {CONFIG['workers']}, "
                             "from gunicorn.conf.py)")  # fmt: skip
    parser.add_argument("--worker-class", default="sync", choices=["sync", "gthread"],
                        help="sync (default: as docker-compose.yml runs it, behind nginx) "
                             "or gthread (gunicorn.conf.py's default with no proxy)")  # fmt: skip
    parser.add_argument("--redis", default="", help="REDIS_URL for the server (default none)")
    parser.add_argument("--fleet-only", action="store_true",
                        help="load advice and the finished fleet's status only")  # fmt: skip
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("benchmarks/api.py needs wrk on the PATH: apt-get install wrk", file=sys.stderr)
        return 2
    env = {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
           "SECRET_KEY": "benchmark-only-" + "k3Yx9" * 10, "DEBUG": "0",
           "ALLOWED_HOSTS": "127.0.0.1",
           "API_RATE_USER": "10000000/minute", "LOG_LEVEL": "WARNING",
           "REDIS_URL": args.redis, "GUNICORN_WORKER_CLASS": args.worker_class}  # fmt: skip
    if not args.redis:
        env.pop("REDIS_URL")
    token = prepare_database(env)
    port = free_port()
    server = start_gunicorn(env, port, args.workers)
    base = f"http://127.0.0.1:{port}"
    try:
        runs = []
        for endpoint in () if args.fleet_only else ENDPOINTS:
            expect_status(base, endpoint, token)
            drive(base, endpoint, token, 1, WARMUP_SECONDS)
            runs += [drive(base, endpoint, token, c, args.duration) for c in CONCURRENCY]
        fleet = fleet_runs(base, token, env, args.duration)
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"gunicorn: {args.workers} {args.worker_class} workers; wrk, {args.duration} s per row; "
          f"{os.cpu_count()} CPUs; rules {INVENTORY['name']!r}")  # fmt: skip
    passed = args.fleet_only or report(runs)
    return 0 if fleet_report(fleet) and passed else 1


if __name__ == "__main__":
    sys.exit(main())
