"""scripts/run.sh keeps the web server up when its Celery worker dies: the worker is started
again (its pool and beat killed first), and past WORKER_RESTARTS restarts within a minute
it is left down with a message that says so, while the server goes on answering."""

from __future__ import annotations

import os
import re
import signal
import time
import urllib.request
from pathlib import Path

import pytest

from tests.deploy.embedded import embedded_default

pytestmark = pytest.mark.slow

STARTED = re.compile(r"run\.sh: Celery worker started \(process (\d+)\)")
WAIT_S = 30.0


def _workers(log: Path, count: int) -> list[int]:
    """The worker processes run.sh has started, once there are `count` of them."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        pids = [int(pid) for pid in STARTED.findall(log.read_text())]
        if len(pids) >= count:
            return pids
        time.sleep(0.2)
    raise AssertionError(f"no worker #{count} within {WAIT_S} s:\n{log.read_text()[-3000:]}")


def _wait_for(log: Path, text: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while text not in log.read_text():
        assert time.monotonic() < deadline, f"{text!r} not logged:\n{log.read_text()[-3000:]}"
        time.sleep(0.2)


def _healthy(url: str) -> bool:
    with urllib.request.urlopen(url + "/api/v1/health/", timeout=5) as answer:
        return bool(answer.status == 200)


def _live_in_group(pgid: int) -> list[int]:
    """The processes of group `pgid` still running: a killed one whose parent is gone stays
    a zombie until an init reaps it, which a container's first process may never do."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def _group_gone(pgid: int) -> bool:
    """Whether every process of the group has ended, waiting up to WAIT_S for it."""
    deadline = time.monotonic() + WAIT_S
    while _live_in_group(pgid):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)
    return True


def test_a_dead_worker_is_restarted_then_left_down_and_the_server_stays_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKER_RESTARTS", "1")
    with embedded_default(tmp_path) as app:
        [first] = _workers(app.log, 1)
        os.kill(first, signal.SIGKILL)  # as the worker's unrecoverable error ended it
        _wait_for(app.log, "ended (status 137); restarting it in 1s")
        assert _healthy(app.url)
        second = _workers(app.log, 2)[1]
        assert second != first
        os.kill(second, 0)  # running
        assert _group_gone(first)  # its pool and beat went with it

        os.kill(second, signal.SIGKILL)
        _wait_for(
            app.log, "reached its restart limit (WORKER_RESTARTS=1 within a minute): left down"
        )
        assert _healthy(app.url)
        assert _group_gone(second)
        time.sleep(1.5)  # longer than the first pause: no third worker comes
        assert len(_workers(app.log, 2)) == 2
        assert _healthy(app.url)
    log = app.log.read_text()
    assert "the web server stays up" in log and str(tmp_path / "broker") in log
