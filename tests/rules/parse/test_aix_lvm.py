"""lsvg, lsvg VG, lsvg -l/-p, lslv, lslv -l and lspv on real captures (fixtures/parse/aix/)."""

from __future__ import annotations

import pytest

from rules.parse.aix import LV_KEY, lslv, lslv_pvs, lspv, lspv_disk, stripe_kb
from rules.parse.aix_lvm import lsvg_list, lsvg_lvs, lsvg_pvs, lsvg_vg, two_column
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section


@pytest.mark.parametrize(
    ("argv", "parser"),
    [
        (("lsvg",), "aix_lsvg_list"),
        (("lsvg", "-o"), "aix_lsvg_list"),
        (("lsvg", "datavg"), "aix_lsvg"),
        (("lsvg", "-l", "datavg"), "aix_lsvg_lvs"),
        (("lsvg", "-p", "datavg"), "aix_lsvg_pvs"),
        (("lslv", "lv01"), "aix_lslv"),
        (("lslv", "-l", "lv01"), "aix_lslv_pvs"),
        (("lspv",), "aix_lspv"),
    ],
)
def test_routing(argv: tuple[str, ...], parser: str) -> None:
    found = find(argv)
    assert found is not None and found.name == parser


def test_other_listings_are_not_routed() -> None:
    assert find(("lslv", "-m", "hd5")) is None  # the partition map
    assert find(("lspv", "-p", "hdisk0")) is None  # one disk's partition map
    assert find(("lsvg", "-M", "rootvg")) is None


def test_vg_with_no_lvs() -> None:
    vg = lsvg_vg(section("aix/lsvg_testvg_no_lvs_ansible.txt"))
    assert (vg.name, vg.state, vg.pp_size_mb) == ("testvg", "active", 16)
    assert (vg.total_pps, vg.free_pps, vg.used_pps) == (2550, 2550, 0)
    assert (vg.total_pvs, vg.active_pvs, vg.lvs, vg.open_lvs) == (2, 2, 0, 0)
    assert (vg.total_mb, vg.free_mb) == (40800, 40800)
    assert vg.values["QUORUM"] == "2 (Enabled)"
    assert vg.values["LTG size (Dynamic)"] == "256 kilobyte(s)"
    assert vg.values["ENCRYPTION"] == "no"


def test_application_vg() -> None:
    vg = lsvg_vg(section("aix/lsvg_applivg_wikidoc.txt"))
    assert (vg.name, vg.pp_size_mb, vg.total_pps, vg.free_pps) == ("applivg", 128, 399, 7)
    assert (vg.lvs, vg.total_pvs, vg.free_mb) == (4, 1, 896)
    assert vg.values["MAX PPs per VG"] == "130048"


def test_aix6_rootvg() -> None:
    vg = lsvg_vg(section("aix/lsvg_rootvg_aix6_glpi.txt"))
    assert (vg.pp_size_mb, vg.total_pps, vg.free_pps, vg.lvs, vg.open_lvs) == (32, 798, 201, 19, 17)
    assert vg.values["QUORUM"] == "2"
    assert vg.error is None


def test_lsvg_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled):
        lsvg_vg(Section("lsvg datavg", ("lsvg", "datavg"), ("hello", "world"), 1))


def test_vg_list() -> None:
    names = lsvg_list(Section("lsvg", ("lsvg",), ("rootvg", "datavg", ""), 1))
    assert (names.names, names.active_only) == (("rootvg", "datavg"), False)


def test_lvs_of_rootvg() -> None:
    lvs = lsvg_lvs(section("aix/lsvg_l_rootvg_glpi.txt"))
    assert lvs.vg == "rootvg" and len(lvs.lvs) == 17
    hd5, hd4 = lvs.lvs[0], lvs.lvs[3]
    assert (hd5.name, hd5.type, hd5.state, hd5.mount_point) == ("hd5", "boot", "closed/syncd", None)
    assert (hd4.name, hd4.lps, hd4.pps, hd4.pvs, hd4.mount_point) == ("hd4", 8, 8, 1, "/")
    assert lvs.lvs[11].mount_point == "/var/adm/ras/livedump"
    assert all(lv.vg == "rootvg" for lv in lvs.lvs)


