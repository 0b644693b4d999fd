"""lspv -l hdiskN and lsvg -p of several VGs on real captures (tests/fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix_lspv import lspv_lvs
from rules.parse.aix_lvm import lsvg_pvs
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    "argv",
    [("lspv", "-l", "hdisk2"), ("lspv", "-l", "hdisk0", "hdisk1"), ("lspv", "-Ll", "hdisk2")],
)
def test_routing(argv: tuple[str, ...]) -> None:
    assert getattr(find(argv), "name", None) == "aix_lspv_lvs"


def test_lspv_without_a_disk_or_with_other_flags_is_not_routed_here() -> None:
    assert getattr(find(("lspv", "-l")), "name", None) != "aix_lspv_lvs"
    assert find(("lspv", "-p", "hdisk2")) is None


def test_the_lvs_of_one_disk_with_their_mount_points() -> None:
    pv = lspv_lvs(section("aix/lspv_l_hdisk2_stroika.txt"))
    assert [(r.disk, r.lv, r.lps, r.mount_point) for r in pv.lvs] == [
        ("hdisk2", "hd10opt", 16, "/opt"),
        ("hdisk2", "paging02", 60, None),
        ("hdisk2", "paging01", 30, None),
        ("hdisk2", "paging00", 24, None),
        ("hdisk2", "resgrp156lv", 564, "/resgrp156"),
        ("hdisk2", "paging03", 50, None),
    ]
    # a region of 100 PPs or more widens the distribution into the mount point's column
    assert pv.lvs[4].distribution == "160..160..159..85..00"
    assert pv.disks_of("resgrp156lv") == ("hdisk2",)
    assert pv.disks_of("hd4") == ()


def test_two_disks_in_one_listing() -> None:
    """`lspv -l hdisk2 hdisk3` prints one `hdiskN:` block a disk: the real block twice."""
    block = section("aix/lspv_l_hdisk2_stroika.txt").lines
    text = (*block, "hdisk3:", *block[1:])
    pv = lspv_lvs(Section("lspv -l hdisk2 hdisk3", ("lspv", "-l", "hdisk2", "hdisk3"), text, 1))
    assert pv.disks_of("resgrp156lv") == ("hdisk2", "hdisk3")
    assert len(pv.lvs) == 12


def test_lspv_l_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        lspv_lvs(Section("lspv -l hdisk9", ("lspv", "-l", "hdisk9"), ("no such thing",), 1))


def test_lsvg_p_of_three_vgs_keeps_each_disk_with_its_vg() -> None:
    vgs = lsvg_pvs(section("aix/lsvg_p_three_vgs_ansible_facts.txt"))
    assert [(r.vg, r.name, r.total_pps, r.free_pps) for r in vgs.pvs] == [
        ("rootvg", "hdisk0", 546, 0),
        ("rootvg", "hdisk1", 546, 113),
        ("realsyncvg", "hdisk74", 1999, 6),
        ("testvg", "hdisk105", 999, 838),
        ("testvg", "hdisk106", 999, 599),
    ]


def test_lsvg_p_of_a_vios_rootvg_in_a_module_comment() -> None:
    vgs = lsvg_pvs(section("aix/lsvg_p_rootvg_vios_ansible.txt"))
    assert [(r.name, r.state, r.distribution) for r in vgs.pvs] == [
        ("hdisk4", "active", "126..00..00..00..128"),
        ("hdisk8", "active", "126..00..00..00..128"),
    ]
