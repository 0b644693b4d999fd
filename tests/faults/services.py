"""Private services for the fault tests: a PostgreSQL cluster, a redis-server, Celery
workers and gunicorn, each on a free loopback port, in a temporary directory, in its own
process group, so a test can kill or stop any of them without touching the machine's
shared PostgreSQL (5432) or Redis (6379)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
# A cold Python process importing Django, Celery and WeasyPrint takes several seconds on a
# busy 2-core machine; these bound the start of each service, not the scenarios.
START_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 15.0


class MissingBinary(Exception):
    """A program the fault tests need is not installed."""


def free_port() -> int:
    """A loopback port nothing listens on now (the kernel's pick for an ephemeral bind)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def wait_for(what: str, ready: Callable[[], bool], timeout_s: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if ready():
            return
        time.sleep(0.2)
    raise TimeoutError(f"{what} not ready after {timeout_s} s")


def find_binary(name: str) -> str:
    """The program on PATH, or in the newest /usr/lib/postgresql/<version>/bin."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
        key=lambda path: int(Path(path).parts[-3]) if Path(path).parts[-3].isdigit() else 0,
    )
    if not candidates:
        raise MissingBinary(f"{name} is not installed")
    return candidates[-1]


def kill_group(proc: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGTERM) -> None:
    """Signal the process group (a worker's pool children, gunicorn's workers); escalate to
    SIGKILL when it does not exit in time."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=STOP_TIMEOUT_S)
    # Children that outlived their parent are still in the group.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def spawn(argv: list[str], log: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """Start a program as the leader of a new process group (killed as a whole), its output
    appended to `log`."""
    with log.open("ab") as out:
        return subprocess.Popen(
            argv, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip


class Postgres:
    """A throwaway cluster: trust authentication on 127.0.0.1, no fsync (nothing here must
    survive a power cut), stopped and started with pg_ctl like a real outage."""

    def __init__(self, base: Path) -> None:
        self.initdb, self.pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        # As root, PostgreSQL refuses to run: everything runs as the postgres user, whose
        # directory this is.
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_owner and not shutil.which("runuser"):
            raise MissingBinary("runuser is not installed (needed to run PostgreSQL as root)")
        self.base = base
        self.data = base / "data"
        self.log = base / "postgres.log"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/advisor"

    def _run(self, *argv: str) -> None:
        subprocess.run([*self.as_owner, *argv], check=True, capture_output=True, timeout=120)

    def create(self) -> None:
        if self.as_owner:
            shutil.chown(self.base, "postgres", "postgres")
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust",
                  "--no-sync", "-E", "UTF8")  # fmt: skip
        self.start()
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE advisor")

    def dsn(self, database: str = "advisor") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={database}"

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.base} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(self.pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options,
                  "-w", "-t", "60", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists() and listening(self.port)

    def destroy(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self.stop("immediate")
            except (subprocess.SubprocessError, OSError):
                self._kill_postmaster()

    def _kill_postmaster(self) -> None:
        try:
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError, IndexError):
            pass

    def query(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        with psycopg.connect(self.dsn(), connect_timeout=5) as conn:
            return conn.execute(sql, params).fetchall()


class RedisServer:
    """redis-server with no persistence: killed, it comes back empty, like a broker whose
    disk was lost, so every message it held is gone."""

    def __init__(self, base: Path) -> None:
        self.binary = find_binary("redis-server")
        self.base = base
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.base)]  # fmt: skip
        self.proc = spawn(argv, self.base / "redis.log", os.environ)
        wait_for("redis-server", lambda: listening(self.port))

    def kill(self) -> None:
        if self.proc is not None:
            kill_group(self.proc, signal.SIGKILL)
            self.proc = None

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None
