"""A Windows prompt (`C:\\> `, `PS C:\\Users\\sas> `) is Windows evidence, never an AIX
`host:/path> ` prompt of a host named after the drive letter.

The pastes are shaped as cmd and PowerShell show their default prompts and as `systeminfo`
prints its first lines (https://learn.microsoft.com/en-us/windows-server/administration/
windows-commands/systeminfo); they are written for this test, not captured output.
"""

from __future__ import annotations

from pathlib import Path

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


# A real Get-Volume listing from the corpus (Microsoft's Get-Volume page, Example 2).
WINDOWS = Path(__file__).parents[2] / "fixtures" / "parse" / "windows"
VOLUME = WINDOWS / "get_volume_c_ws2022_docs_microsoftdocs.txt"


def _volume_output() -> str:
    lines = VOLUME.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("## ")) + "\n"


@pytest.mark.parametrize(
    "typed",
    [
        "PS C:\\Users\\sas> Get-Volume -DriveLetter C",
        "PS C:\\Users\\sas> Get-Volume -DriveLetter C |\n>> Format-Table",
        "PS C:\\Users\\sas> Get-Volume `\n>> -DriveLetter C |\n>> Where-Object {\n"
        ">> $_.DriveLetter }\n>>",
        "PS C:\\Users\\sas> Get-Volume -DriveLetter C |\r\n>>> Sort-Object Size",
    ],
)
def test_a_pipeline_typed_over_continuation_lines_reads_as_one_command(typed: str) -> None:
    """PowerShell's console asks for the rest of a command ending in `|` or a backtick on
    lines opened by `>> `: the same facts as the command on one line."""
    found = draft(f"{typed}\n\n{_volume_output()}PS C:\\Users\\sas> hostname\nWIN01\n")
    [drive] = found.document["storage"]
    assert (drive["mount"], drive["filesystem"], drive["size_gb"]) == ("C:\\", "ntfs", 465.42)
    assert found.document["server"]["hostname"] == "WIN01"
    assert found.unknown == []


def test_continuation_lines_join_the_command_and_the_output_starts_after_them() -> None:
    text = "PS C:\\> Get-Volume |\n>>   Where-Object DriveLetter `\n>>   | Format-List\nout\n"
    [line] = list(prompt_lines(text))
    assert line.command == "Get-Volume | Where-Object DriveLetter | Format-List"
    assert text[line.end + 1 :] == "out\n"


def test_a_continuation_prompt_elsewhere_is_no_command() -> None:
    """`>> ` lines after a Unix prompt, or apart from their command, are left as they are."""
    [line] = list(prompt_lines("$ cat notes\n>> Format-Table\n"))
    assert line.command == "cat notes"
