"""df in its POSIX, GNU (wrapped), AIX and Solaris shapes (tests/fixtures/parse/unix/)."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section
from rules.parse.unix import DfRow, df
from tests.rules.parse.fixtures import section


def by_mount(name: str) -> dict[str, DfRow]:
    return {row.mount: row for row in df(section(name))}


def test_posix_debian_with_a_space_in_the_mount_point() -> None:
    rows = by_mount("unix/df_kp_debian12.txt")
    assert rows["/"] == DfRow("/dev/vda", 264212084, 81416896, "/")
    assert rows["/tmp/sas work"].size_kb == 1024
    assert len(rows) == 6


def test_gnu_df_k_header() -> None:
    rows = by_mount("unix/df_k_debian12.txt")
    assert rows["/"].free_kb == 81416892
    assert rows["/mnt/sandboxing/model_tools_env/v1/python"].filesystem == "model_tools_unavailable"


def test_wrapped_device_name_joins_its_numbers() -> None:
    rows = df(section("unix/df_k_wrapped_centos.txt"))
    assert rows[0] == DfRow("/dev/mapper/VolGroup-lv_root", 49064776, 39364316, "/")
    assert [r.mount for r in rows] == ["/", "/dev/shm", "/boot"]


def test_aix_df_k_reads_free_not_used() -> None:
    assert df(section("unix/df_k_aix_iused.txt")) == (
        DfRow("/dev/hd1", 33554432, 11230104, "/home"),
    )


def test_aix_long_device_name_stays_on_its_line() -> None:
    (row,) = df(section("unix/df_k_aix_long_device.txt"))
    assert row == DfRow("/dev/tsm02fORA0lv", 12278824960, 12276949612, "/ptsm02/server/filesORA0")


def test_aix_df_pk_lpar_with_dash_rows() -> None:
    rows = df(section("unix/df_pk_aix_lpar.txt"))
    assert len(rows) == 23
    proc = [r for r in rows if r.mount == "/proc"]
    assert proc == [DfRow("/proc", None, None, "/proc")]
    assert rows[0] == DfRow("/dev/hd4", 2097152, 1877356, "/")


def test_512_byte_blocks_are_halved() -> None:
    rows = df(section("unix/df_p_aix_512_blocks.txt"))
    assert rows[0] == DfRow("/dev/ram0", 196608, 52312, "/")


def test_solaris_df_pka_skips_a_broken_line() -> None:
    rows = by_mount("unix/df_pka_solaris11.txt")
    assert rows["/"] == DfRow("rpool/ROOT/solaris-0", 730451045, 727373448, "/")
    assert rows["/net"].filesystem == "-hosts"
    assert rows["/nfs4"].size_kb == 0
    assert len(rows) == 22


def test_text_that_is_not_df_is_garbled() -> None:
    with pytest.raises(Garbled):
        df(Section("df -k", ("df", "-k"), ("df: invalid option -- 'y'",), 1))


def test_a_capacity_column_too_near_the_start_is_no_row() -> None:
    # '-' in the third column once made the size columns a slice from the line's end
    with pytest.raises(Garbled):
        df(Section("df -kP", ("df", "-kP"), (": : - 0",), 1))
