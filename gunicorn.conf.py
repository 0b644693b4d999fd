"""gunicorn settings for the web service: the Dockerfile, docker-compose.yml and
benchmarks/api.py all start gunicorn with `-c gunicorn.conf.py`.

    WEB_CONCURRENCY  sync workers (default: one per CPU)
    GUNICORN_BIND    address to listen on (default 0.0.0.0:8000)
"""

from __future__ import annotations

import gc
import os
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
# Requests are CPU-bound Python; a write waits under a millisecond for PostgreSQL. One
# worker per CPU measured best with benchmarks/api.py on 2 CPUs (figures in its docstring):
# more workers only time-slice the same CPUs against each other.
workers = int(os.environ.get("WEB_CONCURRENCY", str(os.cpu_count() or 1)))
backlog = 2048
# Load the app once in the master and fork it: workers start fast and share its pages.
preload_app = True


def when_ready(server: Any) -> None:
    # Everything the app allocated while loading lives as long as the process: move it out
    # of the collector's reach, so a full collection in a worker scans only the request's
    # objects, and the forked copies are not touched (and copied) by collections.
    gc.freeze()
