"""nvme list, multipath, xfs_info, mdadm --detail, free, hostnamectl, SuSE-release and
uname -r on the real captures of tests/fixtures/parse/linux/ and unix/."""

from __future__ import annotations

from rules.parse.linux_devices import multipath, nvme_list, xfs_info
from rules.parse.linux_host import free, hostnamectl, suse_release
from rules.parse.linux_raid import mdadm_detail
from rules.parse.unix import uname_release
from tests.rules.parse.fixtures import section


def test_nvme_list_in_every_header_generation() -> None:
    (old,) = nvme_list(section("linux/nvme_list_old_version_column_nvmecli53.txt"))
    assert (old.node, old.model, old.size_bytes) == ("nvme0n1", "Samsung SSD 950 PRO", 512110000000)
    first, second = nvme_list(section("linux/nvme_list_generic_powerstore_nvmecli1983.txt"))
    assert (first.node, first.size_bytes) == ("nvme0n2", 1610000000000)
    assert second.model == "dellemc-powerstore"
    (intel,) = nvme_list(section("linux/nvme_list_generic_intel_misaligned_nvmecli2028.txt"))
    assert intel.size_bytes == 8 * 10**12
    (toshiba,) = nvme_list(section("linux/nvme_list_toshiba_libnvme108.txt"))  # no /dev/
    assert toshiba.node == "nvme0n1"


def test_multipath_maps_and_their_paths() -> None:
    maps = {m.name: m for m in multipath(section("linux/multipath_l_2_glpi.txt"))}
    assert maps["t2d6"].paths == ("sdi", "sdbz") and maps["t2d6"].dm == "dm-65"
    v4 = multipath(section("linux/multipath_v4_ll_insights.txt"))
    assert v4[0].name == "mpathg" and len(v4[0].paths) == 8  # after -v4's paths list


def test_xfs_info_stripe_unit() -> None:
    info = xfs_info(section("linux/xfs_info_sunit32_insights.txt"))
    assert (info.device, info.agcount, info.sunit_blocks, info.swidth_blocks) == (
        "/dev/sda", 32, 32, 128,
    )  # fmt: skip
    assert info.stripe_kb == 128
    assert xfs_info(section("linux/xfs_info_lvroot_insights.txt")).stripe_kb is None


def test_mdadm_detail_level_chunk_members() -> None:
    raid0 = mdadm_detail(section("linux/mdadm_detail_raid0_jc.txt"))
    assert (raid0.name, raid0.level, raid0.chunk_kb, raid0.members) == (
        "md0", "raid0", 512, ("vda1", "vda2"),
    )  # fmt: skip
    spare = mdadm_detail(section("linux/mdadm_detail_raid1_faulty_spare_jc.txt"))
    assert (spare.level, spare.chunk_kb, spare.spares) == ("raid1", None, ("vda4",))


def test_free_in_its_units() -> None:
    assert free(section("linux/free_centos77_jc.txt")).mem_total_kb == 3861332
    assert free(section("linux/free_g_rhel93_wazuh21046.txt")).mem_total_kb == 3 * 1024**2
    gi = free(section("linux/free_h_gi_units_wazuh35813.txt"))
    assert (gi.mem_total_kb, gi.swap_total_kb, gi.rounded) == (11 * 1024**2, 12 * 1024**2, True)


def test_hostnamectl_suse_release_and_uname_r() -> None:
    host = hostnamectl(section("linux/hostnamectl_rhel89_ec2_wazuh36393.txt"))
    assert host.hostname == "ip-172-31-42-138.ec2.internal"
    assert host.operating_system == "Red Hat Enterprise Linux 8.9 (Ootpa)"
    assert host.kernel == "4.18.0-513.24.1.el8_9.x86_64"
    assert suse_release(section("linux/suse_release_sles114_ansible.txt")).version == "11.4"
    assert (
        suse_release(section("linux/suse_release_sles12sp1_patchlevel0_ansible.txt")).version
        == "12"
    )
    release = uname_release(section("unix/uname_r_rhel93_wazuh21357.txt"))
    assert release == "5.14.0-362.8.1.el9_3.x86_64"
