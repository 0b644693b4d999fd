"""SAS's sasiotest.exe: the SAS 9.4 Companion for Windows' published runs
(tests/fixtures/parse/sasiotest/) into one stream's MB/s with its directory, page size and
caveats, however its sentences are laid out on lines; any text gives a value or Garbled."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse.registry import Garbled, Section, find
from rules.parse.sasiotest import MAX_RUNS, sasiotest
from rules.parse.spans import argv_of
from tests.rules.parse.fixtures import header_and_output, section

DEFAULT = "sasiotest/write_default_sas94_companion.txt"


def _section(lines: list[str], command: str = "sasiotest D:\\saswork\\test.out -w") -> Section:
    return Section(command, argv_of(command), tuple(lines), 1)


@pytest.mark.parametrize(
    ("name", "mb_s", "block_kb", "mib"),
    [
        (DEFAULT, 71.100308, 8, 1),
        ("sasiotest/write_pagesize_64k_sas94_companion.txt", 72.561777, 64, 1),
        ("sasiotest/write_pagesize_4k_filesize_2m_sas94_companion.txt", 45.795315, 4, 2),
    ],
)
def test_the_published_runs_read_as_one_write_stream(
    name: str, mb_s: float, block_kb: int, mib: int
) -> None:
    found = section(name)
    parser = find(found.argv)
    assert parser is not None and parser.name == "sasiotest"
    (one,) = sasiotest(found)
    assert (one.tool, one.directory, one.streams, one.block_kb) == ("sasiotest", "", 1, block_kb)
    assert (one.read_mb_s, one.write_mb_s, one.write_per_stream_mb_s) == (None, mb_s, mb_s)
    assert one.caveat == (
        f"through the Windows file cache (no -sgio); a {mib} MiB file, which the file cache "
        "can hold"
    )
    assert one.read_cached


def test_a_sentence_a_line_reads_the_same_as_the_published_run_together_lines() -> None:
    _, lines = header_and_output(DEFAULT)
    apart = [part.strip() + "." for line in lines for part in line.split(". ") if part.strip()]
    assert len(apart) > len(lines)
    assert sasiotest(_section(apart, "sasiotest test.out -w")) == sasiotest(section(DEFAULT))


def test_a_write_and_a_read_of_one_folder_are_one_measurement() -> None:
    _, lines = header_and_output("sasiotest/write_pagesize_64k_sas94_companion.txt")
    written = [line.replace("test.out", "D:\\saswork\\big.dat").replace("1048576", "8589934592")
               for line in lines]  # fmt: skip
    read = [line.replace("writing", "reading").replace("to file", "from file")
            .replace("Write Throughput: 72.561777", "Read Throughput: 90.5")
            for line in written]  # fmt: skip
    command = "sasiotest D:\\saswork\\big.dat -w -sgio -numpages 16 -pagesize 64k"
    (one,) = sasiotest(_section([*written, *read], command))
    assert (one.directory, one.write_mb_s, one.read_mb_s) == ("D:\\saswork", 72.561777, 90.5)
    assert one.lower() == 72.561777 and one.caveat == "" and not one.read_cached


@pytest.mark.parametrize(
    "command",
    ['"C:\\Program Files\\SASHome\\SASFoundation\\9.4\\sasiotest.exe" D:\\w\\t.out -w',
     "sasiotest.exe t.out -r", "type sasiotest_saswork.txt"],
)  # fmt: skip
def test_sasiotest_is_recognised_however_it_was_started(command: str) -> None:
    parser = find(argv_of(command))
    assert parser is not None and parser.name == "sasiotest"


def test_text_without_a_rate_or_with_too_many_runs_is_garbled() -> None:
    with pytest.raises(Garbled, match="no `Write Throughput:`"):
        sasiotest(_section(["SAS I/O Test Utility: v1.0", "garbage " * 1000]))
    _, lines = header_and_output(DEFAULT)
    with pytest.raises(Garbled, match="more than"):
        sasiotest(_section(lines * (MAX_RUNS + 1)))
    huge = [lines[0], " " * 10_000_000 + lines[1]]
    with pytest.raises(Garbled):
        sasiotest(_section(huge))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="0123456789 .:/\\WriteRadThroughputMBSecwithpagesizefile",
                        max_size=160), max_size=30))  # fmt: skip
def test_any_text_gives_a_value_or_garbled(lines: list[str]) -> None:
    with contextlib.suppress(Garbled):
        sasiotest(_section(lines))
