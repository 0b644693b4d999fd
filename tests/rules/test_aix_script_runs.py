"""aix_tuning.sh run under a fake AIX: it refuses the wrong machine, backs up before it
changes anything, rolls back exactly, and a dry run changes nothing."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

import rules
from tests.conftest import example
from tests.rules.aix_script import SHELLS, STATE, FakeAix, script, tunable

FakeFactory = Callable[..., FakeAix]


@pytest.fixture
def fake(tmp_path: Path) -> FakeFactory:
    return lambda **kw: FakeAix(tmp_path, **kw)


@pytest.mark.parametrize(("uname", "oslevel"), [("Linux", "5.3.0.0"), ("AIX", "7.2.0.0"),
                                                ("AIX", "5.30.0.0")])  # fmt: skip
def test_refuses_off_aix_or_another_release(fake: FakeFactory, uname: str, oslevel: str) -> None:
    aix = fake(uname=uname, oslevel=oslevel)
    done = aix.run(script())
    assert done.returncode != 0
    assert "refusing to run" in done.stderr
    assert aix.changes() == [] and not aix.root.exists()
    assert aix.values() == STATE


@pytest.mark.parametrize("shell", SHELLS)
def test_backs_up_then_changes_then_rolls_back(fake: FakeFactory, shell: str) -> None:
    aix = fake(restricted=())
    before = aix.values()
    done = aix.run(script(), shell=shell)
    assert done.returncode == 0, done.stderr
    changes = aix.changes()
    assert [(c["prog"], c["argv"]) for c in changes] == [
        ("ioo", ["-p", "-o", "j2_minPageReadAhead=16"]),
        ("ioo", ["-p", "-o", "sync_release_ilock=1"]),
        ("vmo", ["-p", "-o", "maxclient%=60"]),
        ("vmo", ["-p", "-o", "maxperm%=60"]),
        ("vmo", ["-p", "-o", "strict_maxperm=1"]),
    ]
    assert all(c["backup"] for c in changes)
    saved = aix.backup_dir()
    names = {p.name for p in saved.iterdir()}
    assert names >= {"ioo-a.txt", "vmo-a.txt", "rollback.sh"}
    assert {"lsattr-El-fscsi0.txt", "lsattr-El-hdisk0.txt"} <= names
    assert "maxperm% = 80" in (saved / "vmo-a.txt").read_text()
    assert aix.values()["vmo"]["maxperm%"] == "60"
    assert f"sh {saved}/rollback.sh" in done.stdout
    assert "max_transfer 0x40000" in done.stdout and "expect: 0x40000" in done.stdout

    if shutil.which("shellcheck"):
        lint = subprocess.run(["shellcheck", "-s", "sh", str(saved / "rollback.sh")])
        assert lint.returncode == 0
    undo = subprocess.run([shell, str(saved / "rollback.sh")], env=aix.env, capture_output=True)
    assert undo.returncode == 0
    assert aix.values() == before
    assert [(c["prog"], c["argv"]) for c in aix.changes()[5:]] == [
        ("vmo", ["-p", "-o", "strict_maxperm=0"]),
        ("vmo", ["-p", "-o", "maxperm%=80"]),
        ("vmo", ["-p", "-o", "maxclient%=80"]),
        ("ioo", ["-p", "-o", "sync_release_ilock=0"]),
        ("ioo", ["-p", "-o", "j2_minPageReadAhead=2"]),
    ]


@pytest.mark.parametrize("shell", SHELLS)
def test_never_touches_a_restricted_tunable(fake: FakeFactory, shell: str) -> None:
    """IBM 'Tunable parameters type': restricted tunables are not for end users and -p asks
    for confirmation. The script lists without -F, so they have no value and are skipped,
    even when a rule (wrongly) asks to change one."""
    aix = fake()  # maxperm% and sync_release_ilock restricted, as on AIX 6.1+
    done = aix.run(script(), shell=shell)
    assert done.returncode == 0, done.stderr
    assert all("-F" not in c["argv"] for c in aix.calls() if c["prog"] in ("ioo", "vmo"))
    assert [c["argv"][-1] for c in aix.changes()] == [
        "j2_minPageReadAhead=16",
        "strict_maxperm=1",
    ]
    assert "skip: vmo maxperm% is not in the plain vmo -a listing" in done.stdout
    assert "skip: ioo sync_release_ilock is not in the plain ioo -a listing" in done.stdout
    rollback = (aix.backup_dir() / "rollback.sh").read_text()
    assert "maxperm%=" not in rollback and "sync_release_ilock=" not in rollback


def test_dry_run_changes_nothing(fake: FakeFactory) -> None:
    aix = fake(restricted=())
    done = aix.run(script(), "-n")
    assert done.returncode == 0, done.stderr
    assert "would change: vmo maxperm% from 80 to 60" in done.stdout
    assert "Dry run finished" in done.stdout
    assert aix.changes() == [] and not aix.root.exists()
    assert aix.values()["vmo"]["maxperm%"] == "80"


def test_leaves_alone_what_it_could_not_undo(fake: FakeFactory) -> None:
    aix = fake()
    recs = (tunable("vmo", "no_such_tunable", "5", "1"),
            tunable("ioo", "numfsbufs", "196", "196"))  # fmt: skip
    done = aix.run(script(recs))
    assert done.returncode == 0, done.stderr
    assert "skip: vmo no_such_tunable is not in the plain vmo -a listing" in done.stdout
    assert "ok: ioo numfsbufs is already 196" in done.stdout
    assert aix.changes() == []
    assert "restore " not in (aix.backup_dir() / "rollback.sh").read_text()


def test_stops_at_a_failed_change_and_points_to_the_rollback(fake: FakeFactory) -> None:
    aix = fake(restricted=())
    aix.env["STUB_FAIL"] = "maxperm%"
    done = aix.run(script())
    assert done.returncode == 1
    assert "vmo -p -o maxperm%=60 failed; stopping" in done.stderr
    assert f"sh {aix.backup_dir()}/rollback.sh" in done.stderr
    assert aix.values()["vmo"]["strict_maxperm"] == "0"  # never reached
    subprocess.run(["sh", str(aix.backup_dir() / "rollback.sh")], env=aix.env, check=False)
    assert aix.values()["ioo"]["sync_release_ilock"] == "0"


@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix"])
def test_example_scripts_round_trip_under_fake_aix(fake: FakeFactory, name: str) -> None:
    aix = fake(restricted=())
    before = aix.values()
    done = aix.run(rules.advise(example(name))["artifacts"]["aix_tuning.sh"])
    assert done.returncode == 0, done.stderr
    assert all(c["backup"] for c in aix.changes())
    subprocess.run(["sh", str(aix.backup_dir() / "rollback.sh")], env=aix.env, check=True)
    assert aix.values() == before
