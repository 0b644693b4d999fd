"""SAS's I/O tests (rhel_iotest.sh, iotest.sh, the Viya Perf Tool), fio's JSON and the
collector's --measure section: real outputs (tests/fixtures/parse/iotest/, fio/) into
read and write MB/s, all streams together, and into measured_mb_s; any text gives a value
or Garbled, in bounded time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.parse import Found, draft, parse_text
from rules.parse.builder import Builder
from rules.parse.combine_storage import _throughput
from rules.parse.fio import MAX_DEPTH, fio
from rules.parse.iotest import MIB_MB, iotest
from rules.parse.measure import measure_run
from rules.parse.registry import Garbled, Section
from rules.parse.sections import argv_of
from rules.parse.throughput import Throughput
from tests.rules.parse.fixtures import read_cached_note, section, transcript

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _mb(mib_s: float) -> object:
    """Decimal MB/s of a figure SAS's scripts print: 2^20-byte "megabytes" a second."""
    return pytest.approx(mib_s * 1.048576)


def test_the_viya_perf_tool_results_read_per_core_and_all_cores() -> None:
    # The tool prints MiB/s as "MB/second" (file_size_mb=${file_size_kb}/1024): the rates
    # read are decimal MB/s, the printed figure × 1.048576.
    assert MIB_MB == 1.048576
    (nfs,) = iotest(section("iotest/viya_perf_tool_dnfs_node1.txt"))
    assert nfs.tool == "viya_perf_tool.sh"
    assert nfs.directory == "/datashare/viya_perf_tool_DNFS_node1_1627412479"
    assert (nfs.read_per_stream_mb_s, nfs.write_per_stream_mb_s) == (_mb(81.46), _mb(46.81))
    assert nfs.streams == 16 and nfs.block_kb == 64
    assert nfs.read_mb_s == _mb(81.46 * 16)
    assert nfs.write_mb_s == _mb(46.81 * 16)
    assert nfs.lower() == _mb(46.81 * 16)
    assert nfs.date == "Tue Jul 27 15:09:05 EDT 2021"
    (cdc,) = iotest(section("iotest/viya_perf_tool_cdc_node2.txt"))
    assert (cdc.streams, cdc.read_per_stream_mb_s, cdc.write_per_stream_mb_s) == (
        32,
        _mb(94.77),
        _mb(66.52),
    )


def _one(text: str, command: str) -> Section:
    return Section(command, argv_of(command), tuple(text.split("\n")), 1)


def test_rhel_iotest_and_iotest_sh_results_as_their_scripts_print_them() -> None:
    # The RESULTS lines as the scripts' echo and printf lines write them (the formats of
    # sascommunities/technical-support-code's port); the figures are made up.
    rhel = _one(
        "RESULTS\n-------\nINVOCATION:  rhel_iotest.sh -t /saswork\n\nTARGET DETAILS\n"
        "  target dir:   /saswork\n  iterations:   16\n  filesize:     1,024.00 gigabytes\n\n"
        "STATISTICS\n  read throughput rate:   1,157.87 megabytes/second per physical core\n"
        "  write throughput rate:  100.45 megabytes/second per physical core",
        "./rhel_iotest.sh -t /saswork",
    )
    (one,) = iotest(rhel)
    assert (one.directory, one.streams, one.read_per_stream_mb_s) == ("/saswork", 16, _mb(1157.87))
    assert one.write_mb_s == _mb(100.45 * 16)
    classic = _one(
        "RESULTS\n-------\n\nINVOCATION            : iotest.sh -i 8 -t /sasdata -b 20000 -s 64\n"
        "\n\nTARGET DETAILS\n  directory           : /sasdata\n\n\nSTATISTICS\n"
        "  average read time in seconds     :    12.34                     \n"
        "  average read throughput rate     :   101.29 megabytes per second\n"
        "  average write throughput rate    :    98.10 megabytes per second",
        "iotest.sh -i 8 -t /sasdata -b 20000 -s 64",
    )
    (two,) = iotest(classic)
    assert (two.tool, two.streams, two.block_kb, two.directory) == ("iotest.sh", 8, 64, "/sasdata")
    assert two.read_mb_s == _mb(101.29 * 8)


