"""The application on the private services: migrated database, gunicorn, Celery workers,
management commands, and an HTTP client that records every answer."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.faults.services import (
    ROOT,
    START_TIMEOUT_S,
    Postgres,
    RedisServer,
    free_port,
    kill_group,
    spawn,
    wait_for,
)

# Variables of the surrounding test run that would point a child at the shared services.
INHERITED_OUT = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DJANGO_SETTINGS_MODULE")
# Below gunicorn's 20 s worker timeout: a request that hangs on a dead service fails here,
# as a hang, instead of coming back as whatever gunicorn answers when it cuts it off.
HTTP_TIMEOUT_S = 15.0


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class Api:
    """urllib against the private gunicorn, one token; every status is kept in `seen`."""

    base: str
    token: str = ""
    seen: list[int] = field(default_factory=list)

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Answer:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Token {self.token}")
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
                answer = Answer(response.status, dict(response.headers), _json(response.read()))
        except urllib.error.HTTPError as error:
            answer = Answer(error.code, dict(error.headers), _json(error.read()))
        self.seen.append(answer.status)
        return answer


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")


class Stack:
    """PostgreSQL and Redis of their own, the app migrated on them, gunicorn serving it and
    any number of Celery workers (started by the tests, with the slowness they need)."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.logs = base / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.media = base / "media"
        self.media.mkdir()
        pg_dir = base / "pg"
        pg_dir.mkdir()
        self.postgres = Postgres(pg_dir)
        self.redis = RedisServer(base)
        self.web_port = free_port()
        self.gunicorn: subprocess.Popen[bytes] | None = None
        self.workers: list[subprocess.Popen[bytes]] = []
        # Strong and random: advisor.wsgi refuses to serve with a weak key and DEBUG off.
        self.secret_key = secrets.token_urlsafe(48)

    def env(self, settings: str = "advisor.settings", **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in INHERITED_OUT}
        return (
            env
            | {
                "DATABASE_URL": self.postgres.url,
                "REDIS_URL": self.redis.url,
                "SECRET_KEY": self.secret_key,
                "DJANGO_SETTINGS_MODULE": settings,
                "DEBUG": "0",
                "ALLOWED_HOSTS": "127.0.0.1",
                "MEDIA_ROOT": str(self.media),
                "LOG_LEVEL": "INFO",
            }
            | extra
        )

    # -- life cycle --------------------------------------------------------------------

    def start(self) -> None:
        self.postgres.create()
        self.redis.start()
        self.manage("migrate", "--noinput")
        self.start_gunicorn()

    def stop(self) -> None:
        for proc in [*self.workers, *([self.gunicorn] if self.gunicorn else [])]:
            kill_group(proc, signal.SIGTERM)
        self.workers.clear()
        self.redis.kill()
        self.postgres.destroy()

    def revive(self) -> None:
        """Bring back whatever an earlier, failed test left down."""
        if not self.postgres.running():
            self.postgres.start()
        if not self.redis.running():
            self.redis.start()

    def start_gunicorn(self) -> None:
        env = self.env(GUNICORN_BIND=f"127.0.0.1:{self.web_port}", WEB_CONCURRENCY="2")
        argv = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py",
                "advisor.wsgi:application"]  # fmt: skip
        self.gunicorn = spawn(argv, self.logs / "gunicorn.log", env)
        wait_for("gunicorn", lambda: self._health_answers())

    def _health_answers(self) -> bool:
        if self.gunicorn is not None and self.gunicorn.poll() is not None:
            raise RuntimeError(f"gunicorn exited; see {self.logs / 'gunicorn.log'}")
        try:
            return self.anonymous().call("GET", "/api/v1/health/").status == 200
        except OSError:
            return False

    def start_worker(self, name: str, *, slow_build_s: float = 0, visibility_s: int = 120,
                     concurrency: int = 1) -> subprocess.Popen[bytes]:  # fmt: skip
        """A Celery worker on tests.reports.worker_settings: builds sleep `slow_build_s`
        once marked running; Redis hands an unacknowledged job on after `visibility_s`."""
        env = self.env(
            "tests.reports.worker_settings",
            SLOW_REPORT_BUILD_S=str(slow_build_s),
            CELERY_VISIBILITY=str(visibility_s),
        )
        log = self.logs / f"worker-{name}.log"
        argv = [sys.executable, "-m", "celery", "-A", "advisor", "worker", "--pool=prefork",
                f"--concurrency={concurrency}", "--loglevel=INFO", "--without-gossip",
                "--without-mingle", "--without-heartbeat", "-n", f"faults-{name}@%h"]  # fmt: skip
        proc = spawn(argv, log, env)
        self.workers.append(proc)
        wait_for(f"worker {name}", lambda: _worker_ready(proc, log), START_TIMEOUT_S)
        return proc

    def kill_worker(self, proc: subprocess.Popen[bytes]) -> None:
        kill_group(proc, signal.SIGKILL)

    # -- the app's own commands ----------------------------------------------------------

    def manage(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env=self.env(),
            capture_output=True, text=True, timeout=START_TIMEOUT_S * 2,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-4000:]}")
        return done.stdout

    def shell(self, code: str) -> str:
        return self.manage("shell", "-c", code)

    def member_token(self, name: str) -> str:
        """A user in an organisation of their own (the open-report budget is counted per
        organisation, so the scenarios never share it), and their API token."""
        code = (
            "from django.contrib.auth.models import User\n"
            "from rest_framework.authtoken.models import Token\n"
            "from advisor.models import Membership, Organisation\n"
            f"org = Organisation.objects.create(name={name!r})\n"
            f"user = User.objects.create_user(username={name!r}, password=None)\n"
            "Membership.objects.create(user=user, organisation=org)\n"
            "print(Token.objects.create(user=user).key)\n"
        )
        return self.shell(code).strip().splitlines()[-1]

    def requeue_stuck_ahead(self, seconds: float) -> list[int]:
        """The reports sweep run now, as if `seconds` had passed: what an operator can run
        (`manage.py shell`) instead of waiting for beat's sweep to find them stale."""
        code = (
            "from datetime import timedelta\n"
            "from django.utils import timezone\n"
            "from advisor.reports.services import requeue_stuck\n"
            f"print(requeue_stuck(now=timezone.now() + timedelta(seconds={seconds})))\n"
        )
        printed = self.shell(code).strip().splitlines()[-1]
        return [int(part) for part in printed.strip("[]").split(",") if part.strip()]

    def anonymous(self) -> Api:
        return Api(f"http://127.0.0.1:{self.web_port}")

    def api(self, token: str) -> Api:
        return Api(f"http://127.0.0.1:{self.web_port}", token)


def _worker_ready(proc: subprocess.Popen[bytes], log: Path) -> bool:
    if proc.poll() is not None:
        raise RuntimeError(f"worker exited with {proc.returncode}; see {log}")
    # Celery logs "<name> ready." once it consumes from the queue.
    return " ready." in log.read_text(errors="replace")


def wait_until(what: str, check: Any, timeout_s: float, interval_s: float = 0.5) -> float:
    """Seconds until `check()` is true; fails after `timeout_s`."""
    start = time.monotonic()
    while True:
        if check():
            return time.monotonic() - start
        if time.monotonic() - start > timeout_s:
            raise AssertionError(f"{what}: not within {timeout_s} s")
        time.sleep(interval_s)
