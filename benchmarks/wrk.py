"""Drive one endpoint with wrk for a fixed time and read its figures (benchmarks/api.py)."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from dataclasses import dataclass
from itertools import count
from typing import Any


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expect: int
    body: Any = None
    auth: bool = True
    unique: bool = False  # a distinct inventory per request: defeats the advice memo


@dataclass(frozen=True)
class Run:
    endpoint: str
    clients: int
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0


def lua_string(text: str) -> str:
    """A Lua string literal for ASCII text (json.dumps output is ASCII)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


RUN_IDS = count()

# No response() hook: with one, wrk copies every response body into Lua, which costs the
# harness more for a 30 kB answer than for health's few bytes and skews the comparison.
# wrk counts statuses >= 400 itself (errors.status); `expect_status` checks the exact
# status once before each run.
LUA_TAIL = """
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH requests=%d duration_us=%d bad_status=%d socket=%d\\n",
    summary.requests, summary.duration, e.status,
    e.connect + e.read + e.write + e.timeout))
end
"""


def lua_script(endpoint: Endpoint, token: str) -> str:
    headers = {}
    if endpoint.body is not None:
        headers["Content-Type"] = "application/json"
    if endpoint.auth:
        headers["Authorization"] = f"Token {token}"
    lines = [f"wrk.method = {lua_string(endpoint.method)}"]
    lines += [f"wrk.headers[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items()]
    if endpoint.unique:
        # A new inventory name per request (thread id, run id and a counter) so the
        # advice memo never hits; the body is built in Lua from the two halves around it.
        marker = "\x00NAME\x00"
        head, tail = json.dumps({**endpoint.body, "name": marker}).split(json.dumps(marker))
        lines += [
            f"local head, tail = {lua_string(head)}, {lua_string(tail)}",
            f"local run = {next(RUN_IDS)}",
            "local n = 0",
            "local next_id = 0",
            "function setup(thread)",
            "  next_id = next_id + 1",
            "  thread:set('id', next_id)",
            "end",
            "function request()",
            "  n = n + 1",
            "  local name = string.format('\"bench %d-%d-%d\"', run, id, n)",
            "  return wrk.format(nil, nil, nil, head .. name .. tail)",
            "end",
        ]
    elif endpoint.body is not None:
        lines.append(f"wrk.body = {lua_string(json.dumps(endpoint.body))}")
    return "\n".join(lines) + "\n" + LUA_TAIL


UNITS_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}
PERCENTILE_LINE = re.compile(r"^\s*(50|99)(?:\.0+)?%\s+([\d.]+)(us|ms|s|m|h)\s*$", re.M)
BENCH_LINE = re.compile(r"^BENCH (.*)$", re.M)


def drive(base: str, endpoint: Endpoint, token: str, clients: int, seconds: int) -> Run:
    # One wrk thread: its event loop keeps 32 connections busy at these rates, and on two
    # CPUs a second thread only takes CPU time from the server it is measuring.
    with tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="bench-") as script:
        script.write(lua_script(endpoint, token))
        script.flush()
        command = [
            "wrk", "--latency", "--timeout", "10s", "-d", f"{seconds}s",
            "-t", "1", "-c", str(clients), "-s", script.name,
            base + endpoint.path,
        ]  # fmt: skip
        out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    found = BENCH_LINE.search(out.stdout)
    latencies = {p: float(v) * UNITS_MS[u] for p, v, u in PERCENTILE_LINE.findall(out.stdout)}
    if out.returncode != 0 or found is None or set(latencies) != {"50", "99"}:
        raise SystemExit(f"wrk failed on {endpoint.name} at {clients} clients:\n"
                         f"{out.stdout}{out.stderr}")  # fmt: skip
    fields = dict(item.split("=") for item in found.group(1).split())
    return Run(
        endpoint.name,
        clients,
        requests=int(fields["requests"]),
        seconds=int(fields["duration_us"]) / 1e6,
        p50_ms=latencies["50"],
        p99_ms=latencies["99"],
        errors=int(fields["bad_status"]) + int(fields["socket"]),
    )
