"""Every command of the next steps can be pasted as it is: for each example's files and OS,
with and without the inventory's SAS installation folder, the UNIX block (the SASROOT line,
then every command) passes `sh -n` and `bash -n`, and an interactive bash's history expansion
leaves each line as it is (SAS's `!SASROOT` was "event not found"); the Windows block quotes
every path, SASROOT and token for cmd.exe."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rules.next_steps import Steps, steps
from rules.next_steps_shell import sas_root, shell_for

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NAMES = sorted(p.parent.name for p in GOLDEN.glob("*/recommendations.json"))
API = "https://advisor.example.com/api/v1/assessments/42/verify"
UNIX_HOMES = (None, "/opt/sas/SASHome", "/usr/local/SAS/SASFoundation/9.4")
WINDOWS_HOMES = (None, r"D:\Program Files (x86)\SASHome", "E:\\SAS$\\SASHome\\")


def doc(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name / "recommendations.json").read_text())
    return data


def block(name: str, home: str | None) -> Steps:
    d = doc(name)
    inv = {**d["inventory"], "sas": {**d["inventory"]["sas"], "install_path": home}}
    return steps(inv, d["artifacts"], verify_page="/assessments/42/verify/", api_verify=API)


def lines(found: Steps) -> list[str]:
    return [*([found.setup] if found.setup else []), *(c for s in found for c in s.commands)]


def cases(windows: bool) -> list[tuple[str, str | None]]:
    chosen = [n for n in NAMES if (doc(n)["inventory"]["server"]["os"] == "windows") == windows]
    return [(n, h) for n in chosen for h in (WINDOWS_HOMES if windows else UNIX_HOMES)]


def test_every_os_is_covered() -> None:
    assert cases(windows=True) and len(cases(windows=False)) >= 3 * 10


@pytest.mark.parametrize(("name", "home"), cases(windows=False))
@pytest.mark.parametrize("shell", ["sh", "bash"])
def test_unix_block_parses(tmp_path: Path, name: str, home: str | None, shell: str) -> None:
    script = tmp_path / "steps.sh"
    script.write_text("\n".join(lines(block(name, home))) + "\n")
    run = subprocess.run([shell, "-n", str(script)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(("name", "home"), cases(windows=False))
def test_unix_block_survives_history_expansion(name: str, home: str | None) -> None:
    # history -p expands as an interactive bash does on each pasted line; it fails on an
    # unknown event (`!SASROOT`) and would print a changed line for one it knows.
    check = 'set -o history -o histexpand; history -p -- "$1"'
    for line in lines(block(name, home)):
        run = subprocess.run(["bash", "--norc", "-c", check, "_", line],
                             capture_output=True, text=True, check=False)  # fmt: skip
        assert (run.returncode, run.stdout) == (0, line + "\n"), run.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("name", [n for n, h in cases(windows=False) if h is None])
def test_unix_block_passes_shellcheck(tmp_path: Path, name: str) -> None:
    script = tmp_path / "steps.sh"
    script.write_text("#!/bin/sh\n" + "\n".join(lines(block(name, None))) + "\n")
    run = subprocess.run(["shellcheck", "-s", "sh", str(script)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert run.returncode == 0, run.stdout


def test_the_history_check_catches_sas_own_notation() -> None:
    check = 'set -o history -o histexpand; history -p -- "$1"'
    run = subprocess.run(["bash", "--norc", "-c", check, "_", "cp -p !SASROOT/sasv9.cfg x"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert run.returncode != 0


def outside_quotes(line: str) -> str:
    """What cmd.exe reads outside double quotes (it takes no single quotes)."""
    assert line.count('"') % 2 == 0, line
    return "".join(line.split('"')[0::2])


@pytest.mark.parametrize(("name", "home"), cases(windows=True))
def test_windows_block_quotes_every_path(name: str, home: str | None) -> None:
    found = block(name, home)
    assert found.setup is not None and found.setup.startswith('set "SASROOT=')
    setup_value = found.setup.split('"')[1].removeprefix("SASROOT=")
    assert setup_value == (shell_for(doc(name)["inventory"]).root if home is None else
                           sas_root(home, "9.4", windows=True))  # fmt: skip
    note = (
        "check: where SAS is installed (from the assessment)"
        if home
        else "edit: where SAS is installed"
    )
    assert outside_quotes(found.setup) == f"set  & rem {note}"
    for line in (c for s in found for c in s.commands):
        bare = outside_quotes(line)
        assert not any(ch in bare for ch in "%!^|<()'$"), line
        assert "&" not in bare and "SASROOT" not in bare and "TOKEN" not in bare, line
        assert "!" not in line and "$SASROOT" not in line, line


def test_windows_commands_use_the_set_folder() -> None:
    found = block("windows-sas94", r"D:\Program Files (x86)\SASHome")
    assert found.setup == (
        r'set "SASROOT=D:\Program Files (x86)\SASHome\SASFoundation\9.4" & rem check: '
        "where SAS is installed (from the assessment)"
    )
    every = [c for s in found for c in s.commands]
    assert r'copy /Y "%SASROOT%\nls\en\sasv9.cfg" "%SASROOT%\nls\en\sasv9.cfg.orig"' in every
    assert r'type sasv9_append.cfg >> "%SASROOT%\nls\en\sasv9.cfg"' in every
    assert every[-2].startswith('curl.exe -sS -X POST -H "Authorization: Token %TOKEN%"')
    assert every[-2].endswith(f'--data-binary @reading.txt "{API}"')
    assert found.label == "Commands for the Command Prompt (cmd.exe), run as administrator"


@pytest.mark.parametrize(
    ("home", "version", "windows", "root"),
    [
        ("/opt/sas/SASHome", "9.4", False, "/opt/sas/SASHome/SASFoundation/9.4"),
        ("/opt/sas/SASHome/", "9.3", False, "/opt/sas/SASHome/SASFoundation/9.3"),
        ("/sas/SASFoundation", "9.4", False, "/sas/SASFoundation/9.4"),
        ("/sas/SASFoundation/9.4", "9.4", False, "/sas/SASFoundation/9.4"),
        ("/usr/local/SAS/SAS_9.1", "9.1.3", False, "/usr/local/SAS/SAS_9.1"),
        ("/", "9.4", False, "/SASFoundation/9.4"),
        (r"C:\Program Files\SASHome", "9.4", True, r"C:\Program Files\SASHome\SASFoundation\9.4"),
        ("C:\\SASHome\\sasfoundation\\9.4\\", "9.4", True, r"C:\SASHome\sasfoundation\9.4"),
        ("C:\\", "9.2", True, r"C:\SASFoundation\9.2"),
        (r"C:\Program Files\SAS\SAS 9.1", "9.1.3", True, r"C:\Program Files\SAS\SAS 9.1"),
    ],
)
def test_sas_root_under_the_installation_folder(
    home: str, version: str, windows: bool, root: str
) -> None:
    assert sas_root(home, version, windows=windows) == root


def test_the_install_path_sets_sasroot_and_needs_no_edit() -> None:
    found = block("linux-rhel9-sas94", "/opt/sas/SASHome")
    assert found.setup is not None and found.setup.startswith(
        "SASROOT=/opt/sas/SASHome/SASFoundation/9.4   # check:"
    )
    assert "edit" not in found.setup
    assert block("linux-rhel9-sas94", None).setup == (
        "SASROOT=/opt/sas/SASHome/SASFoundation/9.4   # edit: where SAS is installed"
    )
    assert block("lemans-aix53-etl", None).setup == (
        "SASROOT=/usr/local/SAS/SAS_9.1   # edit: where SAS is installed"
    )


def test_a_path_of_another_os_is_not_taken() -> None:
    windows = doc("windows-sas94")["inventory"]
    inv = {**windows, "sas": {**windows["sas"], "install_path": "/opt/sas/SASHome"}}
    shell = shell_for(inv)
    assert shell.windows and not shell.given
    assert shell.root == r"C:\Program Files\SASHome\SASFoundation\9.4"


def test_verify_runs_the_collector_and_names_no_rules_module() -> None:
    found = block("power-smt8-spds53", None)
    verify = next(s for s in found if s.title == "Verify")
    assert verify.commands == (
        'sh sas-advisor-collect.sh --out bundle.txt --sas-config "$SASROOT/sasv9_local.cfg" '
        "--spds-parm spdsserv.parm --libnames-parm libnames.parm",
        'curl -sS -X POST -H "Authorization: Token $TOKEN" '
        f"-H 'Content-Type: text/plain' --data-binary @bundle.txt {API}",
    )
    assert verify.link == ("Verify page of this assessment", "/assessments/42/verify/")
    every = "\n".join(w for s in found for w in (*s.words, *s.commands))
    assert "python -m rules" not in every and "recommendations.json" not in every


def test_without_the_advisor_address_the_api_is_named_not_called() -> None:
    d = doc("linux-rhel9-sas94")
    found = steps(d["inventory"], d["artifacts"], api_verify="/api/v1/assessments/42/verify")
    verify = next(s for s in found if s.title == "Verify")
    assert len(verify.commands) == 1 and verify.link is None
    assert (
        "POST bundle.txt to the advisor's API at /api/v1/assessments/42/verify" in verify.words[1]
    )
