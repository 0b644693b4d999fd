"""Each speed layer with and without it, in the same run: what it gains where a user feels it.

    uv run python benchmarks/layers.py [--turns 4] [--seconds 5] [--clients 8] [LAYER ...]
    uv run python benchmarks/layers.py --fleet 1000 [--turns 3] copy result-memo

Needs wrk, PostgreSQL (BENCH_DATABASE_URL, default advisor_layers_bench, recreated) and
two Redis databases (BENCH_REDIS_URL, default db 12, and BENCH_REDIS_URL_2, default db 14,
flushed). For each layer two gunicorns run side by side (2 sync workers, as
docker-compose.yml runs them), each on its own Redis database (sharing one, the server
without a cache would read what the other one cached): one as deployed, one serving
`layers_without:application`, which takes that layer out (benchmarks/layers_without.py).
wrk drives each of the layer's endpoints on both in alternate turns of --seconds (the
order swapped each turn), so load from other processes falls on both alike; the figures
add the turns up: req/s over all of them, the median turn's p50, the worst turn's p99,
and the CPU time the server's processes spent per request, which other processes' load
does not inflate. --fleet uploads fleets of that many servers as NDJSON to two stacks
(gunicorn and a Celery worker each), with and without the layer, in alternate turns.
The gain is the speed with the layer over the speed without, less one. The layers that
gained less than 20 % were deleted after they were measured (README, Benchmarks); this
script as of commit c91f6aa measures them too.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import redis
from layers_serve import (
    DEFAULT_REDIS,
    INVENTORY,
    KEYS,
    REDIS_2,
    Target,
    check,
    cpu_seconds,
    drive,
    fleet_upload,
    gunicorn,
    lua,
    prepare,
    server_env,
    stack,
)
from load import login
from wrk import Run


@dataclass(frozen=True)
class Layer:
    name: str
    targets: tuple[Target, ...]
    both: dict[str, str] = field(default_factory=dict)  # the environment of both servers


ADVICE = Target("advice", "POST", "/api/v1/advice/", body=INVENTORY)
API_READ = Target("api detail", "GET", "/api/v1/assessments/{lemans}/")
API_READ_BIG = Target("api detail 512", "GET", "/api/v1/assessments/{big}/")
CREATE = Target("api create", "POST", "/api/v1/assessments/", 201, INVENTORY)
PAGE = Target("page", "GET", "/assessments/{lemans}/", auth="cookie")
PAGE_BIG = Target("page 512", "GET", "/assessments/{big}/", auth="cookie")
FLEET = Target("fleet status", "GET", "/api/v1/fleets/{fleet}/")
COLD = {"DETAIL_CACHE_SECONDS": "0"}
LAYERS = {layer.name: layer for layer in (
    Layer("page-cache", (PAGE, PAGE_BIG)),
    Layer("cpucount-cache", (PAGE, PAGE_BIG)),
    Layer("page-memos", (PAGE, PAGE_BIG), COLD),
    Layer("result-memo", (Target("compare", "GET", "/assessments/{lemans}/compare/{prime}/",
                                 auth="cookie"),
                          Target("zip", "GET", "/assessments/{lemans}/files.zip", auth="cookie"),
                          PAGE), COLD),
    Layer("token-cache", (ADVICE, API_READ)),
    Layer("advice-memo", (ADVICE,)),
    Layer("json-splice", (API_READ, API_READ_BIG, CREATE)),
    Layer("json-decode", (API_READ, API_READ_BIG, CREATE)),
    Layer("health-client", (Target("health", "GET", "/api/v1/health/", auth="none"),)),
    Layer("fleet-status-sql", (FLEET,)),
)}  # fmt: skip
FLEET_LAYERS = ("copy", "result-memo")


@dataclass(frozen=True)
class Side:
    """One server's turns at one endpoint: wrk's figures and the server's CPU seconds."""

    run: Run
    cpu_s: float

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.cpu_s / max(self.run.requests, 1)


def turn(server: tuple[str, int], target: Target, script: str, args: argparse.Namespace) -> Side:
    before = cpu_seconds(server[1])
    run = drive(server[0], target, script, args.clients, args.seconds)
    return Side(run, cpu_seconds(server[1]) - before)


