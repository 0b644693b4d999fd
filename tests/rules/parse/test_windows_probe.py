"""Windows transcripts a user pasted: a drive labelled in wide characters, the system
drive's small allocation units, and Get-Disk / Get-PhysicalDisk, read rather than unknown.

The lines are real: t13's Get-Volume is GitHub file id 32657926787 (`PS C:\\Windows\\system32>
Get-Volume`, the label 新加卷); t12's fsutil is GitHub file id 6863701659 (block-size notes,
`fsutil fsinfo ntfsinfo c:`); t9's get-disk and get-physicaldisk are FSLogix/
Invoke-FslShrinkDisk issue #43 (comment by 4oo4, 2021-08-17); the `Get-Disk | Select *` lines
are ansible/ansible pull request #51595 (wilmardo's comment); the disk tables are the
fixtures under tests/fixtures/parse/windows/, each naming its source.
"""

from __future__ import annotations

from typing import Any

import rules
from rules.parse import draft
from rules.parse.columns import FILL, by_width, unfill
from rules.parse.combine_windows import _cluster_advice
from rules.parse.registry import Section
from rules.parse.sections import argv_of
from rules.parse.windows_disks import windows_disks
from rules.parse.windows_volumes import windows_volumes
from tests.conftest import example
from tests.rules.parse.fixtures import header_and_output, section

T13 = [
    "",
    "DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus SizeRemaining      Size",  # noqa: E501
    "----------- ------------ -------------- --------- ------------ ----------------- -------------      ----",  # noqa: E501
    "D           新加卷       NTFS           Fixed     Healthy      OK                     87.26 GB    276 GB",  # noqa: E501
    "G           M62xx-TRoot  Unknown        Removable Healthy      OK                     43.44 GB  43.44 GB",  # noqa: E501
    "                         NTFS           Fixed     Healthy      OK                      84.3 MB    591 MB",  # noqa: E501
    "F           M62XX-TBOOT  FAT32          Removable Healthy      OK                     15.99 GB  15.99 GB",  # noqa: E501
    "C                        NTFS           Fixed     Healthy      OK                     213.1 GB 654.82 GB",  # noqa: E501
    "                         FAT32          Fixed     Healthy      OK                      69.2 MB     96 MB",  # noqa: E501
]
T12 = [
    "NTFS Volume Serial Number :       0xfae82044e81ffe0f",
    "Version :                         3.1",
    "Number Sectors :                  0x0000000004ffffff",
    "Total Clusters :                  0x00000000009fffff",
    "Free Clusters  :                  0x00000000003ff408",
    "Total Reserved :                  0x0000000000000000",
    "Bytes Per Sector  :               512",
    "Bytes Per Cluster :               4096",
]
T9 = [
    "PS C:\\Windows\\system32> get-disk",
    "",
    "Number Friendly Name Serial Number                    HealthStatus         OperationalStatus      Total Size Partition",  # noqa: E501
    "                                                                                                             Style",  # noqa: E501
    "------ ------------- -------------                    ------------         -----------------      ---------- ----------",  # noqa: E501
    "2      Msft Virtu...                                  Healthy              Online                      30 GB MBR",  # noqa: E501
    "0      VMware Vir...                                  Healthy              Online                      50 GB MBR",  # noqa: E501
    "1      VMware Vir...                                  Healthy              Online                    1.95 TB GPT",  # noqa: E501
    "",
    "PS C:\\Windows\\system32> get-physicaldisk",
    "",
    "FriendlyName        SerialNumber CanPool OperationalStatus HealthStatus Usage          Size",
    "------------        ------------ ------- ----------------- ------------ -----          ----",
    "VMware Virtual disk              False   OK                Healthy      Auto-Select   50 GB",
    "VMware Virtual disk              False   OK                Healthy      Auto-Select 1.95 TB",
    "Msft Virtual Disk                False   OK                Healthy      Auto-Select   30 GB",
    "",
    "PS C:\\Windows\\system32> ",
]
SELECT_ALL = [  # ansible/ansible PR #51595: `Get-Disk | Select *`, its first lines
    "DiskNumber            : 0",
    "PartitionStyle        : GPT",
    "ProvisioningType      : Thin",
    "OperationalStatus     : Online",
    "HealthStatus          : Healthy",
    "BusType               : SAS",
    "UniqueIdFormat        : Vendor Specific",
    "OfflineReason         :",
    'ObjectId              : {1}\\\\AUTOTEST\\root/Microsoft/Windows/Storage/Providers_v2\\WSP_Disk.ObjectId="{fcd77b1a-2dd1-11e',  # noqa: E501
    "                        9-9101-806e6f6e6963}:DI:\\\\?\\scsi#disk&ven_vmware&prod_virtual_disk#5&1982005&0&000000#{53f56307",  # noqa: E501
    '                        -b6bf-11d0-94f2-00a0c91efb8b}"',
    "AllocatedSize         : 53687091200",
    "FriendlyName          : VMware Virtual disk",
]


def _paste(command: str, lines: list[str]) -> str:
    return "\n".join([f"PS C:\\Windows\\system32> {command}", *lines, "PS C:\\> "]) + "\n"


def _storage(text: str) -> list[tuple[Any, ...]]:
    got = draft(text)
    return [
        (s["mount"], s["filesystem"], s["size_gb"], s["media"]) for s in got.document["storage"]
    ]


