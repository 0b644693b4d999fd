"""rules.parse.measure on real dd output (tests/collector/measure/, sources in each file's
`## source:` line): direction, directory, MiB, seconds and MB/s, whatever timer printed."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse.measure import Measure, measure
from rules.parse.registry import Garbled, Section, find
from rules.parse.sections import argv_of

HERE = Path(__file__).resolve().parent / "measure"


def fixture(name: str) -> Section:
    lines = (HERE / name).read_text(encoding="utf-8").split("\n")
    header = {}
    while lines and lines[0].startswith("## "):
        key, _, value = lines.pop(0)[3:].partition(": ")
        header[key] = value
    if lines and lines[-1] == "":
        lines.pop()
    assert header.get("source") and header.get("command"), name
    return Section(header["command"], argv_of(header["command"]), tuple(lines), 1)


def test_every_fixture_names_its_source_and_is_read_by_the_measure_parser() -> None:
    names = sorted(p.name for p in HERE.glob("*.txt"))
    assert len(names) == 7
    for name in names:
        reader = find(fixture(name).argv)
        assert reader is not None and reader.name == "measure", name


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # time -p's "real" line is the elapsed time when it is above zero …
        (
            "gnu_time_write_debian12.txt",
            Measure("write", "/tmp/cap/m", 64.0, 0.10, 67108864 / 1e6 / 0.10),
        ),
        # … and GNU dd's own report when time -p rounds to 0.00.
        (
            "gnu_time_read_debian12.txt",
            Measure("read", "/tmp/cap/m", 64.0, 0.0048929, 67108864 / 1e6 / 0.0048929),
        ),
        ("gnu_write_mate.txt", Measure("write", ".", 1024.0, 48.7581, 1073741824 / 1e6 / 48.7581)),
        (
            "gnu_read_mate_sysctl_noise.txt",
            Measure("read", ".", 1024.0, 2.95827, 1073741824 / 1e6 / 2.95827),
        ),
        # status=progress lines and a decimal comma: the last report wins.
        (
            "gnu_progress_comma_fio.txt",
            Measure("write", ".", 5120.0, 11.1929, 5368709120 / 1e6 / 11.1929),
        ),
        # busybox: no byte count, records times the block size; time's "0m 1.06s".
        (
            "busybox_time_linuxkit.txt",
            Measure("write", ".", 1024.0, 1.06, 1073741824 / 1e6 / 1.06),
        ),
        # BSD dd's "transferred in … secs"; bash's time "0m0.005s" beats it.
        (
            "bsd_dd_bash_time_macos.txt",
            Measure("write", ".", 1.0, 0.005, 1048576 / 1e6 / 0.005),
        ),
    ],
)
def test_real_dd_output(name: str, expected: Measure) -> None:
    found = measure(fixture(name))
    assert (found.direction, found.directory, found.mib) == (
        expected.direction,
        expected.directory,
        expected.mib,
    )
    assert found.seconds == pytest.approx(expected.seconds)
    assert found.mb_s == pytest.approx(expected.mb_s)


def test_what_the_mb_s_come_to() -> None:
    assert round(measure(fixture("gnu_write_mate.txt")).mb_s or 0, 1) == 22.0  # dd said 22.0
    assert round(measure(fixture("gnu_read_mate_sysctl_noise.txt")).mb_s or 0) == 363


def test_a_failed_dd_gives_no_figures_and_other_text_is_garbled() -> None:
    command = "dd if=/dev/zero of=/saswork/t bs=1048576 count=8"
    failed = Section(command, argv_of(command), ("dd: /saswork/t: Permission denied",), 1)
    assert measure(failed) == Measure("write", "/saswork", None, None, None)
    with pytest.raises(Garbled):
        measure(Section(command, argv_of(command), ("hello",), 1))
    with pytest.raises(Garbled):
        measure(Section("dd if=/a of=/b", argv_of("dd if=/a of=/b"), ("1+0 records out",), 1))


def test_only_a_write_from_dev_zero_or_a_read_to_dev_null_is_a_measure() -> None:
    for command in ("dd if=/a of=/b", "dd if=/dev/zero of=/dev/null", "lsattr -El hdisk0"):
        assert find(argv_of(command)) is None or find(argv_of(command)).name != "measure"  # type: ignore[union-attr]


MEASURE_COMMANDS = (
    "/usr/bin/time -p dd if=/dev/zero of=/saswork/.sas-advisor-measure.42 bs=1048576"
    " count=1024 conv=fdatasync",
    "/usr/bin/time -p dd if=/saswork/.sas-advisor-measure.42 of=/dev/null bs=1048576",
    "dd if=/dev/zero of=t bs=1M count=1024",
)
ALPHABET = string.ascii_letters + string.digits + " \t:=,.+()/-e\x00é"


@settings(max_examples=200, deadline=None)
@given(
    command=st.sampled_from(MEASURE_COMMANDS),
    lines=st.lists(
        st.one_of(
            st.text(ALPHABET, max_size=80),
            st.from_regex(
                r"\d{1,25} bytes \(.{0,9}\) copied, [\d.,e+-]{1,30} s, .{0,9}", fullmatch=True
            ),
            st.from_regex(r"real\s+(\d{1,9}m\s?)?[\d.,]{1,30}s?", fullmatch=True),
            st.from_regex(r"\d{1,25}\+\d{1,25} records (in|out)", fullmatch=True),
        ),
        max_size=12,
    ),
)
def test_any_text_gives_a_measure_or_garbled(command: str, lines: list[str]) -> None:
    section = Section(command, argv_of(command), tuple(lines), 1)
    try:
        found = measure(section)
    except Garbled as exc:
        assert 0 <= exc.offset <= max(0, len(lines) - 1)
        return
    assert found.seconds is None or 0 <= found.seconds < 1e7
    assert found.mb_s is None or found.mb_s >= 0
