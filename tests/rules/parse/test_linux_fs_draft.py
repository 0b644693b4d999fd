"""Linux file systems drafted from df, lsblk and findmnt -J alone, and the server's facts
from release files, hostnamectl and free (real captures, drafted whole)."""

from __future__ import annotations

from rules.parse import draft
from tests.rules.parse.fixtures import transcript


def _storage(*names: str) -> dict[str, dict[str, object]]:
    return {str(e["mount"]): e for e in draft(transcript(*names)).document["storage"]}


def test_df_h_alone_gives_mounts_and_human_sizes() -> None:
    found = _storage("unix/df_h_centos77_jc.txt")
    assert found["/"]["name"] == "centos-root" and found["/"]["size_gb"] == 17.0
    assert found["/boot"]["size_gb"] == 0.99


def test_df_alp_mount_point_with_blanks_and_df_t_types() -> None:
    result = draft(transcript("unix/df_alp_spaces_mountpoint_insights.txt"))
    assert {e["mount"] for e in result.document["storage"]} == {"/", "/boot"}
    # read whole by df; the contract refuses blanks in a mount point, and the note says so
    note = (
        "left out '/V M T o o l s': a mount point with characters the contract refuses "
        "(' '; a storage entry's mount holds letters, digits and / _ . - only)"
    )
    assert note in result.notes
    typed = _storage("unix/df_pt_long_device_jc.txt")["/"]
    assert (typed["filesystem"], typed["name"]) == ("other", "VolGroup00-LogVol00")  # ext3


def test_lsblk_alone_gives_mounts_and_nvme_media() -> None:
    found = _storage("linux/lsblk_o_kname_nvme_utillinux.txt")
    assert found["/home"]["media"] == "nvme" and found["/home"]["devices"] == ["nvme0n1"]
    assert round(float(found["/"]["size_gb"])) == 50  # type: ignore[arg-type]


def test_lsblk_columns_fill_current_devices() -> None:
    result = draft(transcript("linux/lsblk_o_allcols_centos77_jc.txt"))
    sda = result.document["current"]["devices"]["sda"]
    assert (sda["scheduler"], sda["read_ahead_kb"], sda["rotational"]) == ("deadline", "4096", "1")


def test_findmnt_json_and_release_files() -> None:
    assert _storage("linux/findmnt_json_utillinux.txt")["/"]["filesystem"] == "other"  # ext3
    server = draft(transcript("linux/centos_release_centos79_glpi.txt")).document["server"]
    assert (server["distribution"], server["os_version"]) == ("centos", "7.9")
    suse = draft(transcript("linux/suse_release_sles114_ansible.txt")).document["server"]
    assert (suse["distribution"], suse["os_version"]) == ("sles", "11.4")


def test_hostnamectl_and_free_give_the_server() -> None:
    text = transcript("linux/hostnamectl_rhel89_ec2_wazuh36393.txt", "linux/free_w_wide_jc.txt")
    server = draft(text).document["server"]
    assert server["hostname"] == "ip-172-31-42-138.ec2.internal"
    assert (server["distribution"], server["os_version"]) == ("rhel", "8.9")
    assert server["kernel"] == "4.18.0"
    assert server["ram_gb"] == 7.68


def test_a_btrfs_subvolume_at_a_refused_path_is_folded_into_an_accepted_one() -> None:
    # /dev/mapper/volb-recive is mounted at /@data (shortest) and /recive: the entry takes
    # /recive, and each '@' path is named as the same file system, not silently dropped
    result = draft(transcript("unix/mount_grep_btrfs_subvols_btrbk226.txt"))
    found = {str(e["mount"]): e for e in result.document["storage"]}
    assert set(found) == {"/mnt", "/recive"} and found["/recive"]["name"] == "volb-recive"
    left_out = [n for n in result.notes if n.startswith("left out '/@data")]
    assert len(left_out) == 2
    assert all("/dev/mapper/volb-recive, the file system of the entry at /recive" in n
               for n in left_out)  # fmt: skip


def test_etc_mtab_and_proc_mounts_tables() -> None:
    mtab = _storage("linux/etc_mtab_btrfs_sshfs_ansible.txt")
    assert mtab["/"]["name"] == "fedora_dhcp129--186-root" and mtab["/"]["filesystem"] == "ext4"
    assert "/home/adrian/sshfs-grimlock" not in mtab  # a FUSE mount is no disk
    ohai = _storage("linux/proc_mounts_rootfs_md_btrfs_ohai.txt")
    assert ohai["/"]["name"] == "sys.vg-root.lv"  # the device, not rootfs
    assert ohai["/boot"]["name"] == "md0"


def test_xfs_stripe_unit_reaches_its_file_system() -> None:
    found = _storage(
        "unix/df_chroot_lvm_ceph_30t_lore.txt", "linux/xfs_info_chroot_lvm_ceph_30t_lore.txt"
    )
    assert found["/chroot"]["stripe_kb"] == 512  # sunit=128 blocks of 4096 bytes
    assert round(float(found["/chroot"]["size_gb"])) == 29806  # type: ignore[arg-type]
