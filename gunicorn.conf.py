"""gunicorn settings for the web service: the Dockerfile, docker-compose.yml and
benchmarks/api.py all start gunicorn with `-c gunicorn.conf.py`.

    WEB_CONCURRENCY  worker processes (default: one per CPU this process may use)
    GUNICORN_WORKER_CLASS  gthread (default: safe with no proxy in front) or sync (behind
                     a buffering proxy, as docker-compose.yml runs it: faster)
    GUNICORN_THREADS threads per gthread worker (default 8)
    GUNICORN_BIND    address to listen on (default 0.0.0.0:8000)

Each thread holds its own persistent database connection (CONN_MAX_AGE), so one web
container may open WEB_CONCURRENCY x GUNICORN_THREADS connections to PostgreSQL: keep that,
plus the Celery workers', under the server's max_connections (100 by default).
"""

from __future__ import annotations

import gc
import math
import os
from pathlib import Path
from typing import Any

CPU_MAX = Path("/sys/fs/cgroup/cpu.max")  # cgroup v2: "<quota> <period>" or "max <period>"


def usable_cpus(cpu_max: Path = CPU_MAX) -> int:
    """CPUs this process may run on, capped by a container's CPU quota (`--cpus 1.5` -> 2).

    os.cpu_count() reports the host's CPUs, which inside a container can be many more than
    the container may use.
    """
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    try:
        quota, period = cpu_max.read_text().split()[:2]
        if quota != "max":
            return max(1, min(cpus or 1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cpus or 1)


bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Requests are CPU-bound Python; a write waits under a millisecond for PostgreSQL. One
# worker per CPU measured best with benchmarks/api.py on 2 CPUs (figures in its docstring):
# more workers only time-slice the same CPUs against each other.
workers = int(os.environ.get("WEB_CONCURRENCY", str(usable_cpus())))
# Threaded workers, because gunicorn is not always behind a proxy (a bare `docker run`, the
# benchmarks, a host without docker-compose.yml's nginx). A sync worker serves one socket at
# a time and reads the request itself, so a client that sends its headers a byte at a time
# holds the whole worker until `timeout` kills it: two such clients stop a 2-CPU service.
# gunicorn's documentation says as much: sync workers need a buffering proxy in front. A
# gthread worker waits for a connection's first bytes in its event loop and reads a request
# in one of `threads` threads, so a slow client takes one thread, not a worker. It is a
# mitigation, not a cure: a thread still waits for a trickled request to finish, so
# workers x threads slow clients would fill every slot; nginx (deploy/nginx.conf) buffers
# whole requests and responses so that gunicorn only ever sees complete ones.
# More threads add no throughput to CPU-bound requests (they share the worker's GIL); they
# are slots for waiting: slow clients, PostgreSQL, Redis.
# Behind nginx (docker-compose.yml) requests arrive whole, and sync workers serve the
# CPU-bound endpoints at twice gthread's rate at 8-32 clients (gthread workers accept
# connections unevenly and run requests side by side on one GIL; benchmarks/api.py:
# uncached advice 729 vs 333 req/s at 32 clients): there GUNICORN_WORKER_CLASS=sync.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = int(os.environ.get("GUNICORN_THREADS", "8")) if worker_class == "gthread" else 1
# For a gthread worker `timeout` is the heartbeat of its event loop, not a request's
# length (a thread is never killed): it only replaces a wedged worker, so it can be short
# without cutting off a long fleet upload.
timeout = 20
# Seconds a connection may stay open, idle, between requests. Short, for clients that
# come straight to gunicorn; nginx keeps its upstream connections for less (4 s) so that
# it never sends a request on a connection gunicorn is closing.
keepalive = 5
backlog = 2048
# Load the app once in the master and fork it: workers start fast and share its pages.
preload_app = True


def when_ready(server: Any) -> None:
    # Everything the app allocated while loading lives as long as the process: move it out
    # of the collector's reach, so a full collection in a worker scans only the request's
    # objects, and the forked copies are not touched (and copied) by collections.
    gc.freeze()
