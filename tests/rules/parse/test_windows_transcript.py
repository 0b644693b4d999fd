"""A Windows server pasted whole: systeminfo, the processors' counts, its drives and a
DiskSpd run, drafted into an inventory the contract accepts once the admin gives what no
command tells (the workload), with every field read naming the command it came from."""

from __future__ import annotations

import copy

from rules.parse import draft
from rules.parse.combine_windows import windows_server, windows_storage
from rules.validate import parse
from tests.rules.parse.fixtures import header_and_output

SYSTEMINFO = "windows/systeminfo_win10_virtualbox_fhb_codelabs.txt"
DISKSPD = "diskspd/diskspd_random_mix_samsung_mzvl2512g_c_ntjcbs.txt"  # on c:\diskspd
WORKLOAD = {"concurrent_sessions": 4, "mix": {"etl": 1}, "largest_table_gb": 10,
            "total_data_gb": 100}  # fmt: skip
CPU = ["", "NumberOfCores  NumberOfLogicalProcessors  ", "", "2              4", ""]
VOLUMES = [
    "",
    "DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus "
    "SizeRemaining      Size",
    "----------- ------------ -------------- --------- ------------ ----------------- "
    "-------------      ----",
    "C           Windows      NTFS           Fixed     Healthy      OK                "
    "     94.36 GB 118.9 GB",
    "            Recovery     NTFS           Fixed     Healthy      OK                "
    "    147.26 MB    904 MB",
    "D           SASWORK      ReFS           Fixed     Healthy      OK                "
    "    499.87 GB 499.98 GB",
    "E           USB          FAT32          Removable Healthy      OK                "
    "      7.2 GB   7.45 GB",
    "",
]


def _paste(*, diskspd: bool = True) -> str:
    parts = []
    header, lines = header_and_output(SYSTEMINFO)
    parts += [f"C:\\Users\\sas> {header['command']}", *lines]
    parts += ["C:\\Users\\sas> wmic cpu get NumberOfCores,NumberOfLogicalProcessors", *CPU]
    parts += ["PS C:\\Users\\sas> Get-Volume", *VOLUMES]
    if diskspd:
        header, lines = header_and_output(DISKSPD)
        parts += [f"PS C:\\Users\\sas> {header['command']}", *lines]
    return "\n".join([*parts, "PS C:\\Users\\sas> "]) + "\n"


def test_a_windows_paste_drafts_its_server_and_fixed_drives() -> None:
    got = draft(_paste(diskspd=False))
    server = got.document["server"]
    assert server == {
        "os": "windows", "os_version": "10.0", "hostname": "DESKTOP-315IDDD",
        "cpus": 4, "cores": 2, "smt_threads": 2, "ram_gb": 8.0,
    }  # fmt: skip
    storage = got.document["storage"]
    assert [(s["mount"], s["filesystem"], s["size_gb"], s["role"]) for s in storage] == [
        ("C:\\", "ntfs", 118.9, "other"), ("D:\\", "refs", 499.98, "work"),
    ]  # fmt: skip
    assert got.provenance["server.cpus"].command.startswith("wmic cpu")
    assert got.provenance["server.ram_gb"].raw == "8192 MB"
    assert got.provenance["storage[1].mount"].command == "Get-Volume"
    assert any("E: (a Removable drive)" in n for n in got.notes), got.notes
    assert not got.problems and not got.unknown


def test_the_draft_is_a_valid_inventory_once_the_workload_is_given() -> None:
    got = draft(_paste())
    asked = sorted(m.path for m in got.missing if m.guess is None)
    assert asked == ["workload"]
    document = copy.deepcopy(got.document)
    document["workload"] = WORKLOAD
    inventory = parse(document)
    assert inventory.server.cpus == 4 and [s.mount for s in inventory.storage] == ["C:\\", "D:\\"]


def test_a_windows_server_release_is_read_from_its_os_name() -> None:
    text = _paste(diskspd=False).replace(
        "Microsoft Windows 10 Education", "Microsoft Windows Server 2022 Datacenter"
    )
    got = draft(text)
    assert got.document["server"]["os_release_name"] == "2022"
    document = copy.deepcopy(got.document)
    document["workload"] = WORKLOAD
    assert parse(document).server.os_release_name == "2022"


