"""`Get-CimInstance Win32_LogicalDisk`'s default table prints no FileSystem column: its
fixed local drives (DriveType 3) with a size are drafted with their size and their file
system held as "other" and asked for, never guessed NTFS; network, CD and removable drives
stay out, each named in a note.

The tables are the PowerShell documentation's own (the corpus fixtures named below); the
Get-Volume and wmic rows added to them follow Microsoft's get-volume and Win32_LogicalDisk
pages, written here to pair with them, not captured."""

from __future__ import annotations

from rules.parse import draft
from rules.parse.draft import Draft
from rules.parse.windows_volumes import _cells, _columns
from tests.rules.parse.fixtures import header_and_output

GIB = 1024**3
FIXED_C_Q = "windows/win32_logicaldisk_fixed_c_q_powershell_docs.txt"
FIVE_DRIVES = "windows/win32_logicaldisk_five_drives_get_psdrive_powershell_docs.txt"


def _paste(name: str, *more: str) -> str:
    header, lines = header_and_output(name)
    return "\n".join([f"PS C:\\> {header['command']}", *lines, *more, ""])


def _storage(got: Draft) -> list[tuple[str, str, float]]:
    return [(s["mount"], s["filesystem"], s["size_gb"]) for s in got.document["storage"]]


def test_fixed_drives_without_a_file_system_column_are_kept_with_their_size() -> None:
    got = draft(_paste(FIXED_C_Q))
    assert _storage(got) == [
        ("C:\\", "other", round(203912880128 / GIB, 2)),
        ("Q:\\", "other", round(122934034432 / GIB, 2)),
    ]
    assert got.provenance["storage[1].size_gb"].raw == "122934034432"
    held = {m.path: m for m in got.missing}
    assert "storage[0].filesystem" not in got.provenance  # not read: held and asked for
    assert "FileSystem" not in held["storage[0].filesystem"].reason
    assert "not read" in held["storage[0].filesystem"].reason
    [note] = [n for n in got.notes if "was not read" in n]
    assert "C:\\, Q:\\" in note and "prints no FileSystem column" in note


def test_network_and_cd_drives_stay_out_each_named() -> None:
    got = draft(_paste(FIVE_DRIVES))
    assert [(m, fs) for m, fs, _ in _storage(got)] == [("C:\\", "other"), ("D:\\", "other")]
    # D:'s 13 digits start left of the Size header placed for C:'s 12: read whole
    assert got.document["storage"][1]["size_gb"] == round(1990045179904 / GIB, 2)
    left = next(n for n in got.notes if n.startswith("left out"))
    assert "A: (a Network drive)" in left and "E: (a CD-ROM drive)" in left
    assert "G: (a Network drive)" in left


def test_a_later_listing_that_prints_the_file_system_gives_it() -> None:
    volume = [
        "PS C:\\> Get-Volume -DriveLetter Q",
        "",
        "DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus "
        "SizeRemaining      Size",
        "----------- ------------ -------------- --------- ------------ ----------------- "
        "-------------      ----",
        "Q           New Volume   ReFS           Fixed     Healthy      OK                "
        "     41.26 GB 114.49 GB",
    ]
    got = draft(_paste(FIXED_C_Q, *volume))
    assert [(m, fs) for m, fs, _ in _storage(got)] == [("C:\\", "other"), ("Q:\\", "refs")]
    assert got.provenance["storage[1].filesystem"].command == "Get-Volume -DriveLetter Q"
    [note] = [n for n in got.notes if "was not read" in n]
    assert "C:\\" in note and "Q:\\" not in note


def test_a_later_fat_file_system_takes_the_drive_out() -> None:
    wmic = [
        "PS C:\\> wmic logicaldisk get DeviceID,DriveType,FileSystem,Size",
        "DeviceID  DriveType  FileSystem  Size          ",
        "Q:        3          FAT32       122934034432  ",
    ]
    got = draft(_paste(FIXED_C_Q, *wmic))
    assert [m for m, _, _ in _storage(got)] == ["C:\\"]
    assert any("Q: (file system FAT32, not NTFS or ReFS)" in n for n in got.notes)


def test_a_drive_type_or_size_not_printed_keeps_the_drive_out() -> None:
    text = (
        'PS C:\\> Get-CimInstance Win32_LogicalDisk -Filter "DriveType=3" | '
        "Select-Object DeviceID,Size\n"
        "\n"
        "DeviceID         Size\n"
        "--------         ----\n"
        "C:       203912880128\n"
        "\n"
        "PS C:\\> Get-CimInstance Win32_LogicalDisk | Select-Object DeviceID,DriveType\n"
        "\n"
        "DeviceID DriveType\n"
        "-------- ---------\n"
        "D:               3\n"
    )
    got = draft(text)
    assert "storage" not in got.document or not got.document["storage"]
    left = next(n for n in got.notes if n.startswith("left out"))
    assert "C: (neither its drive type nor its file system printed)" in left
    assert "D: (a fixed drive without its size or file system printed)" in left


