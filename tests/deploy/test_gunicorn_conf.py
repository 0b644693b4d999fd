"""gunicorn.conf.py: one worker per CPU the container may use."""

from __future__ import annotations

import os
import runpy
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT


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
