"""The fault tests' private stack (tests/faults/) as the hostile suite runs it: gunicorn
with the project's gunicorn.conf.py, a Celery worker on the production settings with beat
inside it (the sweeps run, as docker-compose.yml's beat service runs them), lowered task
time limits, webhooks to loopback allowed; a second gunicorn with webhooks to private
addresses refused; and a webhook receiver on loopback.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.faults.services import START_TIMEOUT_S, free_port, kill_group, spawn, wait_for
from tests.faults.stack import Stack, _worker_ready

# The workers' task time limits, lowered for the suite so that "2 minutes after the last
# chunk's time limit" is two and a half minutes away, not three and a half. Read by
# advisor/core/lifecycle.py (fleet chunks and report builds alike); code without it keeps
# its own limits (60 s soft, 90 s hard) and ignores the variables.
CHUNK_SOFT_LIMIT_S = 20
CHUNK_HARD_LIMIT_S = 30
TIME_LIMITS = {
    "WORKER_SOFT_LIMIT_S": str(CHUNK_SOFT_LIMIT_S),
    "WORKER_HARD_LIMIT_S": str(CHUNK_HARD_LIMIT_S),
}
# The acceptance: nothing left pending, queued or running this long after the last
# chunk's (or build's) hard time limit.
SETTLE_AFTER_LIMIT_S = 120
PASSWORD = "hostile-password-1"
# The production settings, static files collected into the suite's directory.
SETTINGS = "tests.hostile.web_settings"


class HostileStack(Stack):
    """The fault stack with the suite's environment on every process it starts."""

    extra_env: dict[str, str] = {"WEBHOOK_ALLOW_PRIVATE": "1", **TIME_LIMITS}

    def env(self, settings: str = SETTINGS, **extra: str) -> dict[str, str]:
        static = {"HOSTILE_STATIC_ROOT": str(self.base / "static")}
        return super().env(settings, **(self.extra_env | static | extra))

    def start(self) -> None:
        self.postgres.create()
        self.redis.start()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput", "--verbosity", "0")
        self.start_gunicorn()

    def start_real_worker(self) -> subprocess.Popen[bytes]:
        """A worker on the production settings, with beat (its sweeps every minute)."""
        log = self.logs / "worker-hostile.log"
        argv = [sys.executable, "-m", "celery", "-A", "advisor", "worker", "--beat",
                "-s", str(self.base / "beat-schedule"), "--pool=prefork", "--concurrency=2",
                "--loglevel=INFO", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "-n", "hostile@%h"]  # fmt: skip
        proc = spawn(argv, log, self.env())
        self.workers.append(proc)
        wait_for("hostile worker", lambda: _worker_ready(proc, log), START_TIMEOUT_S)
        return proc

    @contextmanager
    def strict_gunicorn(self) -> Iterator[tuple[str, int]]:
        """A second gunicorn on the same database, webhooks to private addresses refused
        (the production default); yields its base URL and its master's pid."""
        port = free_port()
        env = self.env(GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY="1",
                       WEBHOOK_ALLOW_PRIVATE="0")  # fmt: skip
        argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                "advisor.wsgi:application"]  # fmt: skip
        proc = spawn(argv, self.logs / "gunicorn-strict.log", env)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for("strict gunicorn", lambda: _answers(proc, base))
            yield base, proc.pid
        finally:
            kill_group(proc)

    def users(self) -> dict[str, str]:
        """An organisation with an admin (password login and API token) and two more
        members for the lockout case: {"token": …}."""
        code = (
            "from django.contrib.auth.models import User\n"
            "from rest_framework.authtoken.models import Token\n"
            "from advisor.models import Membership, Organisation\n"
            "org = Organisation.objects.create(name='hostile')\n"
            "for name in ('hostile-admin', 'hostile-a', 'hostile-b'):\n"
            f"    user = User.objects.create_user(username=name, password={PASSWORD!r})\n"
            "    Membership.objects.create(user=user, organisation=org,"
            " is_admin=name == 'hostile-admin')\n"
            "print(Token.objects.create(user=User.objects.get(username='hostile-admin')).key)\n"
        )
        return {"token": self.shell(code).strip().splitlines()[-1]}

    def open_work(self) -> list[tuple[Any, ...]]:
        """Every fleet, fleet server, report and log that waits or is being worked on."""
        return self.postgres.query(
            "SELECT 'fleet', id, status FROM advisor_fleet WHERE status IN ('queued', 'running')"
            " UNION ALL SELECT 'fleet item', id, status FROM advisor_fleetitem"
            " WHERE status = 'pending'"
            " UNION ALL SELECT 'report', id, status FROM advisor_report"
            " WHERE status IN ('queued', 'running')"
            " UNION ALL SELECT 'fleet report', id, status FROM advisor_fleetreport"
            " WHERE status IN ('queued', 'running')"
            " UNION ALL SELECT 'log', id, status FROM advisor_joblog"
            " WHERE status IN ('queued', 'running')"
        )


def _answers(proc: subprocess.Popen[bytes], base: str) -> bool:
    import urllib.request

    if proc.poll() is not None:
        raise RuntimeError("the strict gunicorn exited; see gunicorn-strict.log")
    try:
        with urllib.request.urlopen(base + "/api/v1/health/", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


class Receiver:
    """A webhook endpoint on loopback: keeps each delivery's JSON body, answers 204."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []
        received = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                received.append(json.loads(self.rfile.read(length) or b"{}"))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [body for body in self.bodies if body.get("type") == kind]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
