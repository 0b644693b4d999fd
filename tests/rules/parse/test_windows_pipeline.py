"""A PowerShell pipeline pasted at a prompt is read by the parser of the cmdlet whose
objects it prints; the cmdlets that select, filter, sort or format them do not change it,
and a unix pipeline is still its first command's output, filtered.

The pipelines are Microsoft's own, from the PowerShell documentation:
- PS-SELECT: MicrosoftDocs/PowerShell-Docs reference/docs-conceptual/samples/
  Selecting-Parts-of-Objects--Select-Object-.md@058a6e86eac1b27ca57a11687019df98709ed709
  (Win32_LogicalDisk through Select-Object, then with a calculated FreeSpace in GB);
- PS-COLLECT: MicrosoftDocs/PowerShell-Docs reference/docs-conceptual/samples/
  Collecting-Information-About-Computers.md@0dc4bb10a1faaabe2eab0a938e5fa06e9f59b719
  (Win32_Processor through Select-Object -ExcludeProperty, the fixed disks through
  Measure-Object, Win32_Service through Format-Table), written there over several lines;
- GET-VOLUME: MicrosoftDocs/windows-powershell-docs docset/winserver2022-ps/storage/
  Get-Volume.md@071b3ece17c983ca7b9b9a0c101591ae1d44db8e (Example 2's output; its INPUTS
  section: a Partition object piped in, as `Get-Partition … | Get-Volume` does).
"""

from __future__ import annotations

import pytest

from rules.parse import draft
from rules.parse.powershell import producer
from rules.parse.registry import find
from rules.parse.spans import argv_of

PS_SELECT = "Get-CimInstance -Class Win32_LogicalDisk | Select-Object -Property Name,FreeSpace"
PS_SELECT_GB = (
    "Get-CimInstance -Class Win32_LogicalDisk | Select-Object -Property Name, @{ "
    "label='FreeSpace'; expression={($_.FreeSpace/1GB).ToString('F2')} }"
)
PS_MEASURE = (
    'Get-CimInstance -ClassName Win32_LogicalDisk -Filter "DriveType=3" | '
    "Measure-Object -Property FreeSpace,Size -Sum | Select-Object -Property Property,Sum"
)
MEASURE_OUTPUT = [
    "",
    "Property           Sum",
    "--------           ---",
    "FreeSpace 109839607808",
    "Size      326846914560",
]
GET_VOLUME_OUTPUT = [
    "DriveLetter         FileSystemLabel     FileSystem          HealthStatus              "
    "SizeRemaining                Size",
    "-----------         ---------------     ----------          ------------              "
    "-------------                ----",
    "C                                       NTFS                Healthy                   "
    "     23.61 GB           465.42 GB",
]


def _family(command: str) -> str | None:
    found = find(argv_of(command))
    return found.name if found is not None else None


@pytest.mark.parametrize(
    ("command", "family"),
    [
        (PS_SELECT, "windows_volumes"),  # PS-SELECT: Select-Object picks columns
        ('Get-CimInstance -ClassName Win32_Processor | Select-Object -ExcludeProperty "CIM*"',
         "windows_cpu"),  # PS-COLLECT
        ("Get-Partition -DiskNumber 1 | Get-Volume", "windows_volumes"),  # GET-VOLUME
        ("Get-CimInstance Win32_LogicalDisk | Select-Object DeviceID,Size,FileSystem | "
         "Format-Table", "windows_volumes"),
        ('Get-Volume | Where-Object {$_.FileSystemLabel -match "SAS|WORK"} | ft -AutoSize',
         "windows_volumes"),  # a `|` inside the script block and its quotes splits nothing
        ("Get-Volume; Get-Disk | Get-Partition", "windows_volumes"),  # a list: its first
    ],
)  # fmt: skip
def test_a_powershell_pipeline_is_read_by_its_producing_cmdlet(command: str, family: str) -> None:
    assert _family(command) == family


@pytest.mark.parametrize(
    ("command", "argv0"),
    [
        (PS_SELECT_GB, "Select-Object"),  # PS-SELECT: FreeSpace now in GB, not bytes
        (PS_MEASURE, "Measure-Object"),  # PS-COLLECT: sums, not the disks
        ("Get-CimInstance -ClassName Win32_Service | Format-Table -Property Status, Name, "
         "DisplayName -AutoSize -Wrap", "Get-CimInstance"),  # PS-COLLECT: services
        ("Get-Volume | Select-Object -ExpandProperty Size", "Select-Object"),
        ("Get-CimInstance -ClassName Win32_LogicalDisk | ForEach-Object { $_.Size }",
         "ForEach-Object"),
    ],
)  # fmt: skip
def test_a_cmdlet_that_rewrites_the_values_is_read_by_no_disk_parser(
    command: str, argv0: str
) -> None:
    assert argv_of(command)[0] == argv0
    assert _family(command) is None


def test_a_pipeline_continued_past_its_line_has_no_producer_to_read() -> None:
    """PS-COLLECT writes its pipelines over lines ending in `|`: the producer is on a line
    the pasted command line does not hold."""
    command = 'Get-CimInstance -ClassName Win32_LogicalDisk -Filter "DriveType=3" |'
    assert producer(command) == "" and _family(command) is None


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        ("mount | grep xfs", ("mount",)),
        ("lsattr -El hdisk0 | grep max", ("lsattr", "-El", "hdisk0")),
        ("lsblk && df -h", ("lsblk",)),
        ("update-alternatives --display java | grep link",
         ("update-alternatives", "--display", "java")),  # a hyphenated program, not a cmdlet
        ('systeminfo | findstr /C:"OS Name"', ("systeminfo",)),  # a program's text, filtered
    ],
)  # fmt: skip
def test_other_pipelines_stay_their_first_command(command: str, argv: tuple[str, ...]) -> None:
    assert argv_of(command) == argv


def test_get_partition_piped_to_get_volume_drafts_the_volume() -> None:
    text = "\n".join(["PS C:\\> Get-Partition -DiskNumber 1 | Get-Volume", *GET_VOLUME_OUTPUT, ""])
    got = draft(text)
    [drive] = got.document["storage"]
    assert (drive["mount"], drive["filesystem"], drive["size_gb"]) == ("C:\\", "ntfs", 465.42)
    assert got.provenance["storage[0].size_gb"].command == (
        "Get-Partition -DiskNumber 1 | Get-Volume"
    )  # the line as typed, not the cmdlet read


def test_measure_objects_sums_are_not_read_as_drives() -> None:
    got = draft("\n".join([f"PS C:\\> {PS_MEASURE}", *MEASURE_OUTPUT, ""]))
    assert not got.document.get("storage")
    assert not got.problems  # not misread as a Win32_LogicalDisk table and called garbled
    assert [u["command"] for u in got.unknown] == [PS_MEASURE]
