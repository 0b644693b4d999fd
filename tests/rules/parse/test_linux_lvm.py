"""lvs (with and without headings) and /proc/mdstat."""

from __future__ import annotations

import pytest

from rules.parse.combine_linux_tree import dm_name
from rules.parse.linux_lvm import LogicalVolume, MdArray, lvs, mdstat
from rules.parse.registry import Garbled, Section
from tests.rules.parse.fixtures import section


def test_lvs_sos_headings_with_stripe_columns() -> None:
    rows = lvs(section("linux/lvs_sos_stripes.txt"))
    assert rows == (
        LogicalVolume("lv1", "vgShared1", None, 1, 0, ("/dev/sdb1",)),
        LogicalVolume("lv_root", "vg_rh6node1", None, 1, 0, ("/dev/vda2",)),
        LogicalVolume("lv_swap", "vg_rh6node1", None, 1, 0, ("/dev/vda2",)),
    )


def test_lvs_headings_without_stripes() -> None:
    rows = lvs(section("linux/lvs_headings_no_stripes.txt"))
    assert len(rows) == 9
    assert rows[0] == LogicalVolume("lv_app", "vg_root", None, None, None, ("/dev/sda2",))
    assert rows[-1].lv == "swap"


def test_lvs_noheadings_in_the_collectors_field_order() -> None:
    argv = (
        "lvs",
        "--noheadings",
        "--units",
        "k",
        "-o",
        "lv_name,vg_name,lv_path,stripes,stripe_size,devices",
    )
    lines = (
        "  data sasvg /dev/sasvg/data 4 256.00k /dev/sdb(0),/dev/sdc(0),/dev/sdd(0),/dev/sde(0)",
        "  [lvol0_pmspare] sasvg  1 0k /dev/sdb(2560)",
    )
    rows = lvs(Section(" ".join(argv), argv, lines, 1))
    assert rows[0] == LogicalVolume(
        "data", "sasvg", "/dev/sasvg/data", 4, 256, ("/dev/sdb", "/dev/sdc", "/dev/sdd", "/dev/sde")
    )
    assert rows[1].path is None and rows[1].stripes == 1


def test_lvs_error_only_is_garbled() -> None:
    with pytest.raises(Garbled):
        lvs(Section("lvs", ("lvs",), ("bash: lvs: command not found",), 1))


def test_mdstat_raid5_with_chunk() -> None:
    (md,) = mdstat(section("linux/mdstat_raid5_chunk.txt"))
    assert (md.name, md.state, md.level, md.chunk_kb, md.blocks) == (
        "md_d0",
        "active",
        "raid5",
        64,
        1250241792,
    )
    assert md.members == ("sde1", "sdf1", "sdb1", "sdd1", "cciss/c0d0p1", "sdc1")


def test_mdstat_raid1_with_a_failed_member() -> None:
    arrays = mdstat(section("linux/mdstat_raid1_failed.txt"))
    assert [a.name for a in arrays] == ["md1", "md2", "md0"]
    assert arrays[2] == MdArray(
        "md0", "active", "raid1", ("sdb1", "sda1"), ("sdb1",), None, 16787776
    )


def test_mdstat_inactive_container() -> None:
    (md,) = mdstat(section("linux/mdstat_inactive_imsm.txt"))
    assert (md.state, md.level, md.members) == ("inactive", None, ("sdb", "sda"))


def test_mdstat_without_arrays() -> None:
    lines = ("Personalities : [raid0]", "unused devices: <none>")
    assert mdstat(Section("cat /proc/mdstat", ("cat", "/proc/mdstat"), lines, 1)) == ()


def test_lvs_nameprefixes_fields() -> None:
    rows = {r.lv: r for r in lvs(section("linux/lvs_nameprefixes_insights.txt"))}
    assert (rows["root"].vg, rows["root"].devices) == ("rhel", ("/dev/sda2",))
    assert rows["[docker-pool_tdata]"].devices == ("/dev/sdb1",)  # a thin pool's hidden LV


def test_lvs_noheading_abbreviated_with_vg_uuid_only() -> None:
    rows = lvs(section("linux/lvs_noheading_units_m_glpi.txt"))
    assert [r.lv for r in rows] == ["home", "root", "swap_1", "tmp", "usr", "var", "lvol0", "lvol1"]
    assert all(r.vg is None for r in rows)  # -o vg_uuid: the VG's name was not asked for


def test_mdstat_raid10_upper_case_chunks() -> None:
    (md,) = mdstat(section("linux/mdstat_raid10_ohai.txt"))
    assert (md.level, md.chunk_kb) == ("raid10", 256)


def test_an_lvs_device_mapper_name_doubles_its_dashes() -> None:
    assert dm_name("fedora_dhcp129-186", "root") == "fedora_dhcp129--186-root"
    assert dm_name("vg", "lv-data") == "vg-lv--data"