def test_fio_json_sums_the_jobs_that_ran_side_by_side() -> None:
    (ours,) = fio(section("fio/fio_json_2streams_write_read_debian12.txt"))
    assert ours.streams == 2 and ours.block_kb == 64 and ours.directory == "/tmp/fcap"
    assert [s.direction for s in ours.per_stream] == ["write", "write", "read", "read"]
    writes = sum(s.mb_s or 0 for s in ours.per_stream if s.direction == "write")
    assert ours.write_mb_s == pytest.approx(writes)
    (benson,) = fio(section("fio/fio_json_rw_4k_benson.txt"))  # JSON after "fio: terminating"
    assert benson.tool == "fio-3.33" and benson.directory == "/home/benson/test"
    assert benson.read_mb_s == pytest.approx(31.383676)
    assert benson.write_mb_s == pytest.approx(161.128721)
    (raw,) = fio(section("fio/fio_json_raw_sdb_randread_jbernstein.txt"))  # fio-3.1: bw in KiB/s
    assert raw.directory == "" and raw.streams == 8  # eight jobs on /dev/sdb
    assert raw.read_per_stream_mb_s == pytest.approx((raw.read_mb_s or 0) / 8)
    assert raw.per_stream[0].mb_s == pytest.approx(29246 * 1024 / 1e6)


def test_a_measurement_fills_measured_mb_s_of_the_file_system_holding_it() -> None:
    text = transcript("iotest/viya_perf_tool_cdc_node1.txt")
    mounts = "$ df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
    mounts += "/dev/sda2 312371180 223769992 88601188 72% /\n"
    found = draft(mounts + text)
    prov = found.provenance["storage[0].measured_mb_s"]
    assert prov.value == round(55.87 * 1.048576 * 32, 1) == 1874.7  # 1787.8 MiB/s printed
    assert "viya_perf_tool.sh" in prov.note and "write 1874.7 MB/s" in prov.note


def test_a_measurement_fills_read_write_tool_date_and_streams_apart() -> None:
    text = transcript("iotest/viya_perf_tool_cdc_node1.txt")
    mounts = "$ df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
    mounts += "/dev/sda2 312371180 223769992 88601188 72% /\n"
    found = draft(mounts + text)
    entry = found.document["storage"][0]
    assert entry["measured_write_mb_s"] == round(55.87 * 1.048576 * 32, 1) == entry["measured_mb_s"]
    assert entry["measured_read_mb_s"] > entry["measured_write_mb_s"]
    assert (entry["measured_by"], entry["measured_streams"]) == ("viya_perf_tool.sh", 32)
    assert entry["measured_at"]
    for name in ("measured_read_mb_s", "measured_by", "measured_at", "measured_streams"):
        assert "viya_perf_tool.sh" in found.provenance[f"storage[0].{name}"].note, name
    doc = json.loads((EXAMPLES / "linux-rhel9-sas94.json").read_text("utf-8"))
    doc["storage"][0] |= {k: v for k, v in entry.items() if k.startswith("measured_")}
    assert rules.inventory_from(doc).storage[0].measured_by == "viya_perf_tool.sh"


def test_the_collectors_section_reads_streams_and_totals() -> None:
    lines = (
        "date=2026-11-27T17:44:12Z tool=dd block_kb=64 streams=2 stream_bytes=33554432 "
        "direct=no quick=yes ram_mib=24105",
        "plan: 2 streams of 32 MiB in 64 KB blocks by dd (conv=fsync); the files are smaller "
        "than the RAM (24105 MiB), so the read figure may include cache",
        "write stream=1 bytes=33554432 seconds=0.041 mb_s=818.4",
        "write stream=2 failed: dd: No space left on device",
        "write total failed: 1 of 2 streams",
        "read stream=1 bytes=33554432 seconds=0.003 mb_s=11184.8",
        "read total streams=2 bytes=67108864 seconds=0.004 mb_s=16777.2",
    )
    (one,) = measure_run(Section("sas-advisor-measure /w", ("sas-advisor-measure", "/w"), lines, 1))
    assert (one.tool, one.streams, one.block_kb, one.directory) == ("dd", 2, 64, "/w")
    assert one.write_mb_s is None and one.read_mb_s == pytest.approx(67108864 / 1e6 / 0.004)
    assert len(one.per_stream) == 2 and "may include cache" in one.caveat
    assert one.read_cached  # the collector said so: the rules do not judge this read


