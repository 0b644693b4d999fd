"""Microsoft DiskSpd's text report: real outputs (tests/fixtures/parse/diskspd/) into read and
write MB/s (decimal, from the bytes DiskSpd counted over its actual test time), the target's
directory, the threads and the caveats; hostile text gives Garbled, never another error."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse import draft
from rules.parse.diskspd import CAVEAT_CACHE, CAVEAT_RANDOM, MAX_ROWS, MAX_TARGETS, diskspd
from rules.parse.registry import Garbled, Section, find
from rules.parse.spans import argv_of
from tests.rules.parse.fixtures import corpus_names, header_and_output, section

SAMSUNG = "diskspd/diskspd_random_mix_samsung_mzvl2512g_c_ntjcbs.txt"
WRITE_C = "diskspd/diskspd_write_4k_c_v220_virtualclient.txt"
MIB = 1024 * 1024


def _lines(name: str) -> list[str]:
    return header_and_output(name)[1]


def _section(lines: list[str], command: str = "diskspd.exe -b4K D:\\saswork\\t.dat") -> Section:
    return Section(command, argv_of(command), tuple(lines), 1)


def test_a_mixed_run_reads_both_directions_in_decimal_mb_s() -> None:
    (one,) = diskspd(section(SAMSUNG))
    assert (one.tool, one.directory, one.streams, one.block_kb) == ("DiskSpd", "c:\\diskspd", 4, 4)
    assert one.date == "2024/09/09 02:02:42 UTC"
    # Read IO total: 31117557760 bytes in 30.01 s; DiskSpd prints 988.83 MiB/s.
    assert one.read_mb_s == pytest.approx(31117557760 / 30.01 / 1e6)
    assert one.read_mb_s == pytest.approx(988.83 * MIB / 1e6, rel=1e-3)
    assert one.write_mb_s == pytest.approx(20754493440 / 30.01 / 1e6)
    assert one.lower() == one.write_mb_s
    assert one.write_per_stream_mb_s == pytest.approx(one.write_mb_s / 4)
    assert one.caveat == CAVEAT_RANDOM


def test_a_write_only_run_on_a_drive_root_has_no_read_rate() -> None:
    (one,) = diskspd(section(WRITE_C))
    assert (one.directory, one.read_mb_s, one.streams) == ("C:\\", None, 4)
    assert one.write_mb_s == pytest.approx(20819968 / 10.0 / 1e6)
    assert one.date == "2026/06/22 22:16:45 UTC"


def test_a_bare_file_name_names_no_directory() -> None:
    (one,) = diskspd(section("diskspd/diskspd_mix_relative_path_virtualclient.txt"))
    assert one.directory == ""
    assert (one.streams, one.block_kb) == (1, 4)
    assert one.read_mb_s == pytest.approx(102645760 / 30.01 / 1e6)


@pytest.mark.parametrize("name", [n for n in corpus_names() if n.startswith("diskspd/")])
def test_every_fixture_is_found_by_its_command_and_gives_a_rate(name: str) -> None:
    found = section(name)
    parser = find(found.argv)
    assert parser is not None and parser.name == "diskspd"
    assert all(t.lower() for t in diskspd(found))


@pytest.mark.parametrize(
    "command",
    ["C:\\Tools\\DiskSpd\\amd64\\DiskSpd.exe -b512K D:\\saswork\\t.dat", ".\\diskspd.exe -w100 t",
     "diskspd -c1G x.dat", "type diskspd_saswork.txt", "Get-Content .\\diskspd-result.txt"],
)  # fmt: skip
def test_diskspd_is_recognised_however_it_was_started(command: str) -> None:
    parser = find(argv_of(command))
    assert parser is not None and parser.name == "diskspd"


def test_the_total_row_stands_for_thread_rows_a_paste_left_out() -> None:
    lines = _lines(SAMSUNG)
    trimmed = [line for line in lines if not line.lstrip().startswith(("1 |", "2 |", "3 |"))]
    assert len(trimmed) < len(lines)
    assert diskspd(_section(trimmed)) == diskspd(section(SAMSUNG))


def test_without_a_test_time_the_mib_s_column_is_converted() -> None:
    lines = [line for line in _lines(SAMSUNG) if not line.startswith("actual test time")]
    (one,) = diskspd(_section(lines))
    assert one.read_mb_s == pytest.approx((250.80 + 247.98 + 242.14 + 247.90) * MIB / 1e6)


def test_two_targets_in_one_run_are_two_measurements() -> None:
    lines = [
        line.replace("c:\\diskspd\\testfile.dat", "E:\\saswork\\t.dat")
        if line.lstrip().startswith(("2 |", "3 |")) else line
        for line in _lines(SAMSUNG)
    ]  # fmt: skip
    c, e = diskspd(_section(lines))
    assert (c.directory, e.directory, c.streams, e.streams) == ("c:\\diskspd", "E:\\saswork", 2, 2)
    assert c.read_mb_s == pytest.approx((7892606976 + 7803854848) / 30.01 / 1e6)


def test_an_older_report_with_only_its_total_table_reads_by_the_test_it_performed() -> None:
    lines = _lines(WRITE_C)
    end = next(i for i, line in enumerate(lines) if line.startswith("Total latency"))
    (one,) = diskspd(_section(lines[: lines.index("Read IO")] + lines[end:]))
    assert one.read_mb_s is None
    assert one.write_mb_s == pytest.approx(20819968 / 10.0 / 1e6)


def test_the_windows_file_cache_is_a_caveat() -> None:
    lines = [line.replace("software cache disabled", "using software cache") for line in
             _lines(SAMSUNG)]  # fmt: skip
    (one,) = diskspd(_section(lines))
    assert CAVEAT_CACHE in one.caveat and CAVEAT_RANDOM in one.caveat
    assert one.read_cached and not diskspd(_section(_lines(SAMSUNG)))[0].read_cached


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda ls: [*ls[: ls.index("Read IO") + 3], "     0 |      7892606976 |  19"],
         "Read IO row"),
        (lambda ls: ["<?xml version='1.0'?>", "<Results>"], "XML"),
        (lambda ls: ["garbage"] * 50, "no Read IO or Write IO"),
        (lambda ls: [ln for ln in ls if not ln.lstrip()[:1].isdigit()], "no Read IO or Write IO"),
    ],
)  # fmt: skip
def test_hostile_or_truncated_text_is_garbled_with_its_line(change: object, message: str) -> None:
    with pytest.raises(Garbled) as caught:
        diskspd(_section(change(_lines(SAMSUNG))))  # type: ignore[operator]
    assert message in caught.value.message
    if message == "Read IO row":
        assert caught.value.offset == _lines(SAMSUNG).index("Read IO") + 3


def test_rows_past_the_bound_are_refused_and_a_huge_line_is_cut() -> None:
    lines = _lines(SAMSUNG)
    at = lines.index("Read IO") + 3
    many = [*lines[:at], *[lines[at]] * (MAX_ROWS + 1)]
    with pytest.raises(Garbled, match="more than"):
        diskspd(_section(many))
    spread = [lines[at].replace("c:\\diskspd\\", f"D:\\d{i}\\") for i in range(MAX_TARGETS + 1)]
    with pytest.raises(Garbled, match="target directories"):
        diskspd(_section([*lines[:at], *spread]))
    huge = [*lines[:at], lines[at] + " " * 10_000_000 + "x", *lines[at + 1 :]]
    assert diskspd(_section(huge))[0].read_mb_s == diskspd(section(SAMSUNG))[0].read_mb_s


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0123456789 |.:-totalReadWrite IO\\C()GiB", max_size=120),
                max_size=40))  # fmt: skip
def test_any_text_gives_a_value_or_garbled(lines: list[str]) -> None:
    text = ["Results for timespan 1:", "actual test time:\t1.00s", "Read IO", *lines]
    with contextlib.suppress(Garbled):
        diskspd(_section(text))


def test_a_windows_paste_reads_the_run_and_says_no_field_holds_it_yet() -> None:
    """The Windows draft reads no file systems yet (rules.parse.combine), so a DiskSpd run
    reaches no storage entry's measured_mb_s: the draft names it as read and unused."""
    header, lines = header_and_output("diskspd/diskspd_random_mix_sata_870_d_ntjcbs.txt")
    text = "\n".join(
        ["C:\\> systeminfo", "", "Host Name:                 WIN01",
         "OS Name:                   Microsoft Windows Server 2019 Standard", "",
         f"C:\\> {header['command']}", *lines, "C:\\> "]
    )  # fmt: skip
    found = draft(text)
    assert found.document["server"]["os"] == "windows"
    assert not found.problems
    (unused,) = [u for u in found.unused if "diskspd.exe" in u["command"]]
    assert unused["why"].startswith("read as diskspd")
