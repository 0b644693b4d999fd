"""The servers benchmarks/layers.py measures: a database with the rows its endpoints
read, gunicorn serving `layers_without:application` (benchmarks/layers_without.py), a
Celery worker beside it for fleets, wrk driving one endpoint, and the CPU time the
server's processes spent."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import redis
import wrk
from api import free_port, prepare_database
from fleet import call, servers
from load import PASSWORD
from wrk import Run, lua_string

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_layers_bench"
REDIS_2 = os.environ.get("BENCH_REDIS_URL_2", "redis://127.0.0.1:6379/14")
DEFAULT_REDIS = "redis://127.0.0.1:6379/12"
WORKERS = 2
INVENTORY = json.loads((ROOT / "examples" / "lemans-aix53-etl.json").read_text())
SETTINGS = """from advisor.settings import *  # noqa: F403
STATIC_ROOT = {static!r}
"""
# Run by `manage.py shell` without Redis (fleet chunks advised in-process): the rows the
# endpoints read, and the benchmark user's password for the web pages.
DATA = """
import json, sys
sys.path.insert(0, {here!r})
from django.contrib.auth.models import User
from advisor.assessments.services import assessment_create
from advisor.fleets.reading import Entry
from advisor.fleets.services import fleet_create
from engine import big_inventory
from fleet import servers
user = User.objects.get(username="bench")
user.set_password({password!r})
user.save()
lemans = assessment_create(user=user, document=json.load(open({lemans!r})))[0]
prime = assessment_create(user=user, document=json.load(open({prime!r})))[0]
big = assessment_create(user=user, document=big_inventory())[0]
entries = [Entry(d, f"s{{n}}.json") for n, d in enumerate(servers(500, "status-"))]
fleet = fleet_create(user=user, entries=entries, name="status")[0]
print(json.dumps({{"lemans": lemans.pk, "prime": prime.pk, "big": big.pk, "fleet": fleet.pk}}))
"""


@dataclass(frozen=True)
class Target:
    name: str
    method: str
    path: str  # may name {lemans}, {prime}, {big}, {fleet}
    expect: int = 200
    body: Any = None
    auth: str = "token"  # token, cookie or none
    pace_ms: int = 0  # each client waits this long after each answer


def server_env(tmp: Path, redis_url: str, rate: str) -> dict[str, str]:
    (tmp / "layers_settings.py").write_text(SETTINGS.format(static=str(tmp / "static")))
    return {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
            "REDIS_URL": redis_url, "SECRET_KEY": "benchmark-only-" + "k3Yx9" * 10,
            "DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1", "API_RATE_USER": rate,
            "LOG_LEVEL": "WARNING", "GUNICORN_WORKER_CLASS": "sync",
            "WEB_CONCURRENCY": str(WORKERS), "DJANGO_SETTINGS_MODULE": "layers_settings",
            "PYTHONPATH": os.pathsep.join([str(tmp), str(HERE), str(ROOT)])}  # fmt: skip


def prepare(env: dict[str, str]) -> tuple[str, dict[str, int]]:
    """A migrated database with the rows the endpoints read; the token and their keys."""
    token = prepare_database(env)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True)
    script = DATA.format(here=str(HERE), password=PASSWORD,
                         lemans=str(ROOT / "examples" / "lemans-aix53-etl.json"),
                         prime=str(ROOT / "examples" / "prime-spds-aix.json"))  # fmt: skip
    plain = {k: v for k, v in env.items() if k != "REDIS_URL"}
    out = subprocess.run([*manage, "shell", "-c", script], env=plain, check=True,
                         capture_output=True, text=True)  # fmt: skip
    return token, json.loads(out.stdout.strip().splitlines()[-1])


@contextlib.contextmanager
def gunicorn(env: dict[str, str]) -> Iterator[tuple[str, int, int]]:
    port = free_port()
    command = [sys.executable, "-m", "gunicorn", "layers_without:application", "--config",
               str(ROOT / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}",
               "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while not _answers(base + "/api/v1/health/"):
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("gunicorn did not answer /api/v1/health/ within 60 s")
            time.sleep(0.2)
        yield base, port, server.pid
    finally:
        server.terminate()
        server.wait(timeout=30)


def cpu_seconds(pid: int) -> float:
    """CPU time of gunicorn and its workers: the live ones', and those it has reaped."""

    def times(each: int, fields: slice) -> int:
        stat = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(v) for v in stat[fields])

    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    ticks = times(pid, slice(11, 15)) + sum(times(int(c), slice(11, 13)) for c in children)
    return ticks / os.sysconf("SC_CLK_TCK")


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1):
            return True
    except OSError:
        return False