def _nested(depth: int) -> str:
    return '{"jobs": [' + "[" * depth + "]" * depth + "]}"


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        (("garbage",), "no JSON document"),
        (("{", '  "fio version" : "fio-3.33",', '  "jobs" : ['), "not fio's JSON"),
        ((_nested(MAX_DEPTH + 5),), "deeper than"),
        (('{"jobs": [{"read": {"io_bytes": 1e400, "bw_bytes": 1e300}}]}',), "read or wrote"),
        (("{}",), 'no "jobs" list'),
    ],
)
def test_hostile_fio_json_is_garbled_by_line(lines: tuple[str, ...], says: str) -> None:
    with pytest.raises(Garbled) as caught:
        fio(Section("fio --output-format=json x", argv_of("fio --output-format=json x"), lines, 1))
    assert says in caught.value.message
    assert 0 <= caught.value.offset < len(lines)


def test_huge_numbers_stay_out_of_the_figures() -> None:
    job = {"jobname": "w", "job options": {"rw": "write", "directory": "/w"},
           "write": {"io_bytes": 10**17, "bw_bytes": 10**17, "runtime": 1}}  # fmt: skip
    (one,) = fio(Section("fio --output-format=json", ("fio", "--output-format=json"),
                         (json.dumps({"jobs": [job]}),), 1))  # fmt: skip
    assert one.write_mb_s is None  # 10^11 MB/s: beyond the contract's bound
    text = "RESULTS\n  read throughput rate:   999999999999999 megabytes/second per physical core"
    (big,) = iotest(_one(text, "rhel_iotest.sh -t /x"))
    assert big.read_per_stream_mb_s is None


TEXT = st.text(st.sampled_from(list('{}[]":,0123456789.e-+ \tabcdefrw_/RESULTSMB')), max_size=200)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(TEXT, max_size=12))
def test_any_text_gives_a_value_or_garbled(lines: list[str]) -> None:
    for command, reader in (
        ("fio --output-format=json j.fio", fio),
        ("./rhel_iotest.sh -t /saswork", iotest),
        ("sas-advisor-measure /saswork", measure_run),
    ):
        try:
            found = reader(Section(command, argv_of(command), tuple(lines), 1))
        except Garbled as exc:
            assert 0 <= exc.offset <= max(0, len(lines) - 1)
            continue
        for one in found:
            for value in (one.read_mb_s, one.write_mb_s):
                assert value is None or 0 < value < 1e7


def test_a_read_back_faster_than_the_printed_time_keeps_its_rate() -> None:
    # A cached read-back of 8 MiB takes 0.0004 s: printed to three decimals (as the collector
    # did before it printed six) that is 0.000, and the printed rate is the figure.
    lines = (
        "date=2026-11-27T20:30:57Z tool=dd block_kb=64 streams=2 stream_bytes=8388608 "
        "direct=no quick=no ram_mib=24105",
        "write total streams=2 bytes=16777216 seconds=0.032 mb_s=524.3",
        "read total streams=2 bytes=16777216 seconds=0.000 mb_s=39845.9",
    )
    (one,) = measure_run(Section("sas-advisor-measure /w", ("sas-advisor-measure", "/w"), lines, 1))
    assert one.read_mb_s == pytest.approx(39845.9)
    assert one.write_mb_s == pytest.approx(16777216 / 1e6 / 0.032)


def _run(tool: str, read: float | None, write: float | None, date: str) -> Throughput:
    return Throughput(tool, "/saswork/t", read, write, None, None, 8, 64, date)


def test_a_later_measurement_replaces_the_earlier_ones_details_whole() -> None:
    b = Builder(doc={"storage": [{"mount": "/"}, {"mount": "/saswork"}]})
    found = Found(Section("fio x", ("fio", "x"), (), 3), None)
    mounts = ["/", "/saswork"]
    _throughput(b, found, _run("rhel_iotest.sh", 900.04, 700.0, "Tue Jul 27 2021"), mounts)
    _throughput(b, found, _run("fio-3.33; rm -rf /", None, 650.0, "x\ty"), mounts)
    entry = b.doc["storage"][1]
    assert entry == {"mount": "/saswork", "measured_mb_s": 650.0, "measured_write_mb_s": 650.0,
                     "measured_at": "x y", "measured_streams": 8}  # fmt: skip
    assert "storage[1].measured_read_mb_s" not in b.provenance
    assert b.provenance["storage[1].measured_streams"].line == 3