def test_lvs_of_an_application_vg() -> None:
    lvs = lsvg_lvs(section("aix/lsvg_l_applivg_wikidoc.txt"))
    assert [(lv.name, lv.pps, lv.mount_point) for lv in lvs.lvs] == [
        ("lv_cmod", 80, "/appli/CMOD"),
        ("lv_cmodcache", 160, "/appli/CMOD-cache"),
        ("lv_aen", 80, "/appli/AEN"),
        ("lv_logs", 72, "/logs"),
    ]


def test_vg_not_varied_on() -> None:
    lvs = lsvg_lvs(section("aix/lsvg_l_not_varied_on_glpi.txt"))
    assert (lvs.vg, lvs.lvs) == ("altinst_rootvg", ())
    assert lvs.error == "0516-010 : Volume group must be varied on; use varyonvg command."


def test_pvs_of_a_vg() -> None:
    pvs = lsvg_pvs(section("aix/lsvg_p_testvg_ansible.txt"))
    assert pvs.vg == "testvg"
    assert [(p.name, p.state, p.total_pps, p.free_pps) for p in pvs.pvs] == [
        ("hdisk2", "active", 1275, 1275),
        ("hdisk3", "active", 1275, 1275),
        ("hdisk4", "active", 1275, 1275),
    ]
    assert pvs.pvs[0].distribution == "255..255..255..255..255"


def test_pvs_of_a_two_disk_vg() -> None:
    pvs = lsvg_pvs(section("aix/lsvg_p_two_pvs_ansible.txt"))
    assert [(p.vg, p.name, p.free_pps) for p in pvs.pvs] == [
        ("testvg", "hdisk1", 1275),
        ("testvg", "hdisk2", 1275),
    ]


def test_lv_not_striped_not_mounted() -> None:
    lv = lslv(section("aix/lslv_testlv_not_striped_ansible.txt"))
    assert (lv.name, lv.vg, lv.type, lv.mount_point) == ("testlv", "testvg", "jfs2", None)
    assert (lv.copies, lv.lps, lv.pps, lv.pp_size_mb) == (1, 10, 10, 32)
    assert (lv.stripe_width, lv.stripe_size_kb) == (None, None)
    assert (lv.inter_policy, lv.state) == ("maximum", "closed/syncd")
    # A long LV IDENTIFIER leaves one space before PERMISSION: both keys still read.
    assert lv.values["LV IDENTIFIER"] == "00f6f42a00004c0000000179c407a0bb.1"
    assert lv.values["PERMISSION"] == "read/write"
    assert lv.values["EACH LP COPY ON A SEPARATE PV ?"] == "yes"


def test_usr_lv() -> None:
    lv = lslv(section("aix/lslv_hd2_glpi.txt"))
    assert (lv.name, lv.vg, lv.mount_point, lv.pps, lv.pp_size_mb) == (
        "hd2",
        "rootvg",
        "/usr",
        48,
        64,
    )
    assert lv.values["LABEL"] == "/usr"


def test_boot_lv_with_squeezed_columns() -> None:
    lv = lslv(section("aix/lslv_hd5_squeezed_facter.txt"))
    assert (lv.name, lv.type, lv.mount_point) == ("hd5", "boot", None)
    assert lv.values["LABEL"] == "primary_bootlv"
    assert lv.values["MIRROR WRITE CONSISTENCY"] == "on/ACTIVE"


def test_stripe_sizes() -> None:
    assert [stripe_kb(t) for t in ("64K", "1M", "128k", "256 kilobyte(s)", "N/A")] == [
        64,
        1024,
        128,
        256,
        None,
    ]


def test_striped_lv_fields_by_name() -> None:
    # The two striping fields as lslv's man page names them, in its two-column layout.
    lines = ("STRIPE WIDTH:       4                      STRIPE SIZE:    64K",)
    assert two_column(lines, LV_KEY) == {
        "STRIPE WIDTH": "4",
        "STRIPE SIZE": "64K",
    }


