"""`manage.py advise`: the contract's files in --out, or exit 2 with every problem on stderr."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

import rules
from tests.conftest import EXAMPLES, ROOT, example

# docs/contract.md, "Outputs": the files each example must produce.
CONTRACT_FILES = {
    "lemans-aix53-etl": {"sasv9_append.cfg", "aix_tuning.sh", "recommendations.json"},
    "prime-spds-aix": {
        "sasv9_append.cfg", "spdsserv.parm", "libnames.parm", "aix_tuning.sh",
        "recommendations.json",
    },
}  # fmt: skip


def manage(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "advise", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )  # fmt: skip


def assert_outputs(out: Path, name: str) -> None:
    """Exactly the contract's files, each the text `rules.advise` gives."""
    result = rules.advise(example(name))
    assert {p.name for p in out.iterdir()} == CONTRACT_FILES[name]
    for file_name, text in result["artifacts"].items():
        assert (out / file_name).read_text("utf-8") == text
    assert json.loads((out / "recommendations.json").read_text("utf-8")) == result
    assert (out / "aix_tuning.sh").stat().st_mode & 0o111


def bad_document() -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"]["cpus"] = 0
    doc["storage"][1]["mount"] = "raid5; rm -rf /"
    return doc


@pytest.mark.parametrize("name", sorted(CONTRACT_FILES))
def test_call_command_writes_the_contract_files(tmp_path: Path, name: str) -> None:
    stdout = io.StringIO()
    call_command("advise", str(EXAMPLES / f"{name}.json"), "--out", str(tmp_path), stdout=stdout)
    assert_outputs(tmp_path, name)
    assert sorted(Path(p).name for p in stdout.getvalue().split()) == sorted(CONTRACT_FILES[name])


# A subprocess starts Django afresh (seconds each), so one per example: a file path for
# one, `-` (standard input) for the other.
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONTRACT_FILES))
def test_subprocess_writes_the_contract_files(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    if name == "prime-spds-aix":
        done = manage("-", "--out", str(out), stdin=json.dumps(example(name)))
    else:
        done = manage(str(EXAMPLES / f"{name}.json"), "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert_outputs(out, name)


def advise_exit_code(*args: str, stdin: str = "") -> tuple[int, str]:
    """call_command with standard input and the exit code of `sys.exit`."""
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(stdin))
        with pytest.raises(SystemExit) as info:
            call_command("advise", *args, stderr=stderr)
    return int(info.value.code or 0), stderr.getvalue()


def test_bad_document_exits_2_with_problems_by_path(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, stderr = advise_exit_code("-", "--out", str(out), stdin=json.dumps(bad_document()))
    assert code == 2
    lines = stderr.splitlines()
    assert any(line.startswith("server.cpus: must be between 1 and 4096") for line in lines)
    assert any(line.startswith("storage[1].mount: must be an absolute path") for line in lines)
    assert not out.exists()


def test_bad_document_leaves_an_existing_out_untouched(tmp_path: Path) -> None:
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(bad_document()))
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    code, stderr = advise_exit_code(str(source), "--out", str(out))
    assert code == 2
    assert "server.cpus: must be between 1 and 4096" in stderr
    assert [p.name for p in out.iterdir()] == ["keep.txt"]


def test_unreadable_json_exits_2(tmp_path: Path) -> None:
    code, stderr = advise_exit_code("-", "--out", str(tmp_path / "out"), stdin="{not json")
    assert code == 2
    assert "cannot read a JSON document" in stderr
    assert not (tmp_path / "out").exists()


def engine_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m rules …` with nothing of Django in its environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "SECRET_KEY")}
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )  # fmt: skip


@pytest.mark.slow
def test_engine_cli_writes_what_manage_py_writes(tmp_path: Path) -> None:
    source = str(EXAMPLES / "prime-spds-aix.json")
    engine = engine_cli("advise", source, "--out", str(tmp_path / "engine"))
    django = manage(source, "--out", str(tmp_path / "django"))
    assert engine.returncode == django.returncode == 0, engine.stderr + django.stderr
    assert engine.stderr == django.stderr
    for path in (tmp_path / "django").iterdir():
        assert (tmp_path / "engine" / path.name).read_bytes() == path.read_bytes()
    assert_outputs(tmp_path / "engine", "prime-spds-aix")


def test_engine_cli_reads_standard_input_and_exits_2_on_problems(tmp_path: Path) -> None:
    done = engine_cli(
        "advise", "-", "--out", str(tmp_path / "out"), stdin=json.dumps(bad_document())
    )
    assert done.returncode == 2
    assert "server.cpus: must be between 1 and 4096" in done.stderr.splitlines()
    assert not (tmp_path / "out").exists()


def test_engine_cli_refuses_an_oversized_document(tmp_path: Path) -> None:
    done = engine_cli("advise", "-", "--out", str(tmp_path / "out"), stdin=" " * (5 << 20))
    assert done.returncode == 2
    assert "larger than 4 MiB" in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_reader_that_leaves_early_ends_the_command_quietly() -> None:
    # `python -m rules … | head`: the pipe is closed before the command writes.
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "rules", "collector"], stdout=write_end, stderr=subprocess.PIPE,
            check=False,
        )  # fmt: skip
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (128 + signal.SIGPIPE, b"")