# 1. A label of wide characters: the columns are display cells.


def test_a_wide_label_leaves_the_drive_its_file_system_type_and_size() -> None:
    volumes = windows_volumes(Section("Get-Volume", argv_of("Get-Volume"), tuple(T13), 1))
    d = volumes[0]
    assert (d.letter, d.label, d.filesystem, d.drive_type, d.size_text) == (
        "D", "新加卷", "NTFS", "Fixed", "276 GB"
    )  # fmt: skip
    got = draft(_paste("Get-Volume", T13))
    assert [(s["mount"], s["size_gb"]) for s in got.document["storage"]] == [
        ("D:\\", 276.0), ("C:\\", 654.82),
    ]  # fmt: skip
    assert not any("D:" in note and "left out" in note for note in got.notes), got.notes


def test_display_cells_are_one_pass_and_an_ascii_line_is_untouched() -> None:
    assert by_width(T13[1]) is T13[1]
    wide = by_width(T13[3])
    assert wide.index("NTFS") == T13[1].index("FileSystemType")
    assert unfill(wide) == T13[3] and FILL not in unfill(f"a{FILL}b")
    long = "新" * 100_000
    assert len(by_width(long)) == 200_000


# 2. The system drive is never told to be formatted.


def test_the_system_drives_small_units_move_work_off_it_rather_than_format_it() -> None:
    got = draft("\n".join(["C:\\Windows\\system32>fsutil fsinfo ntfsinfo c:", *T12, "C:\\> "]))
    note = next(n for n in got.notes if "4 KB allocation units" in n)
    assert "system drive" in note and "dedicated volume" in note
    assert "/A:64K" not in note and "format C:" not in note


def test_a_format_is_advised_only_for_a_drive_holding_sas_files() -> None:
    assert "format D: /FS:NTFS /A:64K" in _cluster_advice("D", "C", "work", "NTFS")
    assert "/FS:ReFS" in _cluster_advice("D", "C", "utilloc", "ReFS")
    other = _cluster_advice("D", "C", "other", "NTFS")
    assert "format" not in other and "none is known" in other
    assert "system drive" in _cluster_advice("D", "D", "work", "NTFS")  # Windows on D:
    assert "format C:" in _cluster_advice("C", "D", "work", "NTFS")


def test_the_rule_engine_moves_work_off_the_system_drive() -> None:
    doc = example("windows-sas94")
    work = next(e for e in doc["storage"] if e["role"] == "work")
    work["mount"], work["filesystem"] = "C:\\saswork", "ntfs"
    done = rules.advise(doc)
    found = {r["setting"]: r for r in done["recommendations"] if r["target"] == "system"}
    why = found["NTFS allocation unit"]["rationale"]
    assert "C:\\saswork is on C:, the Windows system drive" in why
    assert "move SAS WORK and UTILLOC to a dedicated volume" in why
    assert "Format the volumes of C:" not in why and "C:\\saswork," not in why


# 3. Get-Disk and Get-PhysicalDisk are read, and what they say is used.


def test_t9s_disks_are_read_not_unknown_and_named_with_their_sizes() -> None:
    got = draft("\n".join(T9) + "\n")
    assert not got.unknown and not got.problems
    assert any("`get-disk` lists 3 disks" in n and "1.95 TB" in n for n in got.notes)
    assert any("`get-physicaldisk` lists 3 disks" in n for n in got.notes)


def test_get_disk_tables_and_a_select_all_list() -> None:
    disks = windows_disks(section("windows/get_disk_vmware_fslogix.txt")).disks
    assert [(d.number, d.size_text, d.status) for d in disks] == [
        ("2", "30 GB", "Online"), ("0", "50 GB", "Online"), ("1", "1.95 TB", "Online"),
    ]  # fmt: skip
    listed = windows_disks(
        Section("Get-Disk | Select *", argv_of("Get-Disk"), tuple(SELECT_ALL), 1)
    )
    (disk,) = listed.disks
    assert (disk.number, disk.name, disk.bus, disk.health) == (
        "0", "VMware Virtual disk", "SAS", "Healthy"
    )  # fmt: skip


def _with_volumes(fixture: str) -> str:
    header, lines = header_and_output(fixture)
    volumes = T13[:4]  # D: only
    return _paste(header["command"], lines) + _paste("Get-Volume", volumes)


def test_every_disk_ssd_puts_solid_state_on_the_drives() -> None:
    text = _with_volumes("windows/get_physicaldisk_two_ssds_issue514_microsoftdocs.txt")
    assert _storage(text) == [("D:\\", "ntfs", 276.0, "ssd")]
    assert draft(text).provenance["storage[0].media"].command == "get-physicaldisk"


def test_unspecified_or_mixed_media_stay_a_guess_that_says_what_was_read() -> None:
    for fixture, said in [
        ("windows/get_physicaldisk_azure_runner_unspecified_maruel.txt", "Unspecified"),
        ("windows/get_physicaldisk_select_mediatype_powershell.txt", "SSD (1)"),
        ("windows/get_physicaldisk_vmware_fslogix.txt", "no MediaType column"),
    ]:
        got = draft(_with_volumes(fixture))
        assert "storage[0].media" not in got.provenance
        why = next(m.reason for m in got.missing if m.path == "storage[0].media")
        assert said in why and "was not read" not in why, why
