"""Read-ahead on the device a SAS file system is mounted from, not on the members of its md or
LVM RAID 0.

Source: the kernel's Documentation/ABI/stable/sysfs-block, queue/read_ahead_kb: "maximum
number of kilobytes to read-ahead for filesystems on this block device" — the device the file
system is mounted from (md0, dm-3), whose read-ahead the kernel uses for the file system's
reads; its members' read-ahead plays no part in them. The 16 MiB value is the SAS child
profiles' (sas-linux-community, unconfirmed).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import rules
from tests.conftest import example
from tests.rules.linux_script import FakeLinux

MOUNTPOINT_STUB = """#!/bin/sh
# mountpoint -d MOUNT: the fake host's major:minor of each SAS mount
case $2 in
  /saswork) echo 9:127 ;;
  /sasdata) echo 253:2 ;;
  *) exit 1 ;;
esac
"""


def md_work(devices: list[str]) -> dict[str, Any]:
    doc = example("linux-rhel9-sas94")
    doc["storage"][0]["devices"] = devices
    return doc


def readahead(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in result["recommendations"] if r["rule"] == "linux.readahead"]


def test_read_ahead_on_the_members_of_an_md_raid0() -> None:
    """/saswork is an md RAID 0 over nvme0n1 and nvme1n1: read-ahead goes on md0, which the
    file system is mounted from; the members are left alone."""
    result = rules.advise(md_work(["md0", "nvme0n1", "nvme1n1"]))
    (tuned,) = [r for r in readahead(result) if r["target"] == "tuned.conf"]
    assert tuned["extra"]["devices"].split()[0] == "md0"
    assert "nvme0n1" not in tuned["extra"]["devices"].split()
    assert "Members left alone: /saswork (nvme0n1, nvme1n1)" in tuned["rationale"]
    assert "kernel-sysfs-block" in tuned["sources"]
    profile = result["artifacts"]["tuned.conf"]
    assert "devices=md0" in profile
    elevators = [r for r in result["recommendations"] if r["rule"] == "linux.scheduler"]
    assert all("md0" not in r["extra"]["devices"].split() for r in elevators)


def test_read_ahead_found_from_the_mount_when_the_layer_is_unnamed(tmp_path: Path) -> None:
    """The example lists only the members (nvme0n1, nvme1n1 under /saswork; four LUNs under
    /sasdata): the script finds each mount's device from its major:minor, sets it and keeps
    it with a udev rule by the device-mapper name or the md kernel name."""
    result = rules.advise(example("linux-rhel9-sas94"))
    (by_mount,) = [r for r in readahead(result) if r["target"] == "linux_tuning.sh"]
    assert by_mount["extra"]["directories"] == "/saswork /sasdata"
    assert by_mount["value"] == ">16384"
    script = tmp_path / "linux_tuning.sh"
    script.write_text(result["artifacts"]["linux_tuning.sh"])
    fake = FakeLinux(tmp_path / "fake", tuned=False)
    (fake.bin / "mountpoint").write_text(MOUNTPOINT_STUB)
    (fake.bin / "mountpoint").chmod(0o755)
    fake.write("sys/class/bdi/9:127/read_ahead_kb", "1024")
    fake.write("sys/class/bdi/253:2/read_ahead_kb", "128")
    fake.write("sys/devices/virtual/block/dm-2/dm/name", "vg_sas-lv_data")
    fake.write("sys/devices/virtual/block/md127/md/level", "raid0")
    (fake.root / "sys/dev/block").mkdir(parents=True)
    (fake.root / "sys/dev/block/253:2").symlink_to(fake.root / "sys/devices/virtual/block/dm-2")
    (fake.root / "sys/dev/block/9:127").symlink_to(fake.root / "sys/devices/virtual/block/md127")
    before = fake.snapshot()
    done = fake.run(script)
    assert done.returncode == 0, done.stdout + done.stderr
    assert fake.value("sys/class/bdi/9:127/read_ahead_kb") == "16384"
    assert fake.value("sys/class/bdi/253:2/read_ahead_kb") == "16384"
    assert fake.value("sys/block/nvme0n1/queue/read_ahead_kb") == "128"  # a member
    kept = (fake.root / "etc/udev/rules.d/99-sas-readahead.rules").read_text()
    assert 'ENV{DM_NAME}=="vg_sas-lv_data", ATTR{queue/read_ahead_kb}="16384"' in kept
    assert 'KERNEL=="md127", ATTR{queue/read_ahead_kb}="16384"' in kept
    undone = fake.rollback()
    assert undone.returncode == 0, undone.stderr
    assert fake.snapshot() == before
