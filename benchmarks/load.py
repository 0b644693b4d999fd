"""Load: concurrent clients on the busiest endpoints of an organisation of 100,000 rows.

    uv run python benchmarks/load.py [--duration 60] [--baseline 20] [--clients 50]

Needs wrk, PostgreSQL and Redis. Creates a database (BENCH_DATABASE_URL, default
advisor_load_bench on 127.0.0.1) whose benchmark user's organisation holds --rows
assessments (benchmarks/scale.py), flushes the Redis database the workers share as their
cache (BENCH_REDIS_URL, default redis://127.0.0.1:6379/11), starts gunicorn as
docker-compose.yml does (gunicorn.conf.py, sync workers; 2). wrk drives advice (POST
/api/v1/advice/), create (POST /api/v1/assessments/, a host name of its own per request),
search (GET /api/v1/assessments/?hostname=host0421: 100 rows) and detail (the web page
GET /assessments/<pk>/, with a session cookie), --clients connections for --duration s
each; then the page in 5 s turns for --baseline s, with its cache and from a second
gunicorn with DETAIL_CACHE_SECONDS=0: the speed-up on this machine. Targets (issue
"Hardening"): no errors (a status but the expected one, a socket error, a timeout);
nothing lost (each 201's id has its row; the rows added are the 201s plus at most the
requests in flight when wrk stopped); the detail page >= 2 x 34 req/s, its rate on 2
workers before the cache. A fixed pure-Python loop is timed in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import django
import redis
from django.db import connection

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the other benchmarks' helpers
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the app, for scale.fill

import wrk
from api import expect_status, free_port, prepare_database, start_gunicorn
from scale import fill, reference_loop
from wrk import Endpoint, Run, drive, lua_string

ROOT = Path(__file__).resolve().parent.parent
INVENTORY = json.loads((ROOT / "examples" / "lemans-aix53-etl.json").read_text())
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/advisor_load_bench"
DEFAULT_REDIS = "redis://127.0.0.1:6379/11"
WORKERS = 2
TODAY_RPS = 34.0  # the detail page on 2 workers before its result part was cached
PASSWORD = "load-bench-" + "p4ss" * 4
SEARCH = "/api/v1/assessments/?hostname=host0421"
ADVICE = Endpoint("advice", "POST", "/api/v1/advice/", 200, INVENTORY)
# The server's settings: the app's, with static files collected into a scratch directory
# (pages need the manifest).
SETTINGS = """from advisor.settings import *  # noqa: F403
STATIC_ROOT = {static!r}
"""
LUA_CREATE = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = {token}
local head, tail, n = {head}, {tail}, 0
function request()
  n = n + 1
  return wrk.format(nil, nil, nil, head .. string.format('"load-{run}-%d"', n) .. tail)
end
"""
# After wrk.LUA_TAIL: count every status but the expected one (wrk counts those >= 400: a
# redirect to the login page would pass), keep the id of each 201. Affordable at these rates.
LUA_COUNT = """
expected, unexpected, ids, threads = {expect}, 0, {{}}, {{}}
function setup(thread) table.insert(threads, thread) end
function response(status, headers, body)
  if status ~= expected then unexpected = unexpected + 1 end
  if status == 201 then ids[#ids + 1] = (headers["Location"] or ""):match("(%d+)/?$") end
end
local done_counting = done
function done(summary, latency, requests)
  local bad, all = 0, {{}}
  for _, t in ipairs(threads) do
    bad = bad + t:get("unexpected")
    for _, id in ipairs(t:get("ids")) do all[#all + 1] = id end
  end
  io.write(string.format("COUNT unexpected=%d\\nIDS %s\\n", bad, table.concat(all, ",")))
  done_counting(summary, latency, requests)
end
"""


def server_env(tmp: Path) -> dict[str, str]:
    (tmp / "load_settings.py").write_text(SETTINGS.format(static=str(tmp / "static")))
    return {**os.environ, "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", DEFAULT_DB),
            "REDIS_URL": os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS),
            "SECRET_KEY": "benchmark-only-" + "k3Yx9" * 10, "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1", "API_RATE_USER": "10000000/minute",
            "LOG_LEVEL": "WARNING", "GUNICORN_WORKER_CLASS": "sync",
            "WEB_CONCURRENCY": str(WORKERS), "DJANGO_SETTINGS_MODULE": "load_settings",
            "PYTHONPATH": os.pathsep.join([str(tmp), str(ROOT)])}  # fmt: skip


