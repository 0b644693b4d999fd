"""SECRET_KEY: commands run without one; serving pages with DEBUG off refuses to start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "lemans-aix53-etl.json"


def fresh_shell(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """A command as a new user types it: no SECRET_KEY, no DEBUG, no settings module."""
    drop = ("SECRET_KEY", "DEBUG", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


@pytest.mark.slow
def test_read_only_commands_need_no_secret_key(tmp_path: Path) -> None:
    advise = fresh_shell("manage.py", "advise", str(EXAMPLE), "--out", str(tmp_path / "out"),
                         tmp_path=tmp_path)  # fmt: skip
    assert advise.returncode == 0, advise.stderr
    assert (tmp_path / "out" / "sasv9_append.cfg").exists()
    migrate = fresh_shell("manage.py", "migrate", "--noinput", tmp_path=tmp_path)
    assert migrate.returncode == 0, migrate.stderr
    check = fresh_shell("manage.py", "check", tmp_path=tmp_path)
    assert check.returncode == 0, check.stderr


@pytest.mark.slow
def test_serving_without_a_secret_key_is_refused(tmp_path: Path) -> None:
    done = fresh_shell("-c", "import advisor.wsgi", tmp_path=tmp_path)
    assert done.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in done.stderr
