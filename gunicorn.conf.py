"""gunicorn settings for the web service: the Dockerfile, docker-compose.yml and
benchmarks/api.py all start gunicorn with `-c gunicorn.conf.py`.

    WEB_CONCURRENCY  sync workers (default: one per CPU this process may use)
    GUNICORN_BIND    address to listen on (default 0.0.0.0:8000)
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
backlog = 2048
# Load the app once in the master and fork it: workers start fast and share its pages.
preload_app = True


def when_ready(server: Any) -> None:
    # Everything the app allocated while loading lives as long as the process: move it out
    # of the collector's reach, so a full collection in a worker scans only the request's
    # objects, and the forked copies are not touched (and copied) by collections.
    gc.freeze()
