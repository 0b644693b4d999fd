"""Windows' drives from Get-Volume and wmic logicaldisk (and fsutil's cluster size),
shaped as Microsoft documents them (learn.microsoft.com: get-volume, Win32_LogicalDisk) and as
published PowerShell sessions print them (a label wider than its column, a CD with no
size, volumes without a letter); written here where no capture was found to name."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse import draft
from rules.parse.registry import Garbled, Section, find
from rules.parse.spans import argv_of
from rules.parse.windows_fsinfo import ClusterSize, windows_fsinfo
from rules.parse.windows_volumes import MAX_VOLUMES, windows_volumes
from tests.rules.parse.fixtures import header_and_output, section

GIB = 1024**3
GET_VOLUME = (
    "",
    "DriveLetter FriendlyName FileSystemType DriveType HealthStatus OperationalStatus "
    "SizeRemaining      Size",
    "----------- ------------ -------------- --------- ------------ ----------------- "
    "-------------      ----",
    "            WINRETOOLS   NTFS           Fixed     Healthy      OK                "
    "    315.58 MB    990 MB",
    "D           SASWORK      NTFS           Fixed     Healthy      OK                "
    "    499.87 GB 499.98 GB",
    "E           SAS Data     ReFS           Fixed     Healthy      OK                "
    "      1.2 TB      4 TB",
    "K           CCCOMA_X64FR Unknown        CD-ROM    Healthy      OK                "
    "          0 B       0 B",
    "",
)
WMIC = (
    "DeviceID  DriveType  FileSystem  FreeSpace      Size           VolumeName  ",
    "C:        3          NTFS        48011235328    126696288256   OS          ",
    "D:        3          NTFS        1098437885952  1099511627776  saswork     ",
    "E:        5                                                                ",
    "Z:        4          NTFS        5368709120     10737418240    share       ",
    "",
)


def _section(command: str, lines: tuple[str, ...] | list[str]) -> Section:
    return Section(command, argv_of(command), tuple(lines), 1)


def test_get_volume_reads_each_volume_its_letter_label_type_and_binary_sizes() -> None:
    found = find(argv_of("Get-Volume"))
    assert found is not None and found.name == "windows_volumes"
    rows = windows_volumes(_section("Get-Volume", GET_VOLUME))
    assert [(v.letter, v.label, v.filesystem, v.drive_type) for v in rows] == [
        ("", "WINRETOOLS", "NTFS", "Fixed"), ("D", "SASWORK", "NTFS", "Fixed"),
        ("E", "SAS Data", "ReFS", "Fixed"), ("K", "CCCOMA_X64FR", "Unknown", "CD-ROM"),
    ]  # fmt: skip
    assert rows[1].size_bytes == int(499.98 * GIB) and rows[1].free_bytes == int(499.87 * GIB)
    assert rows[2].size_bytes == 4 * 1024 * GIB and rows[1].size_text == "499.98 GB"
    assert rows[1].offset == 4


def test_wmic_logicaldisk_reads_bytes_and_drive_types() -> None:
    command = "wmic logicaldisk get DeviceID,DriveType,FileSystem,FreeSpace,Size,VolumeName"
    found = find(argv_of(command))
    assert found is not None and found.name == "windows_volumes"
    rows = windows_volumes(_section(command, WMIC))
    assert [(v.letter, v.drive_type, v.filesystem, v.label) for v in rows] == [
        ("C", "Fixed", "NTFS", "OS"), ("D", "Fixed", "NTFS", "saswork"),
        ("E", "CD-ROM", "", ""), ("Z", "Network", "NTFS", "share"),
    ]  # fmt: skip
    assert rows[1].size_bytes == 1099511627776 and rows[2].size_bytes is None


@pytest.mark.parametrize(
    ("command", "lines", "offset"),
    [
        ("Get-Volume", ("Name Size",), 0),
        ("Get-Volume", (GET_VOLUME[1], "D  SASWORK  NTFS  Fixed  Healthy  OK  lots"), 1),
        ("Get-Volume", (GET_VOLUME[1], "DD  SASWORK  NTFS  Fixed  Healthy  OK  1 GB  2 GB"), 1),
        ("Get-Volume", (GET_VOLUME[1], "D  x  NTFS  Fixed  Healthy  OK  1 GB  9999999999 PB"), 1),
        ("wmic logicaldisk get DeviceID,Size", ("DeviceID  Size", "C:        12x"), 1),
        ("wmic logicaldisk get DeviceID,Size", ("DeviceID  Size", "", "CC:       1"), 2),
    ],
)  # fmt: skip
def test_what_is_not_a_volume_table_is_garbled_at_its_line(
    command: str, lines: tuple[str, ...], offset: int
) -> None:
    with pytest.raises(Garbled) as garbled:
        windows_volumes(_section(command, lines))
    assert garbled.value.offset == offset


def test_a_paste_of_more_volumes_than_any_server_is_refused() -> None:
    rows = ["DeviceID  Size", *(["C:        1"] * (MAX_VOLUMES + 1))]
    with pytest.raises(Garbled, match="more than"):
        windows_volumes(_section("wmic logicaldisk get DeviceID,Size", rows))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" -:.0123456789DriveLtrSizGBMTNF", max_size=80), max_size=10))
def test_any_text_gives_volumes_or_garbled(lines: list[str]) -> None:
    for command in ("Get-Volume", "wmic logicaldisk get DeviceID,Size"):
        with contextlib.suppress(Garbled):
            windows_volumes(_section(command, ["DriveLetter DeviceID FileSystem Size", *lines]))


NTFSINFO = "windows/fsutil_ntfsinfo_c_service_fabric_azure.txt"


def test_fsutil_ntfsinfo_reads_the_drive_and_its_cluster_size() -> None:
    assert windows_fsinfo(section(NTFSINFO)) == ClusterSize("C", 4096, 512, 10)
    lines = ("Bytes Per Cluster :                65536",)
    for command in ("fsutil fsinfo ntfsinfo d:\\", "fsutil fsinfo refsinfo D:"):
        assert windows_fsinfo(_section(command, lines)).cluster_bytes == 65536
        assert windows_fsinfo(_section(command, lines)).drive == "D"


@pytest.mark.parametrize(
    "lines", [(), ("Bytes Per Sector  :  512",), ("Bytes Per Cluster :  4096000000",)]
)
def test_an_ntfsinfo_without_a_cluster_size_is_garbled(lines: tuple[str, ...]) -> None:
    with pytest.raises(Garbled):
        windows_fsinfo(_section("fsutil fsinfo ntfsinfo D:", lines))


def test_a_small_allocation_unit_is_named_in_a_note() -> None:
    header, lines = header_and_output(NTFSINFO)
    got = draft("\n".join([f"C:\\> {header['command']}", *lines, "C:\\> "]))
    assert got.document["server"]["os"] == "windows"
    small = [n for n in got.notes if "C:\\ has 4 KB allocation units" in n]
    assert small and "system drive" in small[0] and "move it to a dedicated volume" in small[0]
    assert "/A:64K" not in small[0] and "format C:" not in small[0]
    lines = ["Bytes Per Cluster :                65536"]
    got = draft("\n".join(["C:\\> fsutil fsinfo ntfsinfo D:", *lines, "C:\\> "]))
    assert any("D:\\ has 64 KB allocation units, as SAS wants" in n for n in got.notes)


CIM = (
    "",
    "DeviceID DriveType ProviderName VolumeName Size          FreeSpace",
    "-------- --------- ------------ ---------- ----          ---------",
    "C:               3              OS         254721126400  45035069440",
    "D:               3              SASWORK    1099511627776 1098437885952",
    "E:               5",
    "Z:               4 \\\\nas\\sas    share      10737418240   5368709120",
    "",
)


def test_get_ciminstance_win32_logicaldisk_reads_like_wmic() -> None:
    command = "Get-CimInstance -ClassName Win32_LogicalDisk"
    found = find(argv_of(command))
    assert found is not None and found.name == "windows_volumes"
    rows = windows_volumes(_section(command, CIM))
    assert [(v.letter, v.drive_type, v.label, v.size_bytes) for v in rows] == [
        ("C", "Fixed", "OS", 254721126400), ("D", "Fixed", "SASWORK", 1099511627776),
        ("E", "CD-ROM", "", None), ("Z", "Network", "share", 10737418240),
    ]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" -:=.0123456789DriveLtrSizGBMTNF\t", max_size=80), max_size=12))
def test_any_list_view_gives_volumes_or_garbled(lines: list[str]) -> None:
    for command in ("Get-WmiObject Win32_LogicalDisk", "Get-Volume", "wmic logicaldisk list"):
        with contextlib.suppress(Garbled):
            for volume in windows_volumes(_section(command, ["DeviceID : C:", *lines])):
                assert len(volume.letter) <= 1 and (volume.size_bytes or 0) <= 10**18


@pytest.mark.parametrize(
    ("line", "cluster"),
    [
        ("Bytes Per Cluster :                65536  (64 KB)", 65536),
        ("Bytes Per Cluster :          4096                 (=> 8 sectors/cluster)", 4096),
    ],
)
def test_a_cluster_size_with_fsutils_gloss_after_it_is_read(line: str, cluster: int) -> None:
    """fsutil may gloss the number in brackets (refsinfo's `(=> 8 sectors/cluster)`, shaped
    here as refsinfo prints it): the number is still the cluster size."""
    lines = ["Bytes Per Sector  :  512", line]
    found = windows_fsinfo(_section("fsutil fsinfo refsinfo D:", lines))
    assert (found.drive, found.cluster_bytes, found.sector_bytes) == ("D", cluster, 512)
