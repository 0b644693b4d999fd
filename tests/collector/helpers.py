"""Running sas-advisor-collect.sh in tests: the stamped script, the shells, a fake AIX.

The fake AIX (fake_aix/) is a directory of stub commands put first on PATH: each prints a
real captured AIX output from fake_aix/out/ (sources in fake_aix/SOURCES.md), chosen by
its argv, and logs the argv it was called with.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rules.collect import COLLECTOR_NAME, collector_script

HERE = Path(__file__).resolve().parent
FAKE_AIX = HERE / "fake_aix"
SHELLS = ("dash", "bash", "ksh")
SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"


def require(tool: str) -> str:
    """The tool's path; a missing tool skips the test, except in CI where it fails."""
    found = shutil.which(tool)
    if found is None:
        message = f"{tool} is not installed"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} (CI must provide it)")
        pytest.skip(message)
    return found


def script(directory: Path) -> Path:
    """The script as an admin downloads it, written into `directory`."""
    path = directory / COLLECTOR_NAME
    path.write_text(collector_script(), encoding="utf-8")
    return path


def run(
    shell: str,
    path: Path,
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run the script under `shell`; the timeout only guards against a hang."""
    return subprocess.run(
        [require(shell), str(path), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def fake_aix_env(log: Path, **extra: str) -> dict[str, str]:
    """PATH with the AIX stubs first; FAKE_AIX_LOG collects their argv."""
    return {"PATH": f"{FAKE_AIX / 'bin'}:{SYSTEM_PATH}", "FAKE_AIX_LOG": str(log), **extra}


def measured_bundle(directory: Path) -> str:
    """The bundle of `sas-advisor-collect.sh --measure DIR --measure-mb 8 --streams 2
    --measure-tool dd` run here: 16 MiB written and read back under `directory`/saswork."""
    work = directory / "saswork"
    work.mkdir()
    done = run(
        "sh", script(directory), "--measure", str(work), "--measure-mb", "8", "--streams", "2",
        "--measure-tool", "dd", "--out", "b.txt", cwd=directory,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return (directory / "b.txt").read_text()
