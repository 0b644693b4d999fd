"""A Windows prompt (`C:\\> `, `PS C:\\Users\\sas> `) is Windows evidence, never an AIX
`host:/path> ` prompt of a host named after the drive letter.

The pastes are shaped as cmd and PowerShell show their default prompts and as `systeminfo`
prints its first lines (https://learn.microsoft.com/en-us/windows-server/administration/
windows-commands/systeminfo); they are written for this test, not captured output.
"""

from __future__ import annotations

import pytest

from rules.parse import draft
from rules.parse.prompts import prompt_lines, prompt_of

SYSTEMINFO = (
    "C:\\> systeminfo\n"
    "\n"
    "Host Name:                 WIN01\n"
    "OS Name:                   Microsoft Windows Server 2019 Standard\n"
)


@pytest.mark.parametrize(
    "line",
    ["C:\\> systeminfo", "PS C:\\Users\\sas> hostname", "D:\\SASHome\\SASFoundation> dir",
     "C:\\Program Files\\SASHome> dir"],
)  # fmt: skip
def test_a_drive_letter_prompt_is_windows_and_names_no_host(line: str) -> None:
    [found] = list(prompt_lines(line + "\n"))
    prompt = prompt_of(found.prefix, found.sign, found.number)
    assert (prompt.shape, prompt.host, found.sign) == ("windows", None, ">")
    assert found.command == line.split("> ", 1)[1]


def test_systeminfo_pasted_at_a_cmd_prompt_reads_as_windows_not_aix() -> None:
    found = draft(SYSTEMINFO)
    assert found.document["server"]["os"] == "windows"
    assert found.document["server"].get("hostname") != "C"
    os = found.provenance["server.os"]
    assert "AIX" not in os.note and "of C" not in os.command
    assert os.command == "systeminfo" and os.line == 1  # systeminfo itself, more than the prompt


def test_a_powershell_prompt_starts_its_command() -> None:
    found = draft("PS C:\\Users\\sas> hostname\nWIN01\n")
    assert found.document["server"]["os"] == "windows"
    assert found.document["server"]["hostname"] == "WIN01"


def test_an_aix_host_path_prompt_is_still_aix() -> None:
    [line] = list(prompt_lines("aix01:/home/sas> oslevel -s\n"))
    prompt = prompt_of(line.prefix, line.sign, line.number)
    assert (prompt.shape, prompt.host) == ("host:path", "aix01")
    assert draft("aix01:/> hostname\naix01\n").document["server"]["os"] == "aix"
