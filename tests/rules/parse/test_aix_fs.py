"""lsfs and lsps on real captures (tests/fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix_fs import lsfs, lsps
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


def test_lsfs_colon_records_of_an_aix61_lpar() -> None:
    rows = {r.mount: r for r in lsfs(section("aix/lsfs_c_aix61_glpi.txt")).rows}
    assert len(rows) == 24
    web = rows["/usr/WebSphere"]
    assert (web.device, web.vfs, web.nodename, web.size_kb) == (
        "/dev/lv_web1",
        "jfs2",
        None,
        47185920,
    )
    assert rows["/usr"].size_kb == 3145728  # 6291456 blocks of 512 bytes: 3 GB
    assert (rows["/proc"].vfs, rows["/proc"].size_kb) == ("procfs", 0)


def test_lsfs_of_aix431_is_jfs() -> None:
    rows = lsfs(section("aix/lsfs_c_aix431_jfs_glpi.txt")).rows
    assert [(r.mount, r.device, r.vfs) for r in rows] == [
        ("/", "/dev/hd4", "jfs"), ("/tmp", "/dev/hd3", "jfs"), ("/usr", "/dev/hd2", "jfs"),
    ]  # fmt: skip


def test_lsfs_cq_skips_the_parenthesised_line() -> None:
    (row,) = lsfs(section("aix/lsfs_cq_fslv00_ansible.txt")).rows
    assert (row.mount, row.device, row.size_kb) == ("/tmp/issue76", "/dev/fslv00", 5242880)


def test_lsfs_table_with_an_nfs_row() -> None:
    (row,) = lsfs(section("aix/lsfs_table_nfs_ansible.txt")).rows
    assert (row.mount, row.device, row.vfs) == ("/tmp/clientnfs", "/tmp/lp4nfs", "nfs")
    assert (row.nodename, row.size_kb, row.options) == ("carribean-lp4", None, "intr")


def test_lsfs_table_with_trailing_spaces() -> None:
    rows = lsfs(section("aix/lsfs_table_two_fs_ansible.txt")).rows
    assert [(r.mount, r.device, r.size_kb) for r in rows] == [
        ("/tmp/testfs", "/dev/testlv", 327680), ("/tmp/servnfs", "/dev/testnfslv", 327680),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "total_mb", "used_pct"),
    [
        ("aix/lsps_s_aix61_glpi.txt", 512, 26),
        ("aix/lsps_s_leading_space_glpi.txt", 9216, 1),
        ("aix/lsps_s_no_percent_glpi.txt", 1024, None),
    ],
)
def test_lsps_s(name: str, total_mb: int, used_pct: int | None) -> None:
    found = lsps(section(name))
    assert (found.total_mb, found.used_pct) == (total_mb, used_pct)


def test_routing() -> None:
    assert find(("lsfs", "-c")).name == "aix_lsfs"  # type: ignore[union-attr]
    assert find(("lsps", "-s")).name == "aix_lsps"  # type: ignore[union-attr]
    assert find(("lsps", "-a")).name == "aix_lsps"  # type: ignore[union-attr]
    assert find(("lsps", "hd6")) is None


def test_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        lsfs(Section("lsfs -c", ("lsfs", "-c"), ("lsfs: not found",), 1))
    with pytest.raises(Garbled):
        lsps(Section("lsps -s", ("lsps", "-s"), ("Total Paging Space", "unknown"), 1))
