"""linux_tuning.sh run on a fake Linux (tests/rules/linux_script.py): it refuses the wrong
system, a dry run changes nothing, the backup and rollback.sh come before the first change,
tuned is given the profile and verified, the no-tuned path writes the values, and rollback.sh
puts back exactly what was there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.linux_script import SHELLS, FakeLinux, generated

RHEL9 = "linux-rhel9-sas94"


def test_refuses_another_release_another_distribution_and_another_os(tmp_path: Path) -> None:
    script, _ = generated(RHEL9, tmp_path)
    for case, (version, env) in {
        "rhel8": ("8.10", {}),
        "ubuntu": ("9.4", {}),
        "darwin": ("9.4", {"STUB_UNAME": "Darwin"}),
    }.items():
        fake = FakeLinux(tmp_path / case, version=version)
        if case == "ubuntu":
            fake.write("etc/os-release", 'ID=ubuntu\nVERSION_ID="9.04"\n')
        before = fake.snapshot()
        done = fake.run(script, **env)
        assert done.returncode == 1, (case, done.stdout)
        assert "made for RHEL 9" in done.stderr or "this is Darwin" in done.stderr
        assert fake.snapshot() == before
        assert not fake.backups.exists()


def test_refuses_to_change_anything_unless_root(tmp_path: Path) -> None:
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake")
    done = fake.run(script, STUB_UID="1000")
    assert done.returncode == 1 and "run it as root" in done.stderr
    assert fake.run(script, "-n", STUB_UID="1000").returncode == 0


def test_dry_run_shows_current_and_new_and_changes_nothing(tmp_path: Path) -> None:
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake")
    before = fake.snapshot()
    done = fake.run(script, "-n")
    assert done.returncode == 0, done.stderr
    for line in (
        "change: vm.dirty_ratio: 20 -> 30",
        "ok: vm.dirty_background_ratio is 10",
        "change: vm.swappiness: 60 -> 10",
        "change: transparent_hugepages: always -> never",
        "skip: read_ahead_kb /sasdata: not a mount point here: left alone",
        "ok: elevator nvme0n1 is none",
        "change: elevator sdb: bfq -> mq-deadline",
        "change: governor cpu0: powersave -> performance",
        "dry run: nothing changed, nothing written.",
    ):
        assert line in done.stdout.splitlines(), line
    assert fake.snapshot() == before
    assert [c["argv"] for c in fake.calls() if c["prog"] == "tuned-adm"] == [["active"]]
    assert not fake.backups.exists()


@pytest.mark.parametrize("shell", SHELLS)
def test_with_tuned_installs_activates_verifies_and_rolls_back(tmp_path: Path, shell: str) -> None:
    script, files = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake")
    before = fake.snapshot()
    done = fake.run(script, shell=shell)
    assert done.returncode == 0, done.stdout + done.stderr
    installed = fake.root / "etc/tuned/sas-performance/tuned.conf"
    assert installed.read_text() == files["tuned.conf"]
    tuned = [c for c in fake.calls() if c["prog"] == "tuned-adm"]
    assert [c["argv"] for c in tuned][-2:] == [["profile", "sas-performance"], ["verify"]]
    assert all(c["backup"] for c in tuned if c["argv"][0] != "active")
    assert fake.state.read_text() == "sas-performance"
    assert "tuned-adm verify: the system matches profile sas-performance" in done.stdout
    undone = fake.rollback(shell)
    assert undone.returncode == 0, undone.stderr
    assert fake.snapshot() == before


@pytest.mark.parametrize("shell", SHELLS)
def test_without_tuned_writes_the_values_and_rolls_back_exactly(tmp_path: Path, shell: str) -> None:
    script, _ = generated(RHEL9, tmp_path)
    fake = FakeLinux(tmp_path / "fake", tuned=False)
    fake.write("sys/block/sdc/queue/read_ahead_kb", "32768")  # already above: left alone
    fake.write("sys/block/sdd/queue/scheduler", "noop [cfq] deadline")  # no mq-deadline
    before = fake.snapshot()
    done = fake.run(script, shell=shell)
    assert done.returncode == 0, done.stdout + done.stderr
    assert fake.value("proc/sys/vm/dirty_ratio") == "30"
    assert fake.value("proc/sys/vm/swappiness") == "10"
    assert fake.value("sys/kernel/mm/transparent_hugepage/enabled") == "never"
    # Members of an md/LVM layer are left alone: read-ahead is the mounted device's.
    assert fake.value("sys/block/sdb/queue/read_ahead_kb") == "128"
    assert fake.value("sys/block/sdc/queue/read_ahead_kb") == "32768"
    assert fake.value("sys/block/sdb/queue/scheduler") == "mq-deadline"
    assert fake.value("sys/block/sdd/queue/scheduler") == "deadline"  # the next preference
    assert fake.value("sys/block/nvme0n1/queue/scheduler") == "none"
    assert fake.value("sys/devices/system/cpu/cpu1/cpufreq/scaling_governor") == "performance"
    sysctl = (fake.root / "etc/sysctl.d/99-sas-tuning.conf").read_text()
    assert "vm.dirty_ratio = 30\n" in sysctl and "vm.swappiness = 10\n" in sysctl
    udev = (fake.root / "etc/udev/rules.d/99-sas-tuning.rules").read_text()
    assert 'KERNEL=="sdb", ATTR{queue/scheduler}="mq-deadline"' in udev
    assert "read_ahead_kb" not in udev
    undone = fake.rollback(shell)
    assert undone.returncode == 0, undone.stderr
    assert fake.snapshot() == before
