"""zfs list, zfs get, zpool status and zpool list on real captures (tests/fixtures/parse/
solaris/): the shapes each prints, and what each reads."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section, find
from rules.parse.solaris_zfs import getopt, recordsize_kb, zfs_get, zfs_list
from rules.parse.solaris_zpool import Pool, zpool_list, zpool_status
from tests.rules.parse.fixtures import section

GIB = 1024**3


@pytest.mark.parametrize(
    ("argv", "name"),
    [
        (("zfs", "list"), "zfs_list"), (("/usr/sbin/zfs", "list", "-H", "-o", "name"), "zfs_list"),
        (("zfs", "get", "recordsize"), "zfs_get"), (("zpool", "status", "-v"), "zpool_status"),
        (("zpool", "list", "-Hp"), "zpool_list"), (("swap", "-l"), "swap"),
        (("swap", "-s"), "swap"),
        (("cat", "/etc/release"), "solaris_release"), (("psrinfo", "-v"), "psrinfo_virtual"),
        (("psrinfo",), "psrinfo_virtual"), (("psrinfo", "-p", "-v"), "psrinfo"),
    ],
)  # fmt: skip
def test_routing(argv: tuple[str, ...], name: str) -> None:
    found = find(argv)
    assert found is not None and found.name == name


def test_getopt_reads_combined_flags_and_values() -> None:
    assert getopt(("-Hpo", "value", "name", "/zone"), "dost") == (
        {"H", "p"}, {"o": "value"}, ["name", "/zone"],
    )  # fmt: skip
    assert getopt(("-oname,used", "-r", "tank"), "odsSt") == ({"r"}, {"o": "name,used"}, ["tank"])


def test_zfs_list_default_columns_with_human_sizes() -> None:
    rows = zfs_list(section("solaris/zfs_list_r_omnios_zadm_issue.txt"))
    by_name = {r.name: r for r in rows}
    assert len(rows) == 16
    zones = by_name["rpool/testing/zones"]
    assert (zones.mountpoint, zones.used_bytes) == ("/zones", 1002 * 1024**2)
    assert zones.available_bytes == int(45.3 * GIB)
    assert by_name["rpool/dump"].mountpoint is None  # a volume: '-'
    assert by_name["rpool/ROOT"].mountpoint == "legacy"


def test_zfs_list_o_columns_from_the_header() -> None:
    quota = zfs_list(section("solaris/zfs_list_o_quota_solaris113_ansible_issue.txt"))
    root = next(r for r in quota if r.name == "rpool/ROOT/solaris")
    assert (root.mountpoint, root.used_bytes, root.available_bytes) == ("/", None, int(10.3 * GIB))
    mounted = zfs_list(section("solaris/zfs_list_o_mounted_helios_oxide_issue.txt"))
    assert [(r.name, r.mountpoint, r.mounted) for r in mounted] == [("rpool/zone", "/zone", False)]


def test_zfs_list_headerless_tabbed_with_a_recsize_column() -> None:
    lines = ("tank/sas\t/sasdata\t64K", "tank/work\t/saswork\t1M")
    argv = ("zfs", "list", "-H", "-o", "name,mountpoint,recordsize")
    rows = zfs_list(Section(" ".join(argv), argv, lines, 1))
    assert [(r.mountpoint, r.recordsize_bytes) for r in rows] == [
        ("/sasdata", 64 * 1024), ("/saswork", 1024**2),
    ]  # fmt: skip


def test_zfs_get_all_keeps_values_and_sources_with_blanks() -> None:
    props = {p.property: p for p in zfs_get(section("solaris/zfs_get_all_man_example_illumos.txt"))}
    assert props["creation"].value == "Tue Jul 21 15:53 2009"
    assert (props["recordsize"].value, props["recordsize"].source) == ("128K", "default")
    assert props["mountpoint"].dataset == "pool/home/bob" and len(props) == 41


def test_zfs_get_exact_bytes_and_inherited_sources() -> None:
    props = zfs_get(section("solaris/zfs_get_pH_all_ohai.txt"))
    record = [p for p in props if p.property == "recordsize" and p.dataset == "data0"]
    assert [recordsize_kb(p.value) for p in record] == [128]
    assert any(p.dataset == "data0@20130228" and p.value == "" for p in props)  # clones: empty


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("zfs_get_H_o_value_man_example_illumos.txt",
         [("pool/home/bob", "compression", "on", None)]),
        ("zfs_get_Hpo_value_name_helios_oxide_issue.txt",
         [("", "name", "rpool/ROOT/ramdisk", None)]),
        ("zfs_get_quota_man_example_illumos.txt", [("users/home/marks", "quota", "10G", "local")]),
        ("zfs_get_r_s_local_man_example_illumos.txt",
         [("pool/home/bob", "quota", "20G", None), ("pool/home/bob", "compression", "on", None)]),
        ("zfs_get_recordsize_zol_openzfs_issue.txt", [("big/a", "recordsize", "1M", "local")]),
    ],
)  # fmt: skip
def test_zfs_get_shapes(name: str, want: list[tuple[str, str, str, str | None]]) -> None:
    got = zfs_get(section(f"solaris/{name}"))
    assert [(p.dataset, p.property, p.value, p.source) for p in got] == want


def test_recordsize_in_kb() -> None:
    assert [recordsize_kb(v) for v in ("128K", "131072", "1M", "8K", "-", "off")] == [
        128, 128, 1024, 8, None, None,
    ]  # fmt: skip


def _layout(pool: Pool) -> list[tuple[str, str, int]]:
    return [(v.kind, v.group, len(v.devices)) for v in pool.vdevs]


def test_zpool_status_raidz2_vdevs_logs_and_cache() -> None:
    (pool,) = zpool_status(section("solaris/zpool_status_raidz2_logs_cache_omnios_pr.txt"))
    assert (pool.name, pool.state) == ("pool0", "ONLINE")
    assert _layout(pool) == [
        ("raidz2", "data", 6), ("raidz2", "data", 6), ("disk", "logs", 1), ("disk", "logs", 1),
        ("disk", "cache", 1),
    ]  # fmt: skip
    assert pool.data[0].devices[0] == "c0t5000C500A612DA93d0"


@pytest.mark.parametrize(
    ("name", "layout"),
    [
        ("zpool_status_rpool_mirror_ohai.txt", [("mirror", "data", 2)]),
        ("zpool_status_tank_raidz2_ohai.txt", [("raidz2", "data", 6), ("raidz2", "data", 6)]),
        ("zpool_status_degraded_mirror_jc.txt", [("mirror", "data", 2)]),
        ("zpool_status_unavail_errors_jc.txt", [("disk", "data", 1), ("disk", "data", 1)]),
        ("zpool_status_logs_man_example_illumos.txt",
         [("mirror", "data", 2), ("mirror", "data", 2), ("mirror", "logs", 2)]),
    ],
)  # fmt: skip
def test_zpool_status_layouts(name: str, layout: list[tuple[str, str, int]]) -> None:
    (pool,) = zpool_status(section(f"solaris/{name}"))
    assert _layout(pool) == layout


def test_zpool_status_of_several_pools_and_spares() -> None:
    lines = (
        "  pool: a", " state: ONLINE", "config:", "", "\tNAME   STATE  READ WRITE CKSUM",
        "\ta      ONLINE 0 0 0", "\t  c1d0 ONLINE 0 0 0", "", "errors: No known data errors",
        "  pool: b", " state: DEGRADED", "config:", "", "\tNAME   STATE  READ WRITE CKSUM",
        "\tb      DEGRADED 0 0 0", "\t  raidz1-0  DEGRADED 0 0 0", "\t    c2d0 ONLINE 0 0 0",
        "\t    replacing-1  DEGRADED 0 0 0", "\t      c3d0  UNAVAIL 0 0 0",
        "\t      c4d0  ONLINE 0 0 0", "\tspares", "\t  c5d0  INUSE",
    )  # fmt: skip
    a, b = zpool_status(Section("zpool status", ("zpool", "status"), lines, 1))
    assert _layout(a) == [("disk", "data", 1)]
    assert _layout(b) == [("raidz1", "data", 3), ("disk", "spares", 1)] and b.state == "DEGRADED"


def test_zpool_status_without_a_config_table_is_garbled() -> None:
    with pytest.raises(Garbled):
        zpool_status(Section("zpool status", ("zpool", "status"), ("all pools are healthy",), 1))


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("zpool_list_faulted_man_example_illumos.txt",
         [("rpool", int(19.9 * GIB), "ONLINE"), ("tank", int(61.5 * GIB), "ONLINE"),
          ("zion", None, "FAULTED")]),
        ("zpool_list_v_raidz1_man_example_illumos.txt", [("data", int(23.9 * GIB), "ONLINE")]),
        ("zpool_list_v_freebsd_pylibzfs_issue.txt",
         [("p1", 160 * 1024**2, "ONLINE"), ("zroot", int(14.5 * GIB), "ONLINE")]),
        ("zpool_list_vHPp_zol_systeminformation_issue.txt", [("pool_0", 1992864825344, "ONLINE")]),
        ("zpool_list_h_version_ohai.txt",
         [("rpool", 109 * GIB, "ONLINE"), ("tank", 130 * 1024**4, "ONLINE")]),
    ],
)  # fmt: skip
def test_zpool_list_shapes(name: str, want: list[tuple[str, int | None, str]]) -> None:
    got = zpool_list(section(f"solaris/{name}"))
    assert [(r.name, r.size_bytes, r.health) for r in got] == want