def prepare(env: dict[str, str], rows: int) -> tuple[str, int]:
    """A migrated database whose user's organisation holds `rows` assessments, a flushed
    cache, collected static files; the user's token and the pk of a real assessment."""
    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    token = prepare_database(env)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v", "0"], env=env, check=True)
    os.environ.update(DATABASE_URL=env["DATABASE_URL"], SECRET_KEY=env["SECRET_KEY"],
                      DJANGO_SETTINGS_MODULE="advisor.settings")  # fmt: skip
    django.setup()
    from advisor.models import Assessment, Membership

    org = fill(rows)
    membership = Membership.objects.select_related("user").get(user__username="bench")
    membership.organisation = org  # the user moves to the filled organisation
    membership.save()
    membership.user.set_password(PASSWORD)
    membership.user.save()
    return token, Assessment.objects.filter(organisation=org).earliest("pk").pk  # not a copy


def sql_count(sql: str, *params: Any) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.fetchone()[0])


def login(port: int) -> str:
    """The Cookie header of a logged-in session: one login, well under django-axes' limit."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/accounts/login/")
    page = conn.getresponse()
    cookies = cookie_values(page)
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.read().decode())
    assert found is not None, "no CSRF token on the login page"
    form = {"username": "bench", "password": PASSWORD, "csrfmiddlewaretoken": found.group(1)}
    headers = {"Content-Type": "application/x-www-form-urlencoded",
               "Cookie": f"csrftoken={cookies['csrftoken']}"}  # fmt: skip
    conn.request("POST", "/accounts/login/", urllib.parse.urlencode(form), headers)
    answer = conn.getresponse()
    cookies |= cookie_values(answer)
    if answer.status != 302 or "sessionid" not in cookies:
        raise SystemExit(f"login failed: status {answer.status}")
    return f"csrftoken={cookies['csrftoken']}; sessionid={cookies['sessionid']}"


def cookie_values(response: http.client.HTTPResponse) -> dict[str, str]:
    headers = response.headers.get_all("Set-Cookie") or []
    return dict(header.split(";", 1)[0].split("=", 1) for header in headers)


def create_lua(token: str) -> str:
    """POSTs of the inventory, each with its own host name, so that rows can be counted."""
    server = {**INVENTORY["server"], "hostname": "\x00"}
    head, tail = json.dumps({**INVENTORY, "server": server}).split('"\\u0000"')
    return LUA_CREATE.format(token=lua_string("Token " + token), head=lua_string(head),
                             tail=lua_string(tail), run=next(wrk.RUN_IDS))  # fmt: skip


def run_lua(base: str, name: str, path: str, lua: str, expect: int, clients: int,
            seconds: int) -> tuple[Run, list[int]]:  # fmt: skip
    """wrk with a script of our own (wrk.drive's sends no cookie): the figures, with every
    status other than `expect` counted as an error, and the ids of the 201s."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="load-") as script:
        script.write(lua + wrk.LUA_TAIL + LUA_COUNT.format(expect=expect))
        script.flush()
        command = ["wrk", "--latency", "--timeout", "10s", "-d", f"{seconds}s", "-t", "1",
                   "-c", str(clients), "-s", script.name, base + path]  # fmt: skip
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    lines = [re.search(rf"^{word} (.*)$", out.stdout, re.M) for word in ("BENCH", "COUNT", "IDS")]
    found = wrk.PERCENTILE_LINE.findall(out.stdout)
    latencies = {p: float(v) * wrk.UNITS_MS[u] for p, v, u in found}
    if out.returncode or None in lines or set(latencies) != {"50", "99"}:
        raise SystemExit(f"wrk failed on {name}:\n{out.stdout}{out.stderr}")
    summary, counted, ids = (m.group(1) for m in lines if m is not None)
    fields = dict(item.split("=") for item in f"{summary} {counted}".split())
    errors = int(fields["unexpected"]) + int(fields["socket"])
    run = Run(name, clients, int(fields["requests"]), int(fields["duration_us"]) / 1e6,
              latencies["50"], latencies["99"], errors)  # fmt: skip
    return run, [int(i) for i in ids.split(",") if i]


def api_run(base: str, endpoint: Endpoint, token: str, args: argparse.Namespace) -> Run:
    expect_status(base, endpoint, token)
    drive(base, endpoint, token, 2, 1)  # warm: both workers connected, code paths loaded
    return drive(base, endpoint, token, args.clients, args.duration)


def page_run(base: str, path: str, cookie: str, clients: int, seconds: int, name: str) -> Run:
    lua = f'wrk.method = "GET"\nwrk.headers["Cookie"] = {lua_string(cookie)}\n'
    run_lua(base, name, path, lua, 200, 2, 1)  # warm, and fills the cache
    return run_lua(base, name, path, lua, 200, clients, seconds)[0]


def create_run(base: str, token: str, args: argparse.Namespace) -> tuple[Run, list[int], int]:
    """The creation run, the ids its 201s named, and the rows it added."""
    lua = create_lua(token)
    run_lua(base, "create", "/api/v1/assessments/", lua, 201, 2, 1)
    before = settled_rows()
    run, ids = run_lua(base, "create", "/api/v1/assessments/", lua, 201, args.clients,
                       args.duration)  # fmt: skip
    return run, ids, settled_rows() - before


def settled_rows() -> int:
    time.sleep(2)  # the requests in flight when wrk stopped are still answered, into the void
    return sql_count("SELECT count(*) FROM advisor_assessment")


@contextlib.contextmanager
def served(env: dict[str, str]) -> Iterator[tuple[str, int]]:
    port = free_port()
    server = start_gunicorn(env, port, WORKERS)
    try:
        yield f"http://127.0.0.1:{port}", port
    finally:
        server.terminate()
        server.wait(timeout=30)


def measure(env: dict[str, str], args: argparse.Namespace, token: str, pk: int) -> dict[str, Any]:
    """Every endpoint on the server with the cache; then the page with and without it."""
    path, plain = f"/assessments/{pk}/", {**env, "DETAIL_CACHE_SECONDS": "0"}
    with served(env) as (base, port), served(plain) as (plain_base, _):
        cookie = login(port)
        advice = api_run(base, ADVICE, token, args)
        create, ids, added = create_run(base, token, args)
        search = api_run(base, Endpoint("search", "GET", SEARCH, 200), token, args)
        detail = page_run(base, path, cookie, args.clients, args.duration, "detail")
        # Alternately, in 5 s turns: other processes' load on a shared machine comes and
        # goes, and both servers should see the same.
        pairs = [(page_run(base, path, cookie, args.clients, 5, "detail"),
                  page_run(plain_base, path, cookie, args.clients, 5, "detail-nocache"))
                 for _ in range(max(1, args.baseline // 5))]  # fmt: skip
    both = [Run(r[0].endpoint, args.clients, sum(x.requests for x in r), sum(x.seconds for x in r),
                max(x.p50_ms for x in r), max(x.p99_ms for x in r), sum(x.errors for x in r))
            for r in zip(*pairs, strict=True)]  # fmt: skip
    return {"runs": [advice, create, search, detail, *both], "ids": ids, "added": added}


def report(found: dict[str, Any], clients: int) -> bool:
    runs: list[Run] = found["runs"]
    print(f"{'endpoint':<15} {'clients':>7} {'requests':>8} {'req/s':>8} {'p50 ms':>8} "
          f"{'p99 ms':>8} {'errors':>6}")  # fmt: skip
    for r in runs:
        print(f"{r.endpoint:<15} {r.clients:>7} {r.requests:>8} {r.rps:>8.1f} "
              f"{r.p50_ms:>8.1f} {r.p99_ms:>8.1f} {r.errors:>6}")  # fmt: skip
    create, detail, plain = runs[1], runs[3], runs[5]
    ids, added = found["ids"], found["added"]
    lost = len(ids) - sql_count("SELECT count(*) FROM advisor_assessment WHERE id = ANY(%s)", ids)
    late = added - len(ids)
    verdicts = {
        f"nothing lost: {len(ids)} answered 201, each with its own row ({lost} missing); "
        f"{added} rows added, {late} by requests in flight when wrk stopped "
        f"(<= {clients})": lost == 0 and len(ids) == create.requests and 0 <= late <= clients,
        f"detail page {detail.rps:.0f} req/s >= 2 x {TODAY_RPS:.0f} req/s = {2 * TODAY_RPS:.0f} "
        "req/s": detail.rps >= 2 * TODAY_RPS,
        f"errors: {sum(r.errors for r in runs)}": not any(r.errors for r in runs),
    }
    for line, ok in verdicts.items():
        print(f"{'PASS' if ok else 'FAIL'} {line}")
    print(f"INFO in alternate turns, the page with its cache {runs[4].rps:.0f} req/s, without "
          f"{plain.rps:.0f} req/s: {runs[4].rps / plain.rps:.2f}x")  # fmt: skip
    return all(verdicts.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=60, help="seconds per endpoint")
    parser.add_argument("--baseline", type=int, default=20,
                        help="seconds of the detail page without its cache")  # fmt: skip
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("benchmarks/load.py needs wrk on the PATH: apt-get install wrk")
    with tempfile.TemporaryDirectory(prefix="load-bench-") as tmp:
        env = server_env(Path(tmp))
        token, pk = prepare(env, args.rows)
        load_before = os.getloadavg()[0]
        found = measure(env, args, token, pk)
    print(f"gunicorn: {WORKERS} sync workers, Redis cache; wrk, {args.clients} clients, "
          f"{args.duration} s per endpoint; {os.cpu_count()} CPUs; load average "
          f"{load_before:.2f} to {os.getloadavg()[0]:.2f}; reference loop (1,000,000 additions) "
          f"{reference_loop():.1f} ms")  # fmt: skip
    return 0 if report(found, args.clients) else 1


if __name__ == "__main__":
    sys.exit(main())
