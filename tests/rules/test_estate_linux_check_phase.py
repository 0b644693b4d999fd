"""Issue 24: "the scripts stop before their first change when a later change would be
refused". linux_tuning.sh checks every change before the first (as aix_tuning.sh does,
tests/rules/test_aix_plan_order.py): each sysctl key exists under /proc/sys, each file it
writes exists and is writable, and the kernel takes the value where that is knowable (a
choice list offers it; Documentation/admin-guide/sysctl/vm.rst: the dirty ratios are
percentages, swappiness 0..100, 0..200 from 5.8; mm/page-writeback.c: dirty_bytes at least
two pages). A refusal stops it with the reason and nothing changed, written or backed up."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.rules.linux_script import SHELLS, FakeLinux, generated

RHEL9 = "linux-rhel9-sas94"
LIB = Path(__file__).parents[2] / "rules/render/linux_tuning_lib.sh"


def refused_run(fake: FakeLinux, script: Path, shell: str, *args: str) -> str:
    """Run the script and return its stderr, asserting it refused and changed nothing."""
    before = fake.snapshot()
    done = fake.run(script, *args, shell=shell)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "nothing was changed" in done.stderr
    assert fake.snapshot() == before
    assert not fake.backups.exists()
    assert all(c["argv"] == ["active"] for c in fake.calls() if c["prog"] == "tuned-adm")
    return done.stderr


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("tuned", [True, False])
def test_linux_script_refused_later_change_leaves_nothing_applied(
    tmp_path: Path, shell: str, tuned: bool
) -> None:
    """vm.swappiness comes after THP and the dirty ratios in the plan; without its sysctl
    key the run stops before THP or vm.dirty_ratio change, with or without tuned."""
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake", tuned=tuned)
    (fake.root / "proc/sys/vm/swappiness").unlink()
    stderr = refused_run(fake, script, shell)
    assert "refused: vm.swappiness: /proc/sys/vm/swappiness does not exist" in stderr
    assert fake.value("proc/sys/vm/dirty_ratio") == "20"


@pytest.mark.parametrize("shell", SHELLS)
def test_linux_script_refuses_a_choice_the_kernel_does_not_offer(
    tmp_path: Path, shell: str
) -> None:
    """A THP list without never: the kernel would refuse the write (EINVAL)."""
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake", tuned=False)
    fake.write("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise")
    stderr = refused_run(fake, script, shell)
    assert "never is not one of the choices offered (always madvise)" in stderr


def test_linux_script_dry_run_reports_the_refusal(tmp_path: Path) -> None:
    """-n shows the plan, then the same refusal: a real run would stop there."""
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake")
    (fake.root / "sys/block/sdb/queue/scheduler").unlink()
    stderr = refused_run(fake, script, "dash", "-n")
    assert "refused: elevator sdb: /sys/block/sdb/queue/scheduler does not exist" in stderr


def _refusal(tmp_path: Path, path: str, current: str, value: str, release: str) -> str:
    """linux_tuning_lib.sh's refusal PATH VALUE, on a root where PATH holds `current` and
    `uname -r` says `release`."""
    target = tmp_path / path.lstrip("/")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(current + "\n")
    harness = (
        f". {LIB}\n"
        f"uname() {{ echo {release}; }}\n"
        f"refusal {path} {value}\n"
    )  # fmt: skip
    done = subprocess.run(
        ["dash", "-c", harness], capture_output=True, text=True, timeout=30,
        env={"LINUX_TUNING_SYSROOT": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("path", "value", "release", "why"),
    [
        ("/proc/sys/vm/dirty_ratio", "150", "5.14.0", "150 is above 100"),
        ("/proc/sys/vm/dirty_ratio", "30", "5.14.0", ""),
        ("/proc/sys/vm/swappiness", "150", "5.4.0", "150 is above 100"),
        ("/proc/sys/vm/swappiness", "150", "5.14.0", ""),
        ("/proc/sys/vm/swappiness", "250", "6.8.0", "250 is above 200"),
        ("/proc/sys/vm/dirty_bytes", "4096", "5.14.0", "4096 is below two pages"),
        ("/proc/sys/vm/dirty_bytes", "103079215104", "5.14.0", ""),
        ("/sys/block/sdb/queue/read_ahead_kb", "16M", "5.14.0", "16M is not a number"),
    ],
)
def test_linux_script_knows_the_kernels_ranges(
    tmp_path: Path, path: str, value: str, release: str, why: str
) -> None:
    """vm.rst's ranges and dirty_bytes' two-page minimum, checked before any change."""
    found = _refusal(tmp_path, path, "0" if "dirty_bytes" in path else "20", value, release)
    assert found.startswith(why) if why else found == ""