def test_two_column_keys_end_at_colons_longest_first() -> None:
    # 'STALE PPs' is one key, not 'PPs' after 'STALE '; a colon inside a value ends no key;
    # a key glued to the text before it ('XPPs:') is no key.
    lines = (
        "STALE PPs:          0                      BB POLICY:      relocatable",
        "MOUNT POINT:        /sas/a:b               LABEL:          XPPs: 3",
        "LPs:                10                     PPs:            10",
    )
    assert two_column(lines, LV_KEY) == {
        "STALE PPs": "0",
        "BB POLICY": "relocatable",
        "MOUNT POINT": "/sas/a:b",
        "LABEL": "XPPs: 3",
        "LPs": "10",
        "PPs": "10",
    }


def test_lslv_error_kept() -> None:
    lines = ("0516-1147 : Warning - logical volume lv9 may be partially mirrored.",)
    assert lslv(Section("lslv lv9", ("lslv", "lv9"), lines, 1)).error == lines[0]


def test_lv_pvs_heading_and_rows() -> None:
    lines = (
        "hd2:/usr",
        "PV                COPIES        IN BAND       DISTRIBUTION",
        "hdisk0            048:000:000   100%          000:000:048:000:000",
    )
    pvs = lslv_pvs(Section("lslv -l hd2", ("lslv", "-l", "hd2"), lines, 1))
    assert (pvs.lv, pvs.mount_point) == ("hd2", "/usr")
    assert [(p.name, p.copies, p.in_band_pct) for p in pvs.pvs] == [("hdisk0", "048:000:000", 100)]


def test_lspv_active_and_unused_disks() -> None:
    pvs = lspv(section("aix/lspv_qemu_bondhuang.txt")).pvs
    assert [(p.name, p.pvid, p.vg, p.state) for p in pvs] == [
        ("hdisk0", "00000000f9d61667", "rootvg", "active"),
        ("hdisk1", None, None, None),
    ]


def test_lspv_without_state_column() -> None:
    pvs = lspv(section("aix/lspv_no_state_andy.txt"))
    assert [(p.name, p.vg, p.state) for p in pvs.pvs] == [
        ("hdisk0", "datavg", None),
        ("hdisk1", "rootvg", None),
        ("hdisk2", "rootvg", None),
    ]
    assert pvs.of_vg("rootvg") == ("hdisk1", "hdisk2")


def test_lspv_of_other_text_is_garbled() -> None:
    with pytest.raises(Garbled) as err:
        lspv(Section("lspv", ("lspv",), ("", "lspv: not found"), 1))
    assert err.value.offset == 1


@pytest.mark.parametrize(
    ("name", "vg", "size_mb", "pp_size_mb"),
    [
        ("aix/lspv_hdisk0_aix61_glpi.txt", "rootvg", 34752, 64),
        ("aix/lspv_hdisk0_rootvg_facter.txt", "rootvg", 30688, 32),
        ("aix/lspv_hdisk3_aix61_glpi.txt", "vg_apps01", 30592, 128),
    ],
)
def test_one_disk(name: str, vg: str, size_mb: int, pp_size_mb: int) -> None:
    pv = lspv_disk(section(name))
    assert (pv.vg, pv.size_mb, pv.pp_size_mb, pv.state) == (vg, size_mb, pp_size_mb, "active")
    assert pv.max_request_kb == 256
    assert pv.error is None


def test_one_disk_of_a_vg_not_varied_on() -> None:
    pv = lspv_disk(section("aix/lspv_hdisk1_not_varied_on_glpi.txt"))
    assert (pv.name, pv.vg, pv.state, pv.size_mb) == ("hdisk1", "altinst_rootvg", None, None)
    assert pv.error is not None and pv.error.startswith("0516-010")


def test_lspv_of_a_masked_pvid() -> None:
    (pv,) = lspv(section("aix/lspv_one_disk_facter.txt")).pvs
    assert (pv.name, pv.pvid, pv.vg, pv.state) == ("hdisk0", "testid0998", "rootvg", "active")