def measure(layer: Layer, env: dict[str, str], credentials: dict[str, str],
            args: argparse.Namespace) -> list[tuple[Side, Side]]:  # fmt: skip
    """Each of the layer's endpoints on both servers. The server without the layer has a
    Redis database of its own: sharing one, it would read what the other one cached."""
    both = {**env, **layer.both}
    without = {**both, "BENCH_WITHOUT": layer.name, "REDIS_URL": REDIS_2}
    if layer.name == "page-cache":
        without["DETAIL_CACHE_SECONDS"] = "0"
    for url in (env["REDIS_URL"], REDIS_2):
        redis.Redis.from_url(url).flushdb()
    found = []
    with gunicorn(both) as (base, port, pid), gunicorn(without) as (plain, _, plain_pid):
        credentials = {**credentials, "cookie": login(port)}
        servers = ((base, pid), (plain, plain_pid))
        for target in layer.targets:
            script = lua(target, KEYS, credentials)
            for server, _ in servers:
                check(server, target, credentials)
                drive(server, target, script, 2, 1)  # warm: both workers, the caches
            turns: tuple[list[Side], list[Side]] = ([], [])
            for n in range(args.turns):
                for side in (0, 1) if n % 2 == 0 else (1, 0):
                    turns[side].append(turn(servers[side], target, script, args))
            found.append((summed(turns[0]), summed(turns[1])))
            show(layer.name, *found[-1])
    return found


def summed(sides: list[Side]) -> Side:
    runs = [s.run for s in sides]
    run = Run(runs[0].endpoint, runs[0].clients, sum(r.requests for r in runs),
              sum(r.seconds for r in runs), statistics.median(r.p50_ms for r in runs),
              max(r.p99_ms for r in runs), sum(r.errors for r in runs))  # fmt: skip
    return Side(run, sum(s.cpu_s for s in sides))


def show(name: str, with_: Side, without: Side) -> None:
    a, b = with_.run, without.run
    gain = a.rps / b.rps - 1 if b.rps else float("inf")
    print(f"{name:<18} {a.endpoint:<15} {a.rps:7.1f} {a.p50_ms:6.1f} {a.p99_ms:6.0f} "
          f"{with_.cpu_ms:6.2f} | {b.rps:7.1f} {b.p50_ms:6.1f} {b.p99_ms:6.0f} "
          f"{without.cpu_ms:6.2f} | {gain:+7.1%} {without.cpu_ms / with_.cpu_ms - 1:+7.1%}"
          f"  errors {a.errors}/{b.errors}", flush=True)  # fmt: skip


def measure_fleet(name: str, env: dict[str, str], token: str, args: argparse.Namespace) -> None:
    second = {**env, "REDIS_URL": REDIS_2, "BENCH_WITHOUT": name}
    found: tuple[list[tuple[float, float]], list[tuple[float, float]]] = ([], [])
    with stack(env, "with") as with_, stack(second, "without") as without:
        time.sleep(3)  # the workers connect to Redis
        for n in range(args.turns):
            for side in (0, 1) if n % 2 == 0 else (1, 0):
                base, pids = (with_, without)[side]
                found[side].append(fleet_upload(base, token, args.fleet, 2 * n + side, pids))
    (a, a_cpu), (b, b_cpu) = ([statistics.median(x) for x in zip(*f, strict=True)] for f in found)
    print(f"{name:<18} fleet of {args.fleet} | with {a:.1f} s, CPU {a_cpu:.1f} s | without "
          f"{b:.1f} s, CPU {b_cpu:.1f} s | {b / a - 1:+.1%}, CPU {b_cpu / a_cpu - 1:+.1%} "
          f"(medians; each turn, with/without: "
          f"{', '.join(f'{x[0]:.1f}/{y[0]:.1f}' for x, y in zip(*found, strict=True))})",
          flush=True)  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("layers", nargs="*", help=f"default: all of {', '.join(LAYERS)}")
    parser.add_argument("--turns", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rate", default="10000000/minute", help="API_RATE_USER of both")
    parser.add_argument("--fleet", type=int, default=0, help="servers per fleet upload")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("benchmarks/layers.py needs wrk on the PATH: apt-get install wrk")
    names = args.layers or (list(FLEET_LAYERS) if args.fleet else list(LAYERS))
    with tempfile.TemporaryDirectory(prefix="layers-bench-") as tmp:
        env = server_env(Path(tmp), os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS), args.rate)
        redis.Redis.from_url(env["REDIS_URL"]).flushdb()
        token, keys = prepare(env)
        KEYS.update(keys)
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; "
              f"{args.turns} turns of {args.seconds} s each side, {args.clients} clients",
              flush=True)  # fmt: skip
        print(f"{'layer':<18} {'endpoint':<15} {'with':>7} {'p50':>6} {'p99':>6} {'CPU':>6} | "
              f"{'without':>7} {'p50':>6} {'p99':>6} {'CPU':>6} | req/s, CPU gain "
              "(req/s, ms; CPU ms per request)")  # fmt: skip
        credentials = {"token": token}
        for name in names:
            if args.fleet:
                measure_fleet(name, env, token, args)
            else:
                measure(LAYERS[name], env, credentials, args)
        print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
