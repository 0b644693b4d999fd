"""File systems as real pastes show them: a df of one path beside a whole `zfs list`, a
Solaris zone's `kbytes 0` rows, NFS mounts (and an NFS server's 8.0E "no size"), `lsblk -p`
device paths, btrfs subvolumes on MOUNTPOINTS' further lines, and what each guess says
was read instead.

Real pieces (tests/fixtures/pastes/, each naming its source) and corpus captures
(tests/fixtures/parse/): a Solaris 11 VirtualBox session (dbaglobe.com), GLPI agent's
Solaris zone df, Oracle's database operator docs (OCI File Storage), DigitalOcean's NFS
docs, insights-core's /proc/mounts, ReaR's SLES 15 `lsblk -ipo`, wazuh issues' captures.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.parse import draft
from rules.parse.draft import Draft
from rules.parse.linux_storage import lsblk
from rules.parse.registry import Section
from rules.parse.sections import argv_of
from tests.rules.parse.fixtures import transcript, transcript_file
from tests.rules.parse.pastes import paste


def by_mount(found: Draft) -> dict[str, dict[str, Any]]:
    return {entry["mount"]: entry for entry in found.document.get("storage", [])}


def missing(found: Draft, path: str) -> Any:
    return next((m for m in found.missing if m.path == path), None)


# Solaris: `df -h /ips` names one file system, `zfs list` all of them.


def test_a_df_of_one_path_does_not_hide_the_file_systems_zfs_list_names() -> None:
    found = draft(paste("solaris11_zfs_list_beside_df_of_one_path.txt"))
    storage = by_mount(found)
    for mount in ("/", "/var", "/export", "/export/home", "/rpool", "/ips", "/u01", "/u02"):
        assert storage[mount]["filesystem"] == "zfs", mount
    # the quotas: /ips from the df (20G), the others USED + AVAIL of `zfs list`
    assert storage["/ips"]["size_gb"] == 20.0
    assert found.provenance["storage[12].size_gb"].command == "df -h /ips"
    assert (storage["/u01"]["size_gb"], storage["/u03"]["size_gb"]) == (20.0, 30.0)
    u03 = next(p for p in found.provenance.values() if p.value == "/u03")
    assert u03.command == "zfs list"
    assert (
        "file systems from `zfs list` (line 19): `df -h /ips` shows only the file systems it "
        "names, whose sizes are taken from it"
    ) in found.notes


def test_a_whole_df_still_outranks_zfs_list() -> None:
    # df -k lists every mounted file system: a zfs list (here another host's) adds nothing
    text = transcript(
        "solaris/df_k_zfs_zone_glpi.txt", "solaris/zfs_list_o_quota_solaris113_ansible_issue.txt"
    )
    found = draft(text)
    sources = {p.command for path, p in found.provenance.items() if path.endswith(".mount")}
    assert sources == {"df -k"}


def test_a_zone_df_row_of_kbytes_0_is_sized_from_used_and_avail() -> None:
    found = draft(transcript("solaris/df_k_zfs_zone_glpi.txt"))
    storage = by_mount(found)
    # Z_FS_DATAPOOL/Z_FS_LV_ORACLE 0 5123 471381611: 471386734 KB
    assert storage["/oracle"]["size_gb"] == pytest.approx(449.55, abs=0.01)
    assert storage["/kba"]["size_gb"] == pytest.approx(0.5, abs=0.01)  # 43 + 524244 KB
    at = next(p for p, v in found.provenance.items() if v.value == "/oracle").split(".")[0]
    size = found.provenance[f"{at}.size_gb"]
    assert size.raw == "kbytes 0, used 5123 + avail 471381611 KB"
    assert "used + avail" in size.note
    assert missing(found, f"{at}.size_gb") is None


# Linux NFS: kept as `nfs`, and an 8.0E size is no size.


def test_an_nfs_export_in_df_ht_is_an_nfs_entry_with_its_size() -> None:
    found = draft(paste("digitalocean_nfs4_df_ht.txt"))
    share = by_mount(found)["/mnt/example-nfs-share"]
    assert (share["filesystem"], share["size_gb"]) == ("nfs", 50.0)
    assert missing(found, "storage[0].disks").reason.startswith("an NFS mount")
    assert "storage[0].devices" not in found.provenance


def test_an_nfs_servers_8_0e_is_no_size_and_is_asked_for() -> None:
    found = draft(paste("oci_nfs_8e_df_h_oracle_operator.txt"))
    data = by_mount(found)["/data"]
    assert data["filesystem"] == "nfs"
    assert (
        found.provenance["storage[0].filesystem"].raw == "xx.xx.xx.xxx:/FileSystem_GDD_Deployment"
    )
    size = missing(found, "storage[0].size_gb")
    assert size is not None and size.guess == 1 and data["size_gb"] == 1  # never 8 EiB
    assert "`df -h /data` (line 1) shows 8.0E" in size.reason


def test_nfs_rows_of_a_mount_table_are_kept() -> None:
    found = draft(transcript("linux/proc_mounts_rhel6_nfs.txt"))
    storage = by_mount(found)
    assert storage["/sa/net"]["filesystem"] == storage["/users"]["filesystem"] == "nfs"
    assert storage["/"]["filesystem"] != "nfs"


def test_another_network_file_system_is_left_out_with_a_note() -> None:
    found = draft(transcript("linux/findmnt_tree_utf8.txt"))  # util-linux's findmnt sample
    assert "/mnt/sounds" not in by_mount(found)
    assert (
        "left out /mnt/sounds (cifs from //foo.home/bar/): a network file system the "
        "inventory has no type for"
    ) in found.notes


# lsblk: full device paths (-p) and MOUNTPOINTS' further lines.


def test_lsblk_p_paths_keep_the_tree_and_every_mount_point() -> None:
    lines = paste("sles15_lsblk_ipo_btrfs_rear3175.txt").split("\n")
    command = lines[0].removeprefix("# ")
    devices = lsblk(Section(command, argv_of(command), tuple(lines[1:-1]), 1))
    sda, sda1, sda2 = devices
    assert (sda.name, sda1.parent, sda2.parent, sda2.path) == ("sda", "sda", "sda", "/dev/sda2")
    assert sda2.kname == "sda2" and sda2.fstype == "btrfs"
    assert sda2.mountpoints[0] == "/var" and sda2.mountpoints[-1] == "/"
    assert len(sda2.mountpoints) == 11


def test_btrfs_subvolumes_fold_to_the_shortest_mount_point_with_their_disk() -> None:
    found = draft(paste("sles15_lsblk_ipo_btrfs_rear3175.txt"))
    [entry] = found.document["storage"]
    assert (entry["mount"], entry["devices"], entry["size_gb"]) == ("/", ["sda"], 13.0)
    assert entry["filesystem"] == "other"  # btrfs: the contract has no name for it
    assert any(n.startswith("/dev/sda2 is mounted at / and also at /var") for n in found.notes)


# What a guess says was read instead.


def test_a_type_not_read_names_the_command_that_was_read() -> None:
    _, _, text = transcript_file("sles15_wazuh20204.txt")  # lsblk, no df
    found = draft(text)
    reason = missing(found, "storage[0].filesystem").reason
    assert reason == "its type was not read: `lsblk` does not print it (lsblk -f does)"


def test_an_lscpu_cut_before_its_cpu_count_says_so() -> None:
    found = draft(paste("rhel93_lscpu_cut_wazuh21357.txt"))
    reason = missing(found, "server.cpus").reason
    assert reason == "`lscpu` (line 32) was cut off before its CPU(s) count"


def test_free_g_says_it_drops_the_fraction() -> None:
    note = draft(paste("rhel93_lscpu_cut_wazuh21357.txt")).provenance["server.ram_gb"].note
    assert note == "free -g drops the fraction: at least 3 GB, less than 4"
