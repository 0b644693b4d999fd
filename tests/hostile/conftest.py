"""One stack for the whole hostile module (starting PostgreSQL, Redis, gunicorn and a
worker costs tens of seconds on 2 CPUs): the services of tests/faults/, gunicorn with the
project's gunicorn.conf.py, a real Celery worker with beat, an organisation with an
admin logged in over HTTP and a webhook to a receiver on loopback. Every request of the
module is journalled; the journal is written to test-artifacts/hostile/ at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.faults.services import ROOT, MissingBinary
from tests.hostile.client import Client, Journal, Memory
from tests.hostile.stack import PASSWORD, HostileStack, Receiver

ARTIFACTS = ROOT / "test-artifacts" / "hostile"


@dataclass
class Suite:
    stack: HostileStack
    journal: Journal
    api: Client  # the admin's token
    web: Client  # the admin's browser session
    receiver: Receiver
    fleets: dict[str, int] = field(default_factory=dict)  # named by the case that made them
    logs: dict[str, int] = field(default_factory=dict)  # the large logs queued, by source
    # When the last fleet or report was handed to the worker (time.monotonic()).
    last_queued: float = field(default_factory=time.monotonic)

    def client(self, token: str = "") -> Client:
        """Another client of the same gunicorn: a fresh session, or another token."""
        return Client(self.api.base, self.api.memory, self.journal, token)

    def queued(self) -> None:
        self.last_queued = time.monotonic()


def _missing(message: str) -> None:
    """Skip on a developer machine without the programs; fail in CI, which must have them."""
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must provide it)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def suite() -> Iterator[Suite]:
    # Under /tmp itself: the postgres user must reach its data directory inside.
    base = Path(tempfile.mkdtemp(prefix="advisor-hostile-"))
    base.chmod(0o755)
    try:
        stack = HostileStack(base)
    except MissingBinary as exc:
        shutil.rmtree(base, ignore_errors=True)
        _missing(str(exc))
    receiver = Receiver()
    journal = Journal()
    try:
        stack.start()
        stack.start_real_worker()
        yield _ready(stack, journal, receiver)
    finally:
        receiver.close()
        stack.stop()
        _keep(journal, stack.logs, base)
        shutil.rmtree(base, ignore_errors=True)


def _ready(stack: HostileStack, journal: Journal, receiver: Receiver) -> Suite:
    assert stack.gunicorn is not None
    base = f"http://127.0.0.1:{stack.web_port}"
    memory = Memory(stack.gunicorn.pid)
    token = stack.users()["token"]
    api = Client(base, memory, journal, token)
    web = Client(base, memory, journal)
    login = web.log_in("setup", "hostile-admin", PASSWORD)
    assert login.status == 302, login.body[:500]
    hook = api.json("setup", "POST", "/api/v1/webhooks/",
                    {"url": receiver.url, "events": ["fleet.completed"]})  # fmt: skip
    assert hook.status == 201, hook.body[:500]
    return Suite(stack, journal, api, web, receiver)


def _keep(journal: Journal, logs: Path, base: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "requests.txt").write_text(journal.table() + "\n")
    for path in [*logs.glob("*.log"), base / "pg" / "postgres.log"]:
        if path.exists():
            shutil.copyfile(path, ARTIFACTS / path.name)