def test_the_windows_combiners_declare_what_they_read() -> None:
    from rules.parse.wiring import DECLARED

    assert DECLARED[f"{windows_server.__module__}.windows_server"] == {"systeminfo", "windows_cpu"}
    assert DECLARED[f"{windows_storage.__module__}.windows_storage"] == {
        "windows_volumes",
        "windows_fsinfo",
        "windows_disks",
        "systeminfo",
    }


def test_a_diskspd_run_reaches_the_drive_it_measured() -> None:
    got = draft(_paste())
    c_drive = got.document["storage"][0]
    assert c_drive["mount"] == "C:\\"  # the run's c:\diskspd, its case not the drive's
    assert c_drive["measured_by"] == "DiskSpd" and c_drive["measured_streams"] == 4
    assert c_drive["measured_mb_s"] == min(c_drive["measured_read_mb_s"],
                                           c_drive["measured_write_mb_s"])  # fmt: skip
    assert got.provenance["storage[0].measured_mb_s"].command.endswith("testfile.dat")
    assert "measured_mb_s" not in got.document["storage"][1]


def test_a_drive_read_twice_is_one_entry_and_other_drive_types_are_left_out() -> None:
    wmic = [
        "DeviceID  DriveType  FileSystem  FreeSpace     Size           VolumeName  ",
        "C:        3          NTFS        10000000000   127663026176   Windows     ",
        "D:        3          NTFS        900000000000  1099511627776  SASDATA     ",
        "Y:        4          NTFS        5368709120    10737418240    share       ",
        "Z:        5                                                               ",
    ]
    text = _paste(diskspd=False).replace("PS C:\\Users\\sas> ", "C:\\> wmic logicaldisk get "
        "DeviceID,DriveType,FileSystem,FreeSpace,Size,VolumeName\n" + "\n".join(wmic)
        + "\nPS C:\\Users\\sas> ", 1)  # fmt: skip
    got = draft(text)
    storage = got.document["storage"]
    assert [(s["mount"], s["filesystem"], s["role"]) for s in storage] == [
        ("C:\\", "ntfs", "other"), ("D:\\", "ntfs", "data"),
    ]  # fmt: skip
    assert storage[1]["size_gb"] == 1024.0  # wmic's bytes, read first, not Get-Volume's GB
    assert got.provenance["storage[0].size_gb"].command.startswith("wmic logicaldisk")
    assert any("Y: (a Network drive)" in n and "Z: (a CD-ROM drive)" in n for n in got.notes)


def test_hostile_labels_and_host_names_never_reach_the_draft() -> None:
    text = (
        _paste(diskspd=False)
        .replace("DESKTOP-315IDDD", "evil;reboot")
        .replace("SASWORK     ", "$(id)`x`;rm ")
        .replace("Microsoft Windows 10 Education", "Windows\x1b[2J Server 2022 $(id)")
    )
    got = draft(text)
    document = copy.deepcopy(got.document)
    for bad in (";", "$(", "`", "\x1b"):
        assert bad not in repr(document)
    assert document["server"]["hostname"] == "server"  # refused, so guessed and asked
    assert [s["name"] for s in document["storage"]] == ["Windows", "drive_d"]
    assert all("\x1b" not in n for n in got.notes)
    document["workload"] = WORKLOAD
    parse(document)


def test_cmds_default_prompt_with_no_blank_starts_each_command() -> None:
    """cmd's $P$G prompt: `C:\\work>systeminfo`, the command right after the `>`."""
    lines = header_and_output("windows/systeminfo_ws2022_standard_hyperv_wesng.txt")[1]
    cpu = "\n".join(CPU)
    text = (
        "C:\\work>systeminfo\n"
        + "\n".join(lines)
        + (f"\nC:\\work>wmic cpu get NumberOfCores,NumberOfLogicalProcessors\n{cpu}\nC:\\work>\n")
    )
    got = draft(text)
    server = got.document["server"]
    assert (server["os_release_name"], server["cpus"], server["ram_gb"]) == ("2022", 4, 2.0)
    assert server["hostname"] == "WIN-RIBN7SM07BK" and not got.unknown
    assert got.provenance["server.cpus"].line == len(lines) + 2
    # output lines with a `>` between words stay output
    assert not draft("C:\\work>systeminfo\n<b>bold</b> and x>y\n").unknown
