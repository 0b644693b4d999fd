"""Linux md RAID from Intel RST firmware (IMSM): the volume md126 lives in the container
md127 (`super external:/md127/0` in /proc/mdstat, `Container : /dev/md/imsm0` in
`mdadm -D`), and lsblk lists md126 and its partitions under each member disk, md127 as an
empty `md` there too. A file system on md126 (or a partition of it) is on its member
disks at its RAID level; the container is never storage nor a disk. Real pastes: Arch
notes of a two-SSD RAID 0 laptop, archinstall issue #1667 (RAID 5 of three disks), a
linux-raid mail (RAID 5, no prompts).
"""

from __future__ import annotations

from rules.parse import draft, parse_text
from tests.rules.parse.pastes import paste

RAID0 = "imsm_raid0_two_ssd_arch_notes.txt"
RAID5 = "imsm_raid5_three_disks_archinstall_1667.txt"
MAIL = "imsm_raid5_no_prompt_linux_raid_list.txt"


def _storage(name: str) -> dict[str, dict]:
    return {s["mount"]: s for s in draft(paste(name)).document["storage"]}


def test_a_partition_of_an_imsm_raid0_volume_is_on_both_disks_at_raid0() -> None:
    storage = _storage(RAID0)
    assert set(storage) == {"/", "/boot"}
    root = storage["/"]
    assert (root["devices"], root["disks"], root["raid"], root["stripe_kb"]) == (
        ["sda", "sdb"], 2, "0", 128,
    )  # fmt: skip


def test_mdadm_dash_d_is_read_as_mdadm_detail() -> None:
    details = {f.value.name: f.value for f in parse_text(paste(RAID0)).all("mdadm_detail")}
    volume = details["md126"]
    assert (volume.level, volume.members, volume.chunk_kb) == ("raid0", ("sda", "sdb"), 128)
    assert details["imsm0"].level == "container"


def test_mdstat_printed_from_root_is_read_by_its_content() -> None:
    """`sudo cat proc/mdstat` (typed from /): /proc/mdstat by its lines."""
    parsed = parse_text(paste(RAID0))
    arrays = {a.name: a for a in parsed.first("mdstat").value}
    assert arrays["md126"].level == "raid0"
    assert arrays["md127"].state == "inactive"


def test_a_device_lsblk_lists_under_each_disk_is_one_file_system_without_a_note() -> None:
    notes = draft(paste(RAID0)).notes
    assert not any("also at" in n for n in notes)


def test_lsblk_s_raid5_type_gives_the_level_without_mdstat() -> None:
    """The live ISO's loop0 (no FSTYPE column) is no storage, as df's /dev/loop rows."""
    storage = _storage(RAID5)
    assert set(storage) == {"/mnt/archinstall", "/mnt/archinstall/boot"}
    for mount in ("/mnt/archinstall", "/mnt/archinstall/boot"):
        entry = storage[mount]
        assert (entry["devices"], entry["disks"], entry["raid"]) == (
            ["sda", "sdb", "sdc"], 3, "5",
        )  # fmt: skip


def test_the_container_is_neither_storage_nor_a_disk() -> None:
    for name in (RAID0, RAID5):
        for entry in draft(paste(name)).document["storage"]:
            assert "md127" not in entry.get("devices", [])
            assert entry["name"] != "md127"


def test_the_container_in_mdstat_is_inactive_with_no_level() -> None:
    arrays = {a.name: a for a in parse_text(paste(MAIL)).first("mdstat").value}
    assert (arrays["md127"].state, arrays["md127"].level) == ("inactive", None)
    assert arrays["md126"].members == ("sda", "sde", "sdd")
