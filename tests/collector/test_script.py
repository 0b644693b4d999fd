"""sas-advisor-collect.sh as a file: valid in every shell it targets, clean under
shellcheck, its version stamped in, its options checked before anything runs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from rules.collect import COLLECTOR_NAME, COLLECTOR_VERSION, PLACEHOLDER, SOURCE, collector_script
from rules.version import RULES_VERSION
from tests.collector.helpers import require, run, script


def test_the_script_is_stamped_with_the_rules_version() -> None:
    text = collector_script()
    assert COLLECTOR_NAME == "sas-advisor-collect.sh"
    assert COLLECTOR_VERSION == RULES_VERSION
    assert PLACEHOLDER not in text
    assert f"VERSION='{RULES_VERSION}'" in text
    assert text.startswith("#!/bin/sh\n")


@pytest.mark.parametrize("shell", ["sh", "dash", "bash", "ksh"])
def test_every_target_shell_parses_it_without_a_word(shell: str, tmp_path: Path) -> None:
    for path in (SOURCE, script(tmp_path)):
        done = subprocess.run([require(shell), "-n", str(path)], capture_output=True, text=True)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", ""), (shell, path)


def test_shellcheck_finds_nothing(tmp_path: Path) -> None:
    tool = require("shellcheck")
    for path in (SOURCE, script(tmp_path)):
        done = subprocess.run([tool, "-s", "sh", str(path)], capture_output=True, text=True)
        assert (done.returncode, done.stdout) == (0, ""), done.stdout


def test_version_and_help(tmp_path: Path) -> None:
    path = script(tmp_path)
    version = run("dash", path, "--version", cwd=tmp_path)
    assert (version.returncode, version.stdout) == (0, f"sas-advisor-collect.sh {RULES_VERSION}\n")
    helped = run("dash", path, "--help", cwd=tmp_path)
    assert helped.returncode == 0
    assert helped.stdout.startswith("usage: sh sas-advisor-collect.sh [--out FILE|-]")
    assert "--measure DIR" in helped.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [COLLECTOR_NAME]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--bogus"], "unknown option: --bogus"),
        (["extra"], "unknown option: extra"),
        (["--timeout"], "--timeout needs a value"),
        (["--timeout", "0"], "--timeout must be from 1 to 86400, not 0"),
        (["--timeout", "1s"], "--timeout needs a whole number of at least 1, not '1s'"),
        (["--max-seconds", "99999999999"], "--max-seconds must be from 1 to 604800"),
        (["--measure-mb", "8"], "--measure-mb needs --measure DIR"),
        (["--quick"], "--quick needs --measure DIR"),
        (["--streams", "0", "--measure", "/tmp"], "--streams must be from 1 to 1024, not 0"),
        (["--measure-tool", "iozone"], "--measure-tool is dd or fio, not 'iozone'"),
        (["--out", ""], "--out needs a path on one line"),
        (["--sas-config", "/a\nb"], "--sas-config needs a path on one line"),
    ],
)
def test_bad_options_are_refused_with_the_usage_and_exit_2(
    args: list[str], says: str, tmp_path: Path
) -> None:
    done = run("dash", script(tmp_path), *args, cwd=tmp_path)
    assert done.returncode == 2
    assert says in done.stderr
    assert "usage: sh sas-advisor-collect.sh" in done.stderr
    assert done.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == [COLLECTOR_NAME]


def test_an_existing_bundle_is_kept_unless_forced(tmp_path: Path) -> None:
    path = script(tmp_path)
    (tmp_path / "sas-advisor-bundle.txt").write_text("keep me\n")
    refused = run("dash", path, cwd=tmp_path)
    assert refused.returncode == 1
    assert "sas-advisor-bundle.txt exists; use --force" in refused.stderr
    assert (tmp_path / "sas-advisor-bundle.txt").read_text() == "keep me\n"
    forced = run("dash", path, "--force", "--max-seconds", "60", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    text = (tmp_path / "sas-advisor-bundle.txt").read_text()
    assert text.startswith("# sas-tuning-advisor bundle 1\n")
    assert "keep me" not in text


def test_measure_refuses_a_directory_it_cannot_use(tmp_path: Path) -> None:
    path = script(tmp_path)
    missing = run("dash", path, "--measure", str(tmp_path / "nope"), cwd=tmp_path)
    assert missing.returncode == 1
    assert f"--measure: {tmp_path / 'nope'} is not a directory" in missing.stderr
    huge = run("dash", path, "--measure", str(tmp_path), "--measure-mb", "1048576",
               "--streams", "2", cwd=tmp_path)  # fmt: skip
    assert huge.returncode == 1
    assert "the test needs 2097152 MiB and a tenth more" in huge.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [COLLECTOR_NAME]