def _cached(read: float | None, write: float | None) -> Throughput:
    return Throughput("dd", "/saswork/t", read, write, None, None, 2, 64, "2026-11-27T20:30:57Z",
                      caveat="the read figure may include cache", read_cached=True)  # fmt: skip


def test_a_read_that_may_be_the_page_caches_is_flagged_and_kept_out_of_the_lower() -> None:
    found = Found(Section("sas-advisor-measure /saswork", ("x",), (), 4), None)
    mounts = ["/", "/saswork"]
    b = Builder(doc={"storage": [{"mount": "/"}, {"mount": "/saswork"}]})
    _throughput(b, found, _cached(39845.9, 524.3), mounts)
    entry = b.doc["storage"][1]
    assert (entry["measured_mb_s"], entry["measured_read_cached"]) == (524.3, True)
    where = b.provenance["storage[1].measured_read_cached"]
    assert where.line == 4 and "the write is kept, the read may be the page cache's" in where.note
    # A read alone: no measured_mb_s (it would stand for the storage), the read flagged.
    _throughput(b, found, _cached(39845.9, None), mounts)
    entry = b.doc["storage"][1]
    assert "measured_mb_s" not in entry and "storage[1].measured_mb_s" not in b.provenance
    assert (entry["measured_read_mb_s"], entry["measured_read_cached"]) == (39845.9, True)
    doc = json.loads((EXAMPLES / "linux-rhel9-sas94.json").read_text("utf-8"))
    doc["storage"][0] |= {k: v for k, v in entry.items() if k.startswith("measured_")}
    assert rules.inventory_from(doc).storage[0].measured_lower is None
    # A write alone, with the flag: nothing of the read to flag.
    _throughput(b, found, _cached(None, 524.3), mounts)
    assert "measured_read_cached" not in b.doc["storage"][1]


MEMINFO_16G = "# cat /proc/meminfo\nMemTotal:       16384000 kB\nMemFree:         8000000 kB\n"
DF_TMP = "# df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
DF_TMP += "/dev/sda2 312371180 223769992 88601188 72% /\n"


def test_a_buffered_fio_read_smaller_than_the_ram_is_flagged_as_maybe_cached() -> None:
    """fio without direct=1 reading 2 × 64 MiB on a 16 GiB server: the read may be the page
    cache's (the files were just written), so the write alone stands for the storage."""
    found = draft(
        MEMINFO_16G + DF_TMP + transcript("fio/fio_json_2streams_write_read_debian12.txt")
    )
    assert read_cached_note(found).endswith(
        "the read may be the page cache's; "
        "134 MB read buffered, under the 15.62 GB of RAM; use --direct=1"
    )


def test_a_direct_fio_read_is_the_storages_whatever_its_size() -> None:
    found = draft(MEMINFO_16G + DF_TMP + transcript("fio/fio_json_plus_direct_read_debian12.txt"))
    entry = found.document["storage"][0]
    assert "measured_read_cached" not in entry and entry["measured_read_mb_s"] > 0


def test_without_the_ram_read_a_buffered_fio_read_is_not_guessed_cached() -> None:
    found = draft(DF_TMP + transcript("fio/fio_json_2streams_write_read_debian12.txt"))
    assert "measured_read_cached" not in found.document["storage"][0]


def _bare_fio() -> str:
    path = Path(__file__).resolve().parents[2] / "fixtures/parse/fio"
    text = (path / "fio_json_2streams_write_read_debian12.txt").read_text("utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("## "))


@pytest.mark.parametrize("before", ["", "\n\n", "\ufeff", "  \r\n"])
def test_fio_json_alone_is_read_as_fios_output(before: str) -> None:
    parsed = parse_text(before + _bare_fio())
    (found,) = parsed.found["fio"]
    assert found.value[0].write_mb_s and found.value[0].directory == "/tmp/fcap"
    line = before.count("\n") + 1
    assert (line, "read as fio's JSON output (no command line above it)") in parsed.notes


def test_a_cut_bare_fio_json_names_the_line_it_breaks_at() -> None:
    text = "\n" + _bare_fio()[:3000]
    (problem,) = parse_text(text).problems
    assert problem.line == text[: text.rindex("\n")].count("\n") + 2  # the last, cut line


def test_other_json_alone_is_not_taken_for_fios() -> None:
    assert not parse_text('{"schema_version": 2, "fio": "version"}\n').found
