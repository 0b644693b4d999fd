"""Fixtures for the fault tests: one private stack per module (PostgreSQL, Redis, the
migrated app, gunicorn), workers per test, everything killed at the end even on failure.

The services are the tests' own, on free loopback ports: a test stops PostgreSQL or kills
Redis at will, and the machine's shared servers (5432, 6379) are never contacted.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.faults.services import ROOT, MissingBinary
from tests.faults.stack import Stack

# Service logs are copied here at the end, for a failure to be read after the run.
ARTIFACTS = ROOT / "test-artifacts" / "faults"


def _missing(message: str) -> None:
    """Skip on a developer machine without the programs; fail in CI, which must have them."""
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must provide it)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    # Under /tmp itself, not pytest's per-user directory (mode 700): the postgres user
    # must be able to reach its data directory inside.
    base = Path(tempfile.mkdtemp(prefix="advisor-faults-"))
    base.chmod(0o755)
    try:
        services = Stack(base)
    except MissingBinary as exc:
        shutil.rmtree(base, ignore_errors=True)
        _missing(str(exc))
    try:
        services.start()
        yield services
    finally:
        services.stop()
        _keep_logs(services.logs, base / "pg" / "postgres.log", base / "redis.log")
        shutil.rmtree(base, ignore_errors=True)


def _keep_logs(logs: Path, *more: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for path in [*logs.glob("*.log"), *more]:
        if path.exists():
            shutil.copyfile(path, ARTIFACTS / path.name)


@pytest.fixture
def app(stack: Stack) -> Iterator[Stack]:
    """The stack with both services up, and no worker left from the test before; the
    test's workers are killed (process group) when it ends, whatever happened."""
    stack.revive()
    yield stack
    for proc in stack.workers:
        stack.kill_worker(proc)
    stack.workers.clear()
    stack.revive()
