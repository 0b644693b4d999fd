"""SAS's I/O test scripts as run on the CI build machine (tests/fixtures/parse/iotest/
*_debian12.txt: sascommunities/technical-support-code's iotest.sh and k8s_iotest.sh, the
port of rhel_iotest.sh): each run's rates, streams, directory and block size, and the
script's own caching warning carried into the reading, and from there into the draft."""

from __future__ import annotations

import pytest

from rules.parse import draft
from rules.parse.iotest import CACHE_CAVEAT, iotest
from rules.parse.registry import Section
from tests.rules.parse.fixtures import header_and_output, read_cached_note, section, transcript


def _mb(mib_s: float) -> object:
    """Decimal MB/s of a figure the scripts print in 2^20-byte "megabytes" a second."""
    return pytest.approx(mib_s * 1.048576)


@pytest.mark.parametrize(
    ("name", "directory", "streams", "block_kb", "read", "write"),
    [
        ("iotest_sh_ext4_2x500m_64k_debian12.txt", "ext4dir", 2, 64, 4166.66, 909.09),
        ("iotest_sh_tmpfs_2x250m_64k_debian12.txt", "tmpfs", 2, 64, 4166.66, 1315.78),
        ("iotest_sh_ext4_loop_1x800m_1m_debian12.txt", "ext4loop", 1, 1024, 8000.00, 416.66),
        ("iotest_sh_xfs_loop_4x225m_256k_debian12.txt", "xfsloop", 4, 256, 2812.50, 1022.72),
    ],
)
def test_iotest_sh_runs_read_their_invocation_and_average_rates(
    name: str, directory: str, streams: int, block_kb: int, read: float, write: float
) -> None:
    (one,) = iotest(section(f"iotest/{name}"))
    assert (one.tool, one.directory) == ("iotest.sh", f"/tmp/sastest/{directory}")
    assert (one.streams, one.block_kb, one.date) == (streams, block_kb, "")
    assert (one.read_per_stream_mb_s, one.write_per_stream_mb_s) == (_mb(read), _mb(write))
    assert (one.read_mb_s, one.write_mb_s) == (_mb(read * streams), _mb(write * streams))
    # iotest.sh prints no warning of its own: nothing in its output marks the read cached
    assert (one.read_cached, one.caveat) == (False, "")


@pytest.mark.parametrize(
    ("name", "directory", "read", "write"),
    [
        ("k8s_iotest_tmpfs_debian12.txt", "tmpfs", 3375.00, 1350.00),
        ("k8s_iotest_ext4_loop_debian12.txt", "ext4loop", 1540.32, 80.38),
        ("k8s_iotest_xfs_loop_debian12.txt", "xfsloop", 3507.14, 107.20),
    ],
)
def test_rhel_iotest_port_runs_carry_the_scripts_caching_warning(
    name: str, directory: str, read: float, write: float
) -> None:
    (one,) = iotest(section(f"iotest/{name}"))
    assert (one.tool, one.directory) == ("k8s_iotest.sh", f"/tmp/sastest/{directory}")
    # one stream a physical core (2 here); its 64 KB blocks are not printed, so not read
    assert (one.streams, one.block_kb) == (2, None)
    assert (one.read_per_stream_mb_s, one.write_per_stream_mb_s) == (_mb(read), _mb(write))
    assert one.write_mb_s == _mb(write * 2)
    assert one.read_cached and one.caveat == CACHE_CAVEAT


def test_the_warning_marks_only_the_run_it_follows() -> None:
    _, cached = header_and_output("iotest/k8s_iotest_xfs_loop_debian12.txt")
    _, plain = header_and_output("iotest/iotest_sh_xfs_loop_4x225m_256k_debian12.txt")
    command = "./k8s_iotest.sh -t /tmp/sastest/xfsloop"
    both = iotest(Section(command, tuple(command.split()), (*cached, *plain), 1))
    assert [(b.tool, b.read_cached) for b in both] == [
        ("k8s_iotest.sh", True),
        ("iotest.sh", False),
    ]
    # plain and warned runs the other way round: the warning still stays with its own run
    swapped = iotest(Section(command, tuple(command.split()), (*plain, *cached), 1))
    assert [b.read_cached for b in swapped] == [False, True]


def test_a_warned_read_reaches_the_draft_as_the_page_caches() -> None:
    # The machine's / as the iotest.sh run on it printed its df line: the loop file system
    # the run measured is no SAS storage (loop devices are left out), so its figures go to /
    df = (
        "$ df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
        "/dev/vda 264212084 25297148 81093764 24% /\n"
    )
    found = draft(df + transcript("iotest/k8s_iotest_xfs_loop_debian12.txt", prompt="$ "))
    (root,) = found.document["storage"]
    assert root["mount"] == "/" and root["measured_read_cached"] is True
    assert root["measured_write_mb_s"] == pytest.approx(107.20 * 2 * 1.048576, abs=0.1)


@pytest.mark.parametrize(
    ("name", "read_bytes"),
    [
        ("iotest_sh_ext4_2x500m_64k_debian12.txt", 2 * 524288000),
        ("iotest_sh_tmpfs_2x250m_64k_debian12.txt", 2 * 262144000),
        ("iotest_sh_ext4_loop_1x800m_1m_debian12.txt", 838860800),
        ("iotest_sh_xfs_loop_4x225m_256k_debian12.txt", 4 * 235929600),
    ],
)
def test_iotest_sh_runs_say_how_much_their_reads_read_buffered(name: str, read_bytes: int) -> None:
    """Its `filesize` line is each stream's file: all streams read that many bytes through
    the page cache, for the draft to weigh against the RAM."""
    (one,) = iotest(section(f"iotest/{name}"))
    assert one.buffered_read_bytes == read_bytes


MEMINFO_16G = "# cat /proc/meminfo\nMemTotal:       16384000 kB\nMemFree:         8000000 kB\n"
DF_ROOT = "# df -kP\nFilesystem 1024-blocks Used Available Capacity Mounted on\n"
DF_ROOT += "/dev/vda 264212084 25297148 81093764 24% /\n"
IOTEST_2X500M = "iotest/iotest_sh_ext4_2x500m_64k_debian12.txt"


def test_an_iotest_sh_read_of_less_than_the_ram_is_flagged_as_maybe_cached() -> None:
    """2 × 500 MiB read back on a 16 GiB server, the files just written: the read may be
    the page cache's, so the write alone stands for the storage, and the note says what
    would measure the storage instead (not fio's --direct=1)."""
    found = draft(MEMINFO_16G + DF_ROOT + transcript(IOTEST_2X500M))
    assert read_cached_note(found).endswith(
        "1,049 MB read buffered, under the 15.62 GB of RAM; use files larger than the RAM"
    )


def test_without_the_ram_read_an_iotest_sh_read_is_not_guessed_cached() -> None:
    found = draft(DF_ROOT + transcript(IOTEST_2X500M))
    entry = found.document["storage"][0]
    assert "measured_read_cached" not in entry and entry["measured_read_mb_s"] > 0
