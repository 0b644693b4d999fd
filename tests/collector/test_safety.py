"""What the collector may touch and how long it may take: under strace it opens for
writing only its bundle, files in the directory --measure makes (removed again, with the
directory) and /dev/null; a hung command
is killed after --timeout with its children, the run stops at --max-seconds, and
--redact hides the host's names and IPv4 addresses."""

from __future__ import annotations

import os
import re
import socket
import subprocess
from pathlib import Path

import pytest

from rules.parse.sections import split
from tests.collector.helpers import SHELLS, fake_aix_env, require, run, script

WRITES = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC")
OPEN = re.compile(r'^(\d+) +(open|openat|creat)\((?:[A-Z_]+|\d+, )?,? ?"([^"]*)"(?:, ([A-Z_|]+))?')
CHANGE = re.compile(
    r"^(\d+) +(unlink|unlinkat|rename|renameat2?|mkdir|mkdirat|rmdir|truncate)"
    r'\((?:[A-Z_]+, )?"([^"]*)"'
)
TRACED = "open,openat,creat,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,truncate"


def traced_run(shell: str, tmp_path: Path, tool: str = "dd") -> tuple[Path, Path, Path, list[str]]:
    """Run the collector under strace -f from empty cwd/HOME/TMPDIR directories."""
    strace = require("strace")
    for name in ("cwd", "home", "tmp", "out", "measure"):
        (tmp_path / name).mkdir()
    path = script(tmp_path / "out")
    bundle = tmp_path / "out" / "bundle.txt"
    log = tmp_path / "out" / "trace.txt"
    command = [
        strace, "-f", "-qq", "-o", str(log), "-e", f"trace={TRACED}", require(shell),
        str(path), "--out", str(bundle), "--measure", str(tmp_path / "measure"),
        "--measure-mb", "4", "--streams", "2", "--quick", "--measure-tool", tool,
        "--max-seconds", "120",
    ]  # fmt: skip
    env = {**os.environ, "HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path / "tmp")}
    done = subprocess.run(command, cwd=tmp_path / "cwd", env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return bundle, log, tmp_path / "measure", log.read_text().splitlines()


def writes_and_changes(lines: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(pid, path) of each open for writing, and of each unlink/rename/mkdir/truncate."""
    writes, changes = [], []
    for line in lines:
        if (found := OPEN.match(line)) and (found.group(2) == "creat" or
                                           WRITES.search(found.group(4) or "")):  # fmt: skip
            writes.append((found.group(1), found.group(3)))
        elif found_change := CHANGE.match(line):
            changes.append((found_change.group(1), found_change.group(3)))
    return writes, changes


@pytest.mark.parametrize(("shell", "tool"), [*((shell, "dd") for shell in SHELLS), ("dash", "fio")])
def test_it_writes_only_its_bundle_and_in_the_measure_directory(
    shell: str, tool: str, tmp_path: Path
) -> None:
    require(tool)
    bundle, _, measure_dir, lines = traced_run(shell, tmp_path, tool)
    writes, changes = writes_and_changes(lines)
    made = re.compile(re.escape(str(measure_dir)) + r"/\.sas-advisor-measure\.[A-Za-z0-9]+(/|$)")
    # ksh93 keeps command substitutions in a scratch file it unlinks at once, by the same
    # process, before writing to it (an anonymous buffer, never visible by name).
    anonymous = {(pid, path) for pid, path in changes if path.startswith("/dev/shm/sf")}
    for pid, path in writes:
        assert (
            path in (str(bundle), "/dev/null", "/dev/tty")
            or made.match(path)
            or (pid, path) in anonymous
        ), f"opened for writing: {path}"
    for pid, path in changes:
        assert made.match(path) or (pid, path) in anonymous, f"changed: {path}"
    assert any("/stream." in path for _, path in writes)
    for untouched in ("cwd", "home", "tmp"):
        assert list((tmp_path / untouched).iterdir()) == [], untouched
    assert list(measure_dir.iterdir()) == []
    assert bundle.read_text().startswith("# sas-tuning-advisor bundle 1\n")


@pytest.mark.parametrize("shell", SHELLS)
def test_a_hung_command_is_killed_with_its_children(shell: str, tmp_path: Path) -> None:
    log = tmp_path / "argv.log"
    env = fake_aix_env(log, FAKE_AIX_SLEEP="prtconf")
    done = run(shell, script(tmp_path), "--out", "-", "--timeout", "1", cwd=tmp_path,
               env=env, timeout=90)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "@@@ cmd: prtconf\n@@@ end: rc=143\n@@@ note: prtconf: timed out after 1 s\n" in (
        done.stdout
    )
    assert "woke up" not in done.stdout
    assert "@@@ cmd: lparstat -i\n" in done.stdout  # the run went on
    assert not _sleeping_in(tmp_path)


def _sleeping_in(directory: Path) -> list[int]:
    """The stub's `sleep 97` processes started in `directory` (this test's own: the same
    test for another shell may be running beside it)."""
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
            if args[:2] == [b"sleep", b"97"] and Path(os.readlink(proc / "cwd")) == directory:
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def test_the_time_budget_skips_what_is_left(tmp_path: Path) -> None:
    env = fake_aix_env(tmp_path / "argv.log", FAKE_AIX_SLEEP="prtconf")
    done = run("dash", script(tmp_path), "--out", "-", "--max-seconds", "4", cwd=tmp_path,
               env=env, timeout=90)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "@@@ note: prtconf: timed out after " in done.stdout
    assert "@@@ skip: lparstat -i: the time budget (--max-seconds 4) is used up\n" in done.stdout
    assert "@@@ skip: vmstat -v: the time budget (--max-seconds 4) is used up\n" in done.stdout
    assert (
        "@@@ note: the time budget (--max-seconds 4) ran out; later sections were skipped\n"
        in done.stdout
    )
    assert "@@@ cmd: lparstat" not in done.stdout


def test_redact_hides_the_host_name_and_ipv4_addresses(tmp_path: Path) -> None:
    host = socket.gethostname()
    config = tmp_path / "sasv9_local.cfg"
    config.write_text(f"-SET HOSTNAME {host}\n-SET PEER 10.11.12.13\n-SET VERSION 9.4.1.0.2\n")
    done = run("bash", script(tmp_path), "--out", "-", "--redact", "--sas-config",
               str(config), "--max-seconds", "60", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "# options: redact=yes " in done.stdout
    cut = split(done.stdout)
    sections = {s.command: s for s in cut.sections}
    assert sections["hostname"].lines == ("redacted-host",)
    assert sections["uname -a"].lines[0].split()[1] == "redacted-host"
    assert sections[f"cat {config}"].lines == (
        "-SET HOSTNAME redacted-host",
        "-SET PEER 0.0.0.0",
        "-SET VERSION 9.4.1.0.2",
    )
    word = re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(host)}(?![A-Za-z0-9_-])", re.I)
    assert not word.search(done.stdout)
    ipv4 = re.compile(r"(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d]|\.\d)")
    assert {m.group(0) for m in ipv4.finditer(done.stdout)} <= {"0.0.0.0"}
