"""Solaris pastes drafted whole: ZFS file systems with their pool's layout, sizes and record
size, the OS from what only Solaris prints, CPUs from either psrinfo view, swap."""

from __future__ import annotations

from typing import Any

import pytest

from rules.parse import draft
from rules.parse.combine_solaris_zfs import raid_level
from rules.parse.solaris_zpool import zpool_status
from tests.rules.parse.fixtures import section, transcript, transcript_file


def _storage(found: Any) -> dict[str, dict[str, Any]]:
    return {e["mount"]: e for e in found.document["storage"]}


def _where(found: Any, mount: str, field: str) -> Any:
    i = [e["mount"] for e in found.document["storage"]].index(mount)
    return found.provenance.get(f"storage[{i}].{field}")


@pytest.mark.parametrize(
    ("name", "level"),
    [
        ("zpool_status_rpool_mirror_ohai.txt", "1"),
        ("zpool_status_logs_man_example_illumos.txt", "10"),  # two mirrors; the log is not data
        ("zpool_status_tank_raidz2_ohai.txt", "6"),
        ("zpool_status_raidz2_logs_cache_omnios_pr.txt", "6"),
        ("zpool_status_unavail_errors_jc.txt", "0"),  # two bare disks: a stripe
    ],
)
def test_raid_level_of_a_pool(name: str, level: str) -> None:
    (pool,) = zpool_status(section(f"solaris/{name}"))
    assert raid_level(pool) == level


def test_zfs_list_and_zpool_status_give_datasets_on_their_pool() -> None:
    found = draft(transcript(
        "solaris/zfs_list_o_quota_solaris113_ansible_issue.txt",
        "solaris/zpool_status_rpool_mirror_ohai.txt", "solaris/zpool_list_h_version_ohai.txt",
    ))  # fmt: skip
    storage = _storage(found)
    home = storage["/export/home"]
    assert (home["filesystem"], home["raid"], home["disks"]) == ("zfs", "1", 2)
    assert home["devices"] == ["c3t5d0s0", "c3t4d0s0"]
    assert _where(found, "/export/home", "name").raw == "rpool/export/home"
    # this zfs list has no USED column: the pool's SIZE (zpool list) is what it can grow to
    assert home["size_gb"] == 109.0
    assert "pool's SIZE" in _where(found, "/export/home", "size_gb").note
    assert "/system/zones" in storage and "/rpool" in storage
    assert found.document["server"]["os"] == "solaris"
    assert not [m for m in found.missing if m.path.endswith((".raid", ".disks"))]


def test_zfs_get_all_alone_gives_the_file_system_and_its_record_size() -> None:
    found = draft(transcript("solaris/zfs_get_all_man_example_illumos.txt"))
    bob = _storage(found)["/pool/home/bob"]
    assert (bob["stripe_kb"], round(bob["size_gb"])) == (128, 20)
    assert "recordsize" in _where(found, "/pool/home/bob", "stripe_kb").note
    exact = draft(transcript("solaris/zfs_get_pH_all_ohai.txt"))
    data0 = _storage(exact)["/data0"]
    assert (data0["stripe_kb"], round(data0["size_gb"])) == (128, 10797)


def test_zfs_get_recordsize_reaches_a_mounted_dataset() -> None:
    found = draft(transcript(
        "solaris/mount_v_openindiana_glpi.txt", "solaris/df_pk_openindiana_glpi.txt",
        "solaris/zfs_get_recordsize_zol_openzfs_issue.txt",
    ))  # fmt: skip
    storage = _storage(found)
    assert round(storage["/"]["size_gb"]) == 31  # df still sizes it
    assert all("stripe_kb" not in e for e in storage.values())  # big/a is mounted nowhere here


def test_boot_environments_on_one_mount_point_keep_the_first() -> None:
    found = draft(transcript("solaris/zfs_list_r_omnios_zadm_issue.txt"))
    storage = _storage(found)
    assert _where(found, "/", "name").raw == "rpool/ROOT/OmniStartComplete"
    assert any("rpool/ROOT/omnios-r151036p also names mount point /" in n for n in found.notes)
    assert round(storage["/zones"]["size_gb"]) == 46
    assert "/rpool/freebsd12_test_1/root" not in storage  # a volume: no mount point


def test_a_dataset_not_mounted_is_no_file_system() -> None:
    found = draft(transcript("solaris/zfs_list_o_mounted_helios_oxide_issue.txt"))
    assert found.document["storage"] == []


@pytest.mark.parametrize(
    "names",
    [
        ("solaris/zpool_status_tank_raidz2_ohai.txt",),
        ("solaris/mount_v_openindiana_glpi.txt",),
        ("solaris/df_k_zfs_zone_glpi.txt",),
        ("solaris/swap_l_two_zvols_facter.txt",),
        ("solaris/psrinfo_v_t1_glpi.txt",),
        ("solaris/zfs_list_man_example_illumos.txt",),
    ],
)
def test_a_paste_of_only_solaris_output_reads_as_solaris(names: tuple[str, ...]) -> None:
    found = draft(transcript(*names))
    assert found.document["server"]["os"] == "solaris"
    assert "server.os" not in {m.path for m in found.missing}


def test_openzfs_output_on_linux_is_no_second_system() -> None:
    rhel = transcript_file("rhel9_wazuh21357.txt")[2]
    found = draft(rhel + transcript("solaris/zpool_list_vHPp_zol_systeminformation_issue.txt"))
    assert found.document["server"]["os"] == "linux"
    assert not [p for p in found.problems if "two systems" in p["message"]]


def test_release_from_etc_release() -> None:
    found = draft(transcript(
        "solaris/release_solaris10_u11_sparc_glpi.txt", "solaris/psrinfo_vp_t5120_glpi.txt",
    ))  # fmt: skip
    server = found.document["server"]
    assert (server["os"], server["os_version"]) == ("solaris", "10")
    assert found.provenance["server.os_version"].command == "cat /etc/release"


def test_both_psrinfo_views_are_kept() -> None:
    found = draft(transcript_file("solaris11_glpi.txt")[2])
    server = found.document["server"]
    assert (server["cpus"], server["cores"], server["smt_threads"]) == (32, 8, 4)
    assert found.provenance["server.cpus"].command == "psrinfo -v"
    assert found.provenance["server.cores"].command == "psrinfo -vp"


def test_prtdiag_alone_gives_the_cpus() -> None:
    found = draft(transcript("solaris/prtdiag_v890_glpi.txt"))
    assert found.document["server"]["cpus"] == 16
    assert "prtdiag" in found.provenance["server.cpus"].note


def test_swap_is_named_and_sizes_tmp_without_df() -> None:
    found = draft(transcript("solaris/mount_v_openindiana_glpi.txt", "solaris/swap_s_ohai.txt"))
    tmp = _storage(found)["/tmp"]
    assert tmp["size_gb"] == round(47057688 / 1024**2, 2)
    assert "swap -s" in _where(found, "/tmp", "size_gb").note
    assert any("`swap -s` shows virtual swap" in n for n in found.notes)
