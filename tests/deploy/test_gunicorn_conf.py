"""gunicorn.conf.py: one threaded worker per CPU the container may use."""

from __future__ import annotations

import os
import re
import runpy
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

NGINX_CONF = ROOT / "deploy" / "nginx.conf"


def conf() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def affinity() -> int:
    return len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    ("cpu_max", "expected"),
    [("max 100000\n", None), ("150000 100000\n", 2), ("50000 100000\n", 1),
     ("100000000 100000\n", None), ("garbage\n", None)],
)  # fmt: skip
def test_the_cgroup_quota_caps_workers(tmp_path: Path, cpu_max: str, expected: int | None) -> None:
    path = tmp_path / "cpu.max"
    path.write_text(cpu_max)

    assert conf()["usable_cpus"](path) == min(expected or affinity(), affinity())


def test_without_a_cgroup_file_the_affinity_counts(tmp_path: Path) -> None:
    assert conf()["usable_cpus"](tmp_path / "missing") == affinity()


def test_web_concurrency_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEB_CONCURRENCY", "5")

    assert conf()["workers"] == 5


def test_workers_are_threaded_so_a_slow_client_takes_a_thread_not_a_worker() -> None:
    settings = conf()

    assert settings["worker_class"] == "gthread"
    assert settings["threads"] == 8
    assert settings["preload_app"] is True


def test_gunicorn_threads_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_THREADS", "3")

    assert conf()["threads"] == 3


def test_behind_the_proxy_compose_runs_sync_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GUNICORN_WORKER_CLASS", "sync")
    settings = conf()
    compose = (NGINX_CONF.parent.parent / "docker-compose.yml").read_text()

    assert (settings["worker_class"], settings["threads"]) == ("sync", 1)
    assert "GUNICORN_WORKER_CLASS: sync" in compose


def test_nginx_lets_go_of_idle_connections_before_gunicorn_closes_them() -> None:
    """Otherwise nginx may send a request on a connection gunicorn is closing, and a POST
    is not retried: the client gets a 502."""
    upstream = re.search(r"upstream web \{(.*?)\}", NGINX_CONF.read_text(), re.DOTALL)
    assert upstream is not None
    nginx_idle = re.search(r"keepalive_timeout (\d+)s;", upstream.group(1))
    assert nginx_idle is not None

    assert int(nginx_idle.group(1)) < conf()["keepalive"]
