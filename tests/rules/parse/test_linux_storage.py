"""findmnt, /proc/mounts and lsblk in their pair, raw, list and tree shapes."""

from __future__ import annotations

import pytest

from rules.parse.linux_storage import BlockDevice, findmnt, lsblk, proc_mounts
from rules.parse.registry import Garbled, Section
from rules.parse.unix import Mount
from tests.rules.parse.fixtures import section

SAS_WORK = Mount("/tmp/sas work", "tmpfs", "tmpfs", ("rw", "relatime", "size=1024k"), 1048576)


def targets(rows: tuple[Mount, ...]) -> dict[str, Mount]:
    return {m.target: m for m in rows}


def test_findmnt_pairs_with_sizes() -> None:
    rows = targets(findmnt(section("linux/findmnt_pairs_debian12.txt")))
    assert rows["/"].size_bytes == 270553174016
    assert rows["/proc"].size_bytes == 0
    assert rows["/tmp/sas work"] == SAS_WORK


def test_findmnt_raw_decodes_escaped_spaces() -> None:
    rows = targets(findmnt(section("linux/findmnt_raw_debian12.txt")))
    assert rows["/tmp/sas work"] == SAS_WORK
    assert rows["/"].source == "/dev/vda"


def test_findmnt_tree_keeps_a_target_with_a_space() -> None:
    rows = findmnt(section("linux/findmnt_tree_debian12.txt"))
    assert rows[0] == Mount(
        "/",
        "/dev/vda",
        "ext4",
        ("rw", "relatime", "discard", "resv_strict", "resuid=65534", "resgid=65534"),
    )
    assert targets(rows)["/tmp/sas work"].source == "tmpfs"
    assert targets(rows)["/mnt/sandboxing/model_tools_env/v1/python"].fstype == "tmpfs"


def test_findmnt_utf8_tree_from_util_linux() -> None:
    rows = findmnt(section("linux/findmnt_tree_utf8.txt"))
    assert rows[0].target == "/" and rows[0].source == "/dev/sda4"
    binfmt = [m for m in rows if m.target == "/proc/sys/fs/binfmt_misc"]
    assert [m.fstype for m in binfmt] == ["autofs", "binfmt_misc"]
    assert all(m.size_bytes is None for m in rows)


def test_findmnt_raw_with_header_and_pairs_without_size() -> None:
    raw = findmnt(section("linux/findmnt_raw_header.txt"))
    pairs = findmnt(section("linux/findmnt_pairs_no_size.txt"))
    assert raw == pairs
    assert targets(raw)["/dev"] == Mount(
        "/dev",
        "udev",
        "devtmpfs",
        ("rw", "relatime", "size=1983516k", "nr_inodes=495879", "mode=755"),
    )


def test_findmnt_list_with_an_extra_column() -> None:
    rows = findmnt(section("linux/findmnt_list_propagation.txt"))
    assert len(rows) == 25
    assert rows[-1].source == "shm" and rows[-1].options[-1] == "size=65536k"


def test_findmnt_error_is_garbled() -> None:
    with pytest.raises(Garbled):
        findmnt(Section("findmnt -P", ("findmnt", "-P"), ("findmnt: unknown column: SIZ",), 1))


def test_proc_mounts_decodes_octal_escapes() -> None:
    rows = targets(proc_mounts(section("linux/proc_mounts_debian12.txt")))
    assert rows["/tmp/sas work"] == Mount(
        "/tmp/sas work", "tmpfs", "tmpfs", ("rw", "relatime", "size=1024k")
    )


def test_proc_mounts_nfs() -> None:
    rows = targets(proc_mounts(section("linux/proc_mounts_rhel6_nfs.txt")))
    assert rows["/sa/net"].fstype == "nfs"
    assert rows["/"].source == "/dev/mapper/rootvg-rootlv"
    assert len(rows) == 19
    assert rows["/var/tmp"].source == rows["/tmp"].source == "/dev/mapper/rootvg-tmplv"


def test_lsblk_pairs_in_bytes_with_a_zero_sized_device() -> None:
    zram, vda = lsblk(section("linux/lsblk_pairs_debian12.txt"))
    assert zram == BlockDevice(
        "zram0", "zram0", None, "disk", 0, False, None, None, None, {"rotational": "0"}
    )
    assert vda == BlockDevice(
        "vda", "vda", None, "disk", 274877906944, True, "/", None, None, {"rotational": "1"}
    )


def test_lsblk_pairs_skip_error_lines() -> None:
    (sda,) = lsblk(section("linux/lsblk_pairs_failed_path.txt"))
    assert (sda.name, sda.model, sda.rotational, sda.size_bytes) == (
        "sda",
        "PERC H710P",
        True,
        931 * 1024**3,
    )


def test_lsblk_pairs_with_human_sizes_and_dm_knames() -> None:
    rows = {b.name: b for b in lsblk(section("linux/lsblk_pairs_lvm_human_sizes.txt"))}
    assert rows["vg_trex-lv_root"].kname == "dm-0"
    assert rows["vg_trex-lv_root"].size_bytes == 50 * 1024**3
    assert rows["sda1"].fstype == "ext4" and rows["sda1"].mountpoint == "/boot"
    assert rows["sr0"].model == "DVD+-RW DVD8801"


def test_lsblk_tree_multipath_with_dm_names_in_parentheses() -> None:
    rows = lsblk(section("linux/lsblk_tree_multipath.txt"))
    root = next(b for b in rows if b.mountpoint == "/")
    assert (root.name, root.kname, root.parent, root.type) == (
        "vg_root-lv_root",
        "dm-0",
        "sda2",
        "lvm",
    )
    splunk = [b for b in rows if b.name == "appdg-app"]
    assert {b.parent for b in splunk} == {"mpathbp1", "mpathap1", "mpathcp1"}
    assert splunk[0].size_bytes == int(2.8 * 1024**4)
    assert next(b for b in rows if b.name == "sda3").mountpoint == "[SWAP]"


def test_lsblk_tree_through_md_raid() -> None:
    rows = lsblk(section("linux/lsblk_tree_md_raid1.txt"))
    assert [(b.name, b.parent, b.type) for b in rows[:7]] == [
        ("vda", None, "disk"),
        ("vda1", "vda", "part"),
        ("md127", "vda1", "raid1"),
        ("vda2", "vda", "part"),
        ("md126", "vda2", "raid1"),
        ("rhel-root", "md126", "lvm"),
        ("rhel-swap", "md126", "lvm"),
    ]


def test_lsblk_tree_with_a_kname_column() -> None:
    rows = lsblk(section("linux/lsblk_tree_kname_lvm.txt"))
    lv = rows[1]
    assert (lv.name, lv.kname, lv.parent, lv.type, lv.size_bytes) == (
        "vg_foo.4059-lv_foo.4059",
        "dm-0",
        "loop0",
        "lvm",
        32 * 1024**2,
    )
    assert rows[-1].mountpoint == "/home/test"


def test_lsblk_default_tree_on_debian() -> None:
    zram, vda = lsblk(section("linux/lsblk_tree_debian12.txt"))
    assert (zram.size_bytes, vda.size_bytes, vda.mountpoint) == (0, 256 * 1024**3, "/")


def test_lsblk_under_a_header_of_name_alone_reads_no_columns() -> None:
    # a damaged paste left only NAME of the header: the cells have no column to go to
    lines = ("NAME", "sdb            0   4096      0    4096     512    1 none      256 128    0B")
    (row,) = lsblk(Section("lsblk -t", ("lsblk", "-t"), lines, 1))
    assert row.name == "sdb"
