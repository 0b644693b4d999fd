"""The embedded default as a user starts it: `scripts/run.sh` (SQLite, a Celery worker over
a broker of files, the development server) on a free port with its own database file and
broker folder, stopped with its whole process group. Used by the embedded default's test
and by benchmarks/embedded_report.py."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 180.0  # migrations and the seed on a busy CI machine
DEMO = {"username": "demo", "password": "demo-password"}
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass(frozen=True)
class Embedded:
    url: str
    log: Path


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"scripts/run.sh exited:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(url + "/api/v1/health/", timeout=2).close()
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.5)
    raise RuntimeError(f"scripts/run.sh did not answer at {url}:\n{log.read_text()[-3000:]}")


def _free_port() -> int:
    # Imported by a benchmark without Django, hence not tests.conftest's closed_port.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@contextmanager
def embedded_default(folder: Path) -> Iterator[Embedded]:
    """scripts/run.sh serving on 127.0.0.1:<free port> until the block ends."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env |= {"DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}", "ADDR": f"127.0.0.1:{port}",
            "CELERY_BROKER_DIR": str(folder / "broker"), "LOG_LEVEL": "WARNING",
            "DEBUG": "1"}  # fmt: skip
    log = folder / "run.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(ROOT / "scripts" / "run.sh")], cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        _wait_until_up(f"http://127.0.0.1:{port}", process, log)
        yield Embedded(f"http://127.0.0.1:{port}", log)
    finally:
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """TERM to the whole group (the script, the worker and the server), KILL if it stays."""
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
