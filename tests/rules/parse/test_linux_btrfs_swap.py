"""btrfs filesystem show / subvolume list and the Linux swap tables, on real captures."""

from __future__ import annotations

import pytest

from rules.parse import draft
from rules.parse.linux_btrfs import btrfs_fi_show, btrfs_subvolume_list
from rules.parse.linux_swap import linux_swap
from rules.parse.registry import Garbled, Section, find
from tests.rules.parse.fixtures import section, transcript

GIB = 1024**3


def test_fi_show_reads_each_device_of_each_file_system() -> None:
    show = btrfs_fi_show(section("linux/btrfs_fi_show_3dev_utillinux4145.txt"))
    assert [d.path for d in show.devices] == ["/dev/sdd1", "/dev/sdf1", "/dev/sdg1"]
    assert {d.label for d in show.devices} == {"LIVE"}
    assert show.devices[0].devid == 2
    assert show.devices[0].size_bytes == int(9.09 * 1024**4)


def test_subvolume_list_skips_the_elided_lines() -> None:
    listed = btrfs_subvolume_list(section("linux/btrfs_subvolume_list_a_s_httm85.txt"))
    assert [s.id for s in listed.subvolumes] == [90907, 97716, 106853, 109171]
    assert listed.subvolumes[0].path == "@home/.snapshots/27245/snapshot"


@pytest.mark.parametrize(
    ("name", "kb"),
    [
        ("linux/swaps_procfs.txt", 131068),
        ("linux/swaps_swapfile_jc.txt", 3996668),
        ("linux/swapon_show_uuid_jc.txt", 2 * 1024**2),
        ("linux/swapon_show_empty_uuid_jc.txt", 1024**2),
    ],
)
def test_swap_tables_in_kib(name: str, kb: int) -> None:
    assert linux_swap(section(name)).swap_total_kb == kb


@pytest.mark.parametrize(
    "command",
    ["btrfs fi sh", "btrfs filesystem show /x", "btrfs su li /", "btrfs subvolume list -p /"],
)
def test_btrfs_takes_the_prefixes_btrfs_takes(command: str) -> None:
    parser = find(tuple(command.split()))
    assert parser is not None and parser.name.startswith("btrfs_")


@pytest.mark.parametrize("command", ["btrfs f sh", "btrfs fi s", "btrfs device scan"])
def test_btrfs_refuses_ambiguous_prefixes(command: str) -> None:
    assert find(tuple(command.split())) is None


def test_a_swap_table_without_a_header_is_garbled_at_its_line() -> None:
    lines = ("/dev/dm-2 partition 131068 176 -2",)
    with pytest.raises(Garbled) as error:
        linux_swap(Section("cat /proc/swaps", ("cat", "/proc/swaps"), lines, 1))
    assert error.value.offset == 0


def test_a_btrfs_file_system_of_three_nvme_devices_is_three_nvme_disks() -> None:
    # The mount and df rows name only the first device (as the kernel does); btrfs
    # filesystem show (Canop/dysk issue 78) names all three.
    show = "\n".join(section("linux/btrfs_fi_show_nvme_raid0_dysk78.txt").lines)
    text = (
        "[root@nas ~]# mount | grep btrfs\n"
        "/dev/nvme2n1 on /mnt/btrfs_pool type btrfs (rw,relatime,ssd,space_cache=v2)\n"
        "[root@nas ~]# df -k /mnt/btrfs_pool\n"
        "Filesystem     1K-blocks  Used Available Use% Mounted on\n"
        "/dev/nvme2n1     3145728   144   3100000   1% /mnt/btrfs_pool\n"
        "[root@nas ~]# btrfs filesystem show /mnt/btrfs_pool\n" + show + "\n"
    )
    entry = draft(text).document["storage"][0]
    assert entry["mount"] == "/mnt/btrfs_pool"
    assert entry["disks"] == 3
    assert entry["media"] == "nvme"
    without = draft(text.replace("btrfs filesystem show", "true")).document["storage"][0]
    assert without.get("disks") != 3


def test_swap_and_subvolumes_are_said_in_notes() -> None:
    text = (
        "$ cat /proc/swaps\n"
        + "\n".join(section("linux/swaps_swapfile_jc.txt").lines)
        + "\n$ btrfs subvolume list -o /sqldata/central\n"
        + "\n".join(section("linux/btrfs_subvolume_list_o_snapper731.txt").lines)
        + "\n"
    )
    notes = " ".join(draft(text).notes)
    assert "1 swap area(s), 3.81 GB; the inventory holds no swap size" in notes
    assert "lists 1 subvolume(s)" in notes


def test_fi_show_marks_missing_devices_and_leaves_them_out_of_the_pool() -> None:
    show = btrfs_fi_show(section("linux/btrfs_fi_show_raw_missing_devid_rockstor.txt"))
    gone = [d for d in show.devices if d.missing]
    assert [(d.devid, d.path) for d in gone] == [(1, "MISSING")]
    assert show.missing == ("21345a94-f2bf-48d7-a2be-37734ffd2a48",)
    lines = ("devid    3 size 5368709120 used 0 path /dev/vdb MISSING",)
    row = btrfs_fi_show(Section("btrfs fi show", ("btrfs", "fi", "show"), lines, 1)).devices[0]
    assert (row.path, row.missing) == ("/dev/vdb", True)


def test_fi_show_keeps_a_masked_uuid_apart() -> None:
    show = btrfs_fi_show(section("linux/btrfs_fi_show_4dev_uuid_redacted_systeminformation883.txt"))
    assert {d.uuid for d in show.devices} == {"<REDACTED>"}


def test_subvolume_list_table() -> None:
    # The first rows of `btrfs sub l -o -p -t` in https://github.com/btrfs/linux/issues/486
    lines = (
        "ID      gen     parent  top level       path",
        "--      ---     ------  ---------       ----",
        "2914    17596   1988    1988            backup/rig/home/197/snapshot",
        "2924    17596   1988    1988            backup/rig/etc/168/snapshot",
    )
    argv = ("btrfs", "sub", "l", "-o", "-p", "-t", "/mnt/hdd/backup/rig/home/")
    listed = btrfs_subvolume_list(Section(" ".join(argv), argv, lines, 1))
    assert [(s.id, s.path) for s in listed.subvolumes] == [
        (2914, "backup/rig/home/197/snapshot"),
        (2924, "backup/rig/etc/168/snapshot"),
    ]


def test_bare_swapon_prints_the_show_table() -> None:
    parser = find(("swapon",))
    assert parser is not None and parser.name == "linux_swap"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        (
            "linux/btrfs_fi_show_raw_missing_devid_rockstor.txt",
            "btrfs pool test-pool-new-kernel is missing a device: devid 1",
        ),
        (
            "linux/btrfs_fi_show_raw_3fs_some_missing_rockstor.txt",
            "btrfs pool rock-pool is missing a device: `*** Some devices missing`, /dev/vda, "
            "/dev/vdc still there",
        ),
    ],
)
def test_a_degraded_pool_is_said_in_a_note(name: str, said: str) -> None:
    notes = draft(transcript(name)).notes
    assert [n for n in notes if "is missing a device" in n] == [
        f"line 1: {said} (`btrfs fi show --raw`)"
    ]


def test_a_whole_pool_gives_no_missing_device_note() -> None:
    notes = draft(transcript("linux/btrfs_fi_show_3dev_utillinux4145.txt")).notes
    assert not any("is missing a device" in n for n in notes)
