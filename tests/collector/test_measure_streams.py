"""--measure on this machine: two streams a file system, 64 KB blocks, written with a
flush then read back, by dd (fio hidden) and by fio; the bundle's per-stream and total
figures as the parsers read them; nothing left behind, also after SIGTERM mid-run."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from rules.parse.fio import fio
from rules.parse.measure import measure_run
from rules.parse.sections import split
from tests.collector.helpers import require, run, script

MIB = 1024 * 1024


def measured(tmp_path: Path, tool: str) -> tuple[str, str, Path]:
    target = tmp_path / "saswork"
    target.mkdir()
    done = run("dash", script(tmp_path), "--out", "-", "--measure", str(target),
               "--streams", "2", "--measure-mb", "16", "--quick", "--measure-tool", tool,
               "--max-seconds", "120", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert list(target.iterdir()) == []
    return done.stdout, done.stderr, target


def test_dd_streams_give_per_stream_and_total_figures(tmp_path: Path) -> None:
    bundle, said, target = measured(tmp_path, "dd")
    assert f"--measure {target}: 2 streams of 16 MiB in 64 KB blocks by dd (conv=fsync)" in said
    assert "writes 32 MiB in a new directory there" in said and "may include cache" in said
    cut = split(bundle)
    assert cut.header is not None
    assert f"measure={target} tool=dd streams=2 block-kb=64 " in cut.header.values["options"]
    (section,) = [s for s in cut.sections if s.argv[0] == "sas-advisor-measure"]
    assert section.rc == 0 and section.argv == ("sas-advisor-measure", str(target))
    (one,) = measure_run(section)
    assert (one.tool, one.streams, one.block_kb, one.directory) == ("dd", 2, 64, str(target))
    assert [(s.direction, s.index, s.bytes) for s in one.per_stream] == [
        ("write", 1, 16 * MIB), ("write", 2, 16 * MIB), ("read", 1, 16 * MIB), ("read", 2, 16 * MIB)
    ]  # fmt: skip
    assert all(s.seconds >= 0 for s in one.per_stream)
    assert one.read_mb_s and one.write_mb_s and one.date
    assert "may include cache" in one.caveat


def test_fio_streams_give_per_job_figures(tmp_path: Path) -> None:
    require("fio")
    bundle, said, target = measured(tmp_path, "fio")
    assert "2 streams of 16 MiB in 64 KB blocks by fio (end_fsync=1)" in said
    cut = split(bundle)
    (section,) = [s for s in cut.sections if s.argv[0] == "fio"]
    assert section.rc == 0
    (one,) = fio(section)
    assert one.directory.startswith(f"{target}/.sas-advisor-measure.")
    assert one.streams == 2 and one.block_kb == 64
    assert [(s.direction, s.bytes) for s in one.per_stream] == [
        ("write", 16 * MIB), ("write", 16 * MIB), ("read", 16 * MIB), ("read", 16 * MIB)
    ]  # fmt: skip
    assert one.read_mb_s and one.write_mb_s
    assert any(n.startswith("measure ") and "tool=fio" in n for _, n in cut.notes)


@pytest.mark.parametrize("shell", ["dash", "bash", "ksh"])
def test_sigterm_mid_run_leaves_no_file(shell: str, tmp_path: Path) -> None:
    target = tmp_path / "saswork"
    target.mkdir()
    command = [require(shell), str(script(tmp_path)), "--out", str(tmp_path / "b.txt"),
               "--measure", str(target), "--streams", "2", "--measure-mb", "1024",
               "--measure-tool", "dd", "--max-seconds", "120"]  # fmt: skip
    with subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True) as proc:
        deadline = time.monotonic() + 120  # a guard against a hang, not a timing
        while not any(target.glob(".sas-advisor-measure.*/stream.*")):
            assert proc.poll() is None and time.monotonic() < deadline, "no stream file seen"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=120) == 143
    assert list(target.iterdir()) == []
    left = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(target) not in left


@pytest.mark.parametrize("shell", ["dash", "bash", "ksh"])
def test_a_reader_that_stops_early_leaves_no_file(shell: str, tmp_path: Path) -> None:
    """`collector --out - --measure DIR | head`: the reader goes away before the
    measurement is written; the files are removed all the same."""
    target = tmp_path / "saswork"
    target.mkdir()
    options = "--streams 2 --measure-mb 16 --quick --measure-tool dd --max-seconds 120"
    line = f"{require(shell)} {script(tmp_path)} --out - --measure {target} {options} | head -c 200"
    done = subprocess.run(["sh", "-c", line], cwd=tmp_path, capture_output=True, timeout=300)
    assert len(done.stdout) == 200
    assert list(target.iterdir()) == []