def test_an_empty_file_system_cell_is_none_and_stays_out() -> None:
    wmic = (
        "C:\\> wmic logicaldisk get DeviceID,DriveType,FileSystem,Size\n"
        "DeviceID  DriveType  FileSystem  Size          \n"
        "E:        3                      536870912000  \n"
    )
    got = draft(wmic)
    assert not got.document.get("storage")
    assert any("E: (file system none, not NTFS or ReFS)" in n for n in got.notes)


def test_a_number_crossing_its_header_start_is_read_whole() -> None:
    header = "DeviceID VolumeName Size         FreeSpace"
    line = "D:       Big!      1990045179904 689684144128"
    cells = _cells(line, _columns(header))
    assert (cells["volumename"], cells["size"]) == ("Big!", "1990045179904")
    # a label's word that crosses a boundary stays where the header puts it
    assert _cells("D:       Big1234567", _columns("DeviceID VolumeName"))["volumename"] == (
        "Big1234567"
    )


LIST_C_Q = "windows/win32_logicaldisk_list_fixed_c_q_powershell_docs_it.txt"


def test_get_wmiobjects_list_view_gives_the_drives_its_table_gives() -> None:
    """Get-WmiObject prints Win32_LogicalDisk as a list, a drive a block (the documentation's
    older edition): the same drives, sizes and held file systems as Get-CimInstance's table."""
    listed, table = draft(_paste(LIST_C_Q)), draft(_paste(FIXED_C_Q))
    assert _storage(listed) == _storage(table)
    assert listed.problems == [] and listed.provenance["storage[1].size_gb"].raw == "122934034432"


def test_a_list_view_keeps_cd_and_network_drives_out_and_reads_wmics_list_format() -> None:
    """Blocks as Get-WmiObject prints them for a CD drive and a mapped network drive (the
    Get-PSDrive page's Example 5 drives), then `wmic logicaldisk get … /format:list`'s
    `Key=value` lines, written here to their documented shapes."""
    blocks = [
        "", "DeviceID     : D:", "DriveType    : 5", "ProviderName :", "FreeSpace    :",
        "Size         :", "VolumeName   :", "", "DeviceID     : X:", "DriveType    : 4",
        "ProviderName : \\\\server01\\public", "FreeSpace    : 36340559872",
        "Size         : 36413280256", "VolumeName   : D_Drive", "",
    ]  # fmt: skip
    got = draft(_paste(LIST_C_Q, *blocks))
    assert [m for m, _, _ in _storage(got)] == ["C:\\", "Q:\\"]
    assert any("D:" in n and "CD" in n for n in got.notes)
    wmic = "\n".join([
        "C:\\> wmic logicaldisk get DeviceID,DriveType,FileSystem,Size,VolumeName /format:list",
        "", "", "DeviceID=E:", "DriveType=3", "FileSystem=NTFS", "Size=1099511627776",
        "VolumeName=SASWORK", "", "",
    ])  # fmt: skip
    assert _storage(draft(wmic)) == [("E:\\", "ntfs", 1024.0)]


def test_a_list_of_every_property_keeps_its_drive_whole() -> None:
    """`| Format-List *` prints WMI's own `__GENUS`-style keys inside each block (shaped as
    Get-WmiObject prints them, written here): they neither end the block nor split it."""
    keys = [
        ("PSComputerName", "SASWIN01"), ("Status", ""), ("DeviceID", "E:"), ("__GENUS", "2"),
        ("__CLASS", "Win32_LogicalDisk"), ("Access", "0"), ("DriveType", "3"),
        ("FileSystem", "NTFS"), ("FreeSpace", "966494404608"), ("Size", "1098437885952"),
        ("VolumeName", "SASWORK"),
    ]  # fmt: skip
    block = [f"{key:<20} : {value}".rstrip() for key, value in keys]
    command = "PS C:\\> Get-WmiObject Win32_LogicalDisk | Format-List *"
    got = draft("\n".join([command, "", *block, ""]))
    assert _storage(got) == [("E:\\", "ntfs", round(1098437885952 / GIB, 2))]
    assert got.document["storage"][0]["name"] == "SASWORK"


def test_a_drive_another_listing_could_not_use_is_not_said_to_be_left_out() -> None:
    """`wmic volume get DriveLetter,Label,BlockSize` prints neither drive type nor file
    system: its drives are not usable alone, but those the list above gave are kept, and
    no note calls them left out (shaped as wmic prints them, written here)."""
    lines = [
        "C:\\Users\\sas>wmic logicaldisk get Caption,FileSystem,Size /format:list", "", "",
        "Caption=D:", "FileSystem=NTFS", "Size=4398029733888", "", "",
        "C:\\Users\\sas>wmic volume get DriveLetter,Label,BlockSize",
        "BlockSize  DriveLetter  Label", "65536      D:           SASDATA",
        "4096                    Recovery", "",
    ]  # fmt: skip
    got = draft("\n".join(lines))
    assert [m for m, _, _ in _storage(got)] == ["D:\\"]
    [left] = [n for n in got.notes if n.startswith("left out")]
    assert "D:" not in left and "Recovery" in left
