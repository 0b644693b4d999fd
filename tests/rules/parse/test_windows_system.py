"""Windows' systeminfo and its processor counts: the named capture under
tests/fixtures/parse/windows/, and the wmic and PowerShell shapes as Microsoft documents
them (learn.microsoft.com: windows-commands/systeminfo, Win32_Processor; Format-Table and
Format-List), written here where no capture was found to name; hostile text gives Garbled."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse.registry import Garbled, Section, find
from rules.parse.spans import argv_of
from rules.parse.windows_system import CpuCount, SystemInfo, systeminfo, windows_cpu
from tests.rules.parse.fixtures import section

FHB = "windows/systeminfo_win10_virtualbox_fhb_codelabs.txt"
SERVER_2022 = (
    "Host Name:                 WINSAS22",
    "OS Name:                   Microsoft Windows Server 2022 Datacenter",
    "OS Version:                10.0.20348 N/A Build 20348",
    "Processor(s):              2 Processor(s) Installed.",
    "                           [01]: Intel64 Family 6 Model 106 Stepping 6 GenuineIntel ~2800 Mhz",
    "                           [02]: Intel64 Family 6 Model 106 Stepping 6 GenuineIntel ~2800 Mhz",
    "Total Physical Memory:     524,157 MB",
    "Virtual Memory: Max Size:  557,949 MB",
)


def _section(command: str, lines: tuple[str, ...] | list[str]) -> Section:
    return Section(command, argv_of(command), tuple(lines), 1)


def test_the_codelab_capture_reads_its_version_host_and_german_grouped_memory() -> None:
    info = systeminfo(section(FHB))
    assert info == SystemInfo(
        host="DESKTOP-315IDDD", os_name="Microsoft Windows 10 Education", os_version="10.0",
        build="19042", release_name="", memory_mb=8192, sockets=1, system_drive="C",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("memory", "mb"),
    [("524,157 MB", 524157), ("8.192 MB", 8192), ("16 384 MB", 16384),
     ("16\u00a0384 MB", 16384), ("2048 MB", 2048)],
)  # fmt: skip
def test_a_server_release_and_memory_in_any_locale_grouping(memory: str, mb: int) -> None:
    lines = [*SERVER_2022[:-2], f"Total Physical Memory:     {memory}"]
    info = systeminfo(_section("systeminfo", lines))
    assert (info.release_name, info.os_version, info.build) == ("2022", "10.0", "20348")
    assert (info.memory_mb, info.sockets, info.host) == (mb, 2, "WINSAS22")


@pytest.mark.parametrize(
    ("lines", "offset"),
    [(["Hello"], 0), (["OS Name:   Microsoft Windows Server 2019", "OS Version:   ten"], 1),
     (["OS Name:   x", "Total Physical Memory:     lots MB"], 1),
     (["OS Name:   x", "Total Physical Memory:     99999999999999 MB"], 1)],
)  # fmt: skip
def test_what_is_not_systeminfo_is_garbled_at_its_line(lines: list[str], offset: int) -> None:
    with pytest.raises(Garbled) as garbled:
        systeminfo(_section("systeminfo", lines))
    assert garbled.value.offset == offset


WMIC_TABLE = ("NumberOfCores  NumberOfLogicalProcessors  ", "", "16             32", "",
              "16             32", "")  # fmt: skip
PS_TABLE = ("", "NumberOfCores NumberOfLogicalProcessors",
            "------------- -------------------------",
            "            8                        16", "")  # fmt: skip
PS_LIST = ("", "NumberOfCores             : 12", "NumberOfLogicalProcessors : 24", "",
           "NumberOfCores             : 12", "NumberOfLogicalProcessors : 24")  # fmt: skip
WMIC_LIST = ("", "", "NumberOfCores=4", "NumberOfLogicalProcessors=8", "", "")
WMIC_WIDE = ("DeviceID  Name                                      NumberOfCores  "
             "NumberOfLogicalProcessors", "CPU0      Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz  "
             "24             48", "CPU1      Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz  24"
             "             48")  # fmt: skip


@pytest.mark.parametrize(
    ("command", "lines", "count"),
    [
        ("wmic cpu get NumberOfCores,NumberOfLogicalProcessors", WMIC_TABLE, CpuCount(32, 64, 2)),
        ("Get-CimInstance Win32_Processor | Select NumberOfCores,NumberOfLogicalProcessors",
         PS_TABLE, CpuCount(8, 16, 1)),
        ("Get-CimInstance -ClassName Win32_Processor | fl NumberOfCores,NumberOfLogicalProcessors",
         PS_LIST, CpuCount(24, 48, 2)),
        ("wmic cpu get NumberOfCores,NumberOfLogicalProcessors /format:list", WMIC_LIST,
         CpuCount(4, 8, 1)),
        ("WMIC CPU Get DeviceID,Name,NumberOfCores,NumberOfLogicalProcessors", WMIC_WIDE,
         CpuCount(48, 96, 2)),
        ("gwmi win32_processor | select NumberOfCores", ("NumberOfCores", "-------------", "6"),
         CpuCount(6, None, 1)),
    ],
)  # fmt: skip
def test_cores_and_logical_processors_are_summed_over_sockets(
    command: str, lines: tuple[str, ...], count: CpuCount
) -> None:
    parser = find(argv_of(command))
    assert parser is not None and parser.name == "windows_cpu"
    assert windows_cpu(_section(command, lines)) == count


@pytest.mark.parametrize(
    ("lines", "offset"),
    [(("Name", "Intel"), 0), (("NumberOfCores  NumberOfLogicalProcessors", "x  8"), 1),
     (("NumberOfCores : 99999999",), 0)],
)  # fmt: skip
def test_a_count_that_is_not_one_is_garbled_at_its_line(
    lines: tuple[str, ...], offset: int
) -> None:
    with pytest.raises(Garbled) as garbled:
        windows_cpu(_section("wmic cpu get NumberOfCores", lines))
    assert garbled.value.offset == offset


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" :=-0123456789NumberOfCoresLgiclPsMB,.\t", max_size=60),
                max_size=12))  # fmt: skip
def test_any_text_gives_a_value_or_garbled(lines: list[str]) -> None:
    for command, fn in (("systeminfo", systeminfo), ("wmic cpu get NumberOfCores", windows_cpu)):
        with contextlib.suppress(Garbled):
            fn(_section(command, lines))


def test_a_long_paste_is_read_in_bounded_time() -> None:
    lines = ["NumberOfCores  NumberOfLogicalProcessors", *(["1  2"] * 2000)]
    with pytest.raises(Garbled, match="more than 1024"):
        windows_cpu(_section("wmic cpu get NumberOfCores", lines))
    info = systeminfo(_section("systeminfo", ["x" * 100_000, *SERVER_2022] * 50))
    assert info.memory_mb == 524157


@pytest.mark.parametrize(
    ("name", "version", "mb", "sockets"),
    [("windows/systeminfo_win7_de_wesng.txt", "6.1", 16155, 1),
     ("windows/systeminfo_win7_fr_wesng.txt", "6.1", 2047, 1),
     ("windows/systeminfo_win10_es_wesng.txt", "10.0", 8066, 1),
     ("windows/systeminfo_win10_it_wesng.txt", "10.0", 8073, 1),
     ("windows/systeminfo_ws2012r2_standard_2s_wesng.txt", "6.3", 4095, 2)],
)  # fmt: skip
def test_systeminfo_in_other_display_languages(
    name: str, version: str, mb: int, sockets: int
) -> None:
    info = systeminfo(section(name))
    assert (info.os_version, info.memory_mb, info.sockets) == (version, mb, sockets)