def lua(target: Target, keys: dict[str, int], credentials: dict[str, str]) -> str:
    lines = [f"wrk.method = {lua_string(target.method)}"]
    headers = {"Accept": "application/json"} if target.auth != "cookie" else {}
    if target.body is not None:
        headers["Content-Type"] = "application/json"
        lines.append(f"wrk.body = {lua_string(json.dumps(target.body))}")
    if target.auth == "token":
        headers["Authorization"] = f"Token {credentials['token']}"
    elif target.auth == "cookie":
        headers["Cookie"] = credentials["cookie"]
    lines += [f"wrk.headers[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items()]
    if target.pace_ms:
        lines.append(f"function delay() return {target.pace_ms} end")
    # No response() hook (wrk would copy every body into Lua): wrk counts statuses >= 400,
    # and `check` asks for the exact status once before the load.
    return "\n".join(lines) + "\n" + wrk.LUA_TAIL


def drive(base: str, target: Target, script: str, clients: int, seconds: int) -> Run:
    path = target.path.format(**KEYS)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="layers-") as file:
        file.write(script)
        file.flush()
        command = ["wrk", "--latency", "--timeout", "10s", "-d", f"{seconds}s", "-t", "1",
                   "-c", str(clients), "-s", file.name, base + path]  # fmt: skip
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    found = wrk.BENCH_LINE.search(out.stdout)
    found_latencies = wrk.PERCENTILE_LINE.findall(out.stdout)
    latencies = {p: float(v) * wrk.UNITS_MS[u] for p, v, u in found_latencies}
    if out.returncode or found is None or set(latencies) != {"50", "99"}:
        raise SystemExit(f"wrk failed on {target.name}:\n{out.stdout}{out.stderr}")
    fields = dict(item.split("=") for item in found.group(1).split())
    errors = int(fields["bad_status"]) + int(fields["socket"])
    return Run(target.name, clients, int(fields["requests"]), int(fields["duration_us"]) / 1e6,
               latencies["50"], latencies["99"], errors)  # fmt: skip


KEYS: dict[str, int] = {}


def check(base: str, target: Target, credentials: dict[str, str]) -> None:
    """One request before the load: the status must be the expected one (no redirect)."""
    import http.client
    import urllib.parse

    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=60)
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if target.auth == "token":
        headers["Authorization"] = f"Token {credentials['token']}"
    elif target.auth == "cookie":
        headers = {"Cookie": credentials["cookie"]}
    body = json.dumps(target.body) if target.body is not None else None
    conn.request(target.method, target.path.format(**KEYS), body, headers)
    answer = conn.getresponse()
    answer.read()
    if answer.status != target.expect:
        raise SystemExit(f"{target.name} on {base}: status {answer.status}, expected "
                         f"{target.expect}")  # fmt: skip


@contextlib.contextmanager
def stack(env: dict[str, str], name: str) -> Iterator[tuple[str, list[int]]]:
    """gunicorn and a Celery worker (prefork, 2 processes) on the stack's own Redis db:
    the address and the two process ids whose CPU time is counted."""
    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    argv = [sys.executable, "-m", "celery", "-A", "layers_without", "worker", "--pool=prefork",
            "--concurrency=2", "--loglevel=WARNING", "--without-gossip", "--without-mingle",
            "--without-heartbeat", "-n", f"{name}@%h"]  # fmt: skip
    worker = subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        with gunicorn(env) as (base, _, pid):
            yield base, [pid, worker.pid]
    finally:
        os.killpg(worker.pid, 15)
        worker.wait(timeout=30)


def fleet_upload(
    base: str, token: str, count: int, turn: int, pids: list[int]
) -> tuple[float, float]:
    """Seconds from the upload to done, and the CPU seconds the stack spent."""
    body = "".join(json.dumps(d) + "\n" for d in servers(count, f"t{turn}-")).encode()
    cpu = sum(cpu_seconds(pid) for pid in pids)
    start = time.perf_counter()
    fleet = call(base, token, "/api/v1/fleets/?name=layers", body, "application/x-ndjson")
    while (state := call(base, token, f"/api/v1/fleets/{fleet['id']}/"))["status"] != "done":
        time.sleep(0.1)
    assert state["done"] == count and state["failed"] == 0, state
    return time.perf_counter() - start, sum(cpu_seconds(pid) for pid in pids) - cpu
