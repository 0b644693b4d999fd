"""Next steps name only the files an assessment produced and only its own OS's commands:
a script's dry run and rollback where there is one, a .cfg or .parm backup by hand, the
collector with the config's path to verify. Results are the goldens written from examples/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.next_steps import Step, steps

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def result(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / name / "recommendations.json").read_text())
    return data


def text(found: list[Step]) -> str:
    return "\n".join(line for s in found for line in (s.title, *s.words, *s.commands))


def of(name: str) -> list[Step]:
    doc = result(name)
    return steps(doc["inventory"], doc["artifacts"])


def commands(found: list[Step], title: str) -> tuple[str, ...]:
    return next(s.commands for s in found if s.title == title)


@pytest.mark.parametrize("name", ["linux-rhel9-sas94", "aix73-sas94-1mb", "windows-sas94",
                                  "power-smt8-spds53", "lemans-aix53-etl"])  # fmt: skip
def test_six_steps_in_order(name: str) -> None:
    titles = [s.title for s in of(name)]
    assert titles == ["Back up", "Dry run", "Apply", "Restart", "Verify", "Roll back"]


def test_linux_script_tuned_and_config() -> None:
    found = of("linux-rhel9-sas94")
    assert commands(found, "Dry run") == ("sh linux_tuning.sh -n",)
    assert commands(found, "Apply")[0] == "sh linux_tuning.sh"
    assert "sh linux_tuning.sh --without-tuned" in text(found)
    assert "ansible_linux.yml" in text(found)
    assert "tuned" in text(found)
    assert 'cp -p "$SASROOT/sasv9_local.cfg" "$SASROOT/sasv9_local.cfg.orig"' in commands(
        found, "Back up"
    )
    verify = commands(found, "Verify")
    assert (
        verify[0]
        == 'sh sas-advisor-collect.sh --out bundle.txt --sas-config "$SASROOT/sasv9_local.cfg"'
    )
    assert commands(found, "Roll back")[:2] == (
        "BACKUP=/var/backups/sas-tuning/YYYYMMDD-HHMMSS-PID   # edit: the folder linux_tuning.sh"
        " printed",
        'sh "$BACKUP/rollback.sh"',
    )
    for other in (
        "aix_tuning.sh",
        "ansible_aix.yml",
        "ioo",
        "chdev",
        "spdsserv.parm",
        "SPD Server",
        "copy ",
        "type ",
    ):
        assert other not in text(found)


def test_aix_script_no_linux_words() -> None:
    found = of("aix73-sas94-1mb")
    assert commands(found, "Dry run") == ("sh aix_tuning.sh -n",)
    assert "BACKUP=/var/adm/sas-tuning/YYYYMMDD-HHMMSS-PID" in commands(found, "Roll back")[0]
    assert 'sh "$BACKUP/rollback.sh"' in commands(found, "Roll back")
    assert "chdev -P" in text(found)
    assert "ansible_aix.yml" in text(found)
    for other in ("tuned", "linux_tuning.sh", "sysctl", "SPD Server", "type "):
        assert other not in text(found)


def test_windows_has_no_script_and_copies_the_language_file() -> None:
    found = of("windows-sas94")
    all_text = text(found)
    assert commands(found, "Dry run") == ()
    assert (
        'copy /Y "%SASROOT%\\nls\\en\\sasv9.cfg" "%SASROOT%\\nls\\en\\sasv9.cfg.orig"' in all_text
    )
    assert 'type sasv9_append.cfg >> "%SASROOT%\\nls\\en\\sasv9.cfg"' in commands(found, "Apply")
    for c in (c for s in found for c in s.commands):
        assert not c.startswith(("sh ", "cp ", "cat "))
    for other in ("tuned", "rollback.sh", "ioo", "chdev", "SPD Server", ".sh", "ansible"):
        assert other not in all_text


def test_spd_server_files_backed_up_restarted_and_verified() -> None:
    found = of("power-smt8-spds53")
    assert "cp -p spdsserv.parm spdsserv.parm.orig" in commands(found, "Back up")
    assert any("Restart SPD Server" in w for w in found[3].words)
    assert "--spds-parm spdsserv.parm --libnames-parm libnames.parm" in commands(found, "Verify")[0]
    assert "cp -p spdsserv.parm.orig spdsserv.parm" in commands(found, "Roll back")


def test_old_sas_appends_to_the_installed_config() -> None:
    found = of("lemans-aix53-etl")
    assert 'cat sasv9_append.cfg >> "$SASROOT/sasv9.cfg"' in commands(found, "Apply")
    assert "spdsserv" not in text(found)


def test_no_files_no_commands_but_the_verify() -> None:
    found = steps({"server": {"os": "linux"}}, [])
    assert [s.commands for s in found if s.commands] == [
        ("sh sas-advisor-collect.sh --out bundle.txt",)
    ]
    assert found.setup is None  # nothing names the SAS folder
