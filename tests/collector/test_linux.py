"""The collector on this Linux machine, under each shell: the bundle it writes and how
rules.parse.sections reads it back."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from rules.parse.sections import split
from rules.version import RULES_VERSION
from tests.collector.helpers import SHELLS, run, script

LINUX_COMMANDS = [
    "uname -a",
    "hostname",
    "cat /etc/os-release",
    "nproc",
    "lscpu",
    "cat /proc/meminfo",
    "findmnt -P -b -o TARGET,SOURCE,FSTYPE,OPTIONS,SIZE",
    "df -kP",
    "lsblk -P -b -o NAME,KNAME,PKNAME,TYPE,SIZE,ROTA,MOUNTPOINT,FSTYPE,MODEL",
    "grep -H . /sys/block/*/queue/max_sectors_kb /sys/block/*/queue/max_hw_sectors_kb"
    " /sys/block/*/queue/read_ahead_kb /sys/block/*/queue/scheduler"
    " /sys/block/*/queue/rotational",
    "sysctl -a",
    "cat /sys/kernel/mm/transparent_hugepage/enabled",
    "cat /sys/kernel/mm/transparent_hugepage/defrag",
    "tuned-adm active",
    "lvs --noheadings --units k -o lv_name,vg_name,lv_path,stripes,stripe_size,devices",
    "cat /proc/mdstat",
]


def accounted(text: str) -> list[str]:
    """Each command the bundle ran or skipped, in order ("lscpu", "skip: lvs: needs root")."""
    out = []
    for line in text.splitlines():
        if line.startswith("@@@ cmd: "):
            out.append(line[len("@@@ cmd: ") :])
        elif line.startswith("@@@ skip: "):
            out.append("skip: " + line[len("@@@ skip: ") :])
    return out


@pytest.mark.parametrize("shell", SHELLS)
def test_a_linux_bundle_has_a_section_for_each_command(shell: str, tmp_path: Path) -> None:
    done = run(shell, script(tmp_path), "--out", "b.txt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "sas-advisor-collect.sh: wrote b.txt\n"
    text = (tmp_path / "b.txt").read_text()
    assert text.startswith("# sas-tuning-advisor bundle 1\n")
    cut = split(text)
    assert cut.header is not None
    assert cut.header.bundle == "1"
    assert cut.header.values["collector"] == RULES_VERSION
    assert cut.header.values["options"] == "redact=no measure=none timeout=30 max-seconds=600"
    ran = [s.command for s in cut.sections]
    for command in ("uname -a", "lscpu", "cat /proc/meminfo", "df -kP"):
        assert command in ran
    assert LINUX_COMMANDS[6] in ran or "cat /proc/mounts" in ran
    # Every command is either run or skipped with its reason, in the order written.
    entries = [e for e in accounted(text) if e != "cat /proc/mounts"]
    assert len(entries) == len(LINUX_COMMANDS)
    for command, entry in zip(LINUX_COMMANDS, entries, strict=True):
        what = command if command.startswith("cat ") else command.split(" ")[0]
        assert entry == command or entry.startswith(f"skip: {what}: "), (command, entry)
    by_command = {s.command: s for s in cut.sections}
    uname = subprocess.run(["uname", "-a"], capture_output=True, text=True).stdout
    assert by_command["uname -a"].lines == (uname.strip(),)
    assert by_command["uname -a"].rc == 0
    assert by_command["uname -a"].argv == ("uname", "-a")
    meminfo = by_command["cat /proc/meminfo"]
    assert meminfo.lines[0].startswith("MemTotal:")
    assert meminfo.argv == ("cat", "/proc/meminfo")
    assert any(line.startswith("Architecture:") for line in by_command["lscpu"].lines)
    assert by_command["df -kP"].lines[0].startswith("Filesystem")
    assert all(s.rc is not None for s in cut.sections)
    assert cut.notes[-1][1].startswith("finished in ")


def test_root_only_and_missing_commands_are_skipped_with_the_reason(tmp_path: Path) -> None:
    # An unprivileged run, as far as the script can tell: `id -u` says 1000.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("id", "echo 1000"), ("lvs", "echo lvs ran")):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    done = run("dash", script(tmp_path), "--out", "-", "--max-seconds", "60", cwd=tmp_path,
               env={"PATH": f"{bin_dir}:/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "# root: no\n" in done.stdout
    assert "@@@ skip: lvs: needs root\n" in done.stdout
    assert "lvs ran" not in done.stdout
    # The script appends /usr/sbin:/sbin to PATH, so whether tuned-adm is found depends on
    # the machine (CI installs tuned): either way the bundle says which.
    search = f"{bin_dir}:/usr/bin:/bin:/usr/sbin:/sbin"
    if shutil.which("tuned-adm", path=search):
        assert "@@@ cmd: tuned-adm active\n" in done.stdout
    else:
        assert "@@@ skip: tuned-adm: not found\n" in done.stdout
    if not Path("/proc/mdstat").exists():  # no md driver loaded: a missing file is skipped
        assert "@@@ skip: cat /proc/mdstat: not found\n" in done.stdout


def test_output_that_looks_like_a_marker_cannot_forge_a_section(tmp_path: Path) -> None:
    config = tmp_path / "my sasv9.cfg"
    config.write_text("-MEMSIZE 4G\n@@@ cmd: rm -rf /\n@@@ end: rc=0\n-SORTSIZE 1G")
    done = run("bash", script(tmp_path), "--out", "-", "--sas-config", "my sasv9.cfg",
               "--max-seconds", "60", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    cut = split(done.stdout)
    label = f"cat '{tmp_path}/my sasv9.cfg'"
    assert [s.command for s in cut.sections][-1] == label
    config_section = cut.sections[-1]
    assert config_section.argv == ("cat", f"{tmp_path}/my sasv9.cfg")
    assert config_section.lines == (
        "-MEMSIZE 4G",
        " @@@ cmd: rm -rf /",
        " @@@ end: rc=0",
        "-SORTSIZE 1G",
    )
    assert "rm -rf /" not in [s.command for s in cut.sections]


def test_given_files_that_cannot_be_read_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    done = run("dash", script(tmp_path), "--out", "-", "--max-seconds", "60",
               "--spds-parm", "/nonexistent/spdsserv.parm", "--libnames-parm", "adir",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "@@@ skip: cat /nonexistent/spdsserv.parm: not a readable regular file\n" in done.stdout
    assert f"@@@ skip: cat {tmp_path}/adir: not a readable regular file\n" in done.stdout
