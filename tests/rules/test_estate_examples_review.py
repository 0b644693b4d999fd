"""Findings from the review of the estate examples (examples/linux-192core-4tb.json,
aws-i4i-rhel9-sas94m8.json, sasgrid-gpfs-rhel8.json, windows2022-refs-sas94m8.json).

Read-ahead: the kernel reads ahead "for filesystems on this block device" (kernel
Documentation/ABI/stable/sysfs-block, queue/read_ahead_kb): an LVM volume (vg/lv) is the
device-mapper device the file system is mounted from, the layer itself, whose dm-N the kernel
numbers at boot; lvm(8) names a logical volume VG/LV.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return doc


def recs(result: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [r for r in result["recommendations"] if r["rule"] == rule]


def test_lvm_volume_not_recognised() -> None:
    """/sasdata on linux-192core-4tb is mounted from vg_sas/lv_data (storage[].volume, kind
    lvm): the rationale names that volume as the layer, found from the mount because its dm-N
    is numbered at boot, and never says the inventory names no volume for it."""
    result = rules.advise(example("linux-192core-4tb"))
    (by_mount,) = [r for r in recs(result, "linux.readahead") if r["target"] == "linux_tuning.sh"]
    text = by_mount["rationale"]
    assert "/sasdata on vg_sas/lv_data" in text
    assert "the Volume field names the LVM volume" in text
    assert "names no md" not in text
    assert "Members left alone: /sasdata (sdb, sdc, sdd, sde)" in text


def test_readahead_members_left_alone_only_under_a_layer() -> None:
    """sasgrid-gpfs-rhel8 with /sasutil on a plain disk (sdf) beside the md RAID 0 of
    /saswork: the same rule sets sdf's read-ahead, so only /saswork's members are "left
    alone" (sysfs-block: read-ahead is the mounted device's)."""
    doc = example("sasgrid-gpfs-rhel8")
    util = next(s for s in doc["storage"] if s["mount"] == "/sasutil")
    util.update(devices=["sdf"], media="ssd")
    result = rules.advise(doc)
    (tuned,) = [r for r in recs(result, "linux.readahead") if r["target"] == "tuned.conf"]
    assert "sdf" in tuned["extra"]["devices"].split()
    assert "Members left alone: /saswork (nvme0n1, nvme1n1)." in tuned["rationale"]
    assert "(sdf)" not in tuned["rationale"]


def test_unstable_nvme_names_on_aws() -> None:
    """aws-i4i-rhel9-sas94m8: EC2 may give NVMe devices other names at the next boot (Amazon
    EBS and NVMe, https://docs.aws.amazon.com/ebs/latest/userguide/nvme-ebs-volumes.html,
    source aws-ebs-nvme, unconfirmed): no per-device setting names nvme1n1, nvme2n1 or
    nvme3n1 at boot. Read-ahead is found from each mount at run time (kept by WWID); the
    scheduler is none on every NVMe namespace, the EBS data volume included."""
    result = rules.advise(example("aws-i4i-rhel9-sas94m8"))
    art = result["artifacts"]
    pinned = ("nvme1n1", "nvme2n1", "nvme3n1")
    for name in ("tuned.conf", "ansible_linux.yml"):
        body = [ln for ln in art[name].splitlines() if not ln.lstrip().startswith("#")]
        assert not [ln for ln in body if any(d in ln for d in pinned)], name
    script = art["linux_tuning.sh"]
    udev = script.split("udev_rules() {", 1)[1].split("\n}", 1)[0]
    assert not any(d in udev for d in pinned)
    assert 'KERNEL=="nvme*", ATTR{queue/scheduler}="none"' in udev
    for mount in ("/saswork", "/sasutil", "/sasdata"):
        assert f"mount_item '{mount}' '16384'" in script
    (elevator,) = recs(result, "linux.scheduler")
    assert elevator["value"] == "none" and elevator["extra"]["devices"] == "nvme*"
    assert "aws-ebs-nvme" in elevator["sources"] and "unconfirmed" in elevator["rationale"]
    (by_mount,) = recs(result, "linux.readahead")
    assert "WWID" in by_mount["rationale"] and "aws-ebs-nvme" in by_mount["rationale"]


def test_bufsize_on_spectrum_scale() -> None:
    """sasgrid-gpfs-rhel8: /gpfs/sasdata is GPFS with no max_transfer_kb but a 4096 KB block
    size (storage[].gpfs_block_size_kb): io.bufsize takes the block size as the transfer unit
    (IBM Storage Scale block size, ibm-scale-blocksize, unconfirmed), capped at the 256K
    bartucca2005 measured (l.486, l.495), instead of skipping."""
    result = rules.advise(example("sasgrid-gpfs-rhel8"))
    (page,) = recs(result, "io.bufsize")
    assert page["value"] == "256K"
    assert "GPFS) block size of sasdata 4096 KB" in page["rationale"]
    assert "ibm-scale-blocksize" in page["sources"] and "unconfirmed" in page["rationale"]
    assert not [s for s in result.get("skipped", []) if s.get("rule") == "io.bufsize"]


def test_posix_path_on_windows() -> None:
    """windows2022-refs-sas94m8: the MP CONNECT example (pohl2007 Table 3) names its data
    library with a Windows path, not '/path/to/data'."""
    result = rules.advise(example("windows2022-refs-sas94m8"))
    (pipe,) = [r for r in result["recommendations"] if r["setting"] == "SASESOCK piping"]
    assert "libname savedata 'D:\\path\\to\\data';" in pipe["extra"]["example"]
    assert "/path/to/data" not in pipe["extra"]["example"]
    assert "/path/to/data" not in result["artifacts"]["sasv9_append.cfg"]


def test_windows_header_windows_10_0() -> None:
    """Windows Server 2016 to 2025 all report version 10.0 (Microsoft Learn, Windows Server
    release information): the header names server.os_release_name where it is given
    (windows2022-refs-sas94m8: "Windows Server 2022"), else says what 10.0 stands for."""
    result = rules.advise(example("windows2022-refs-sas94m8"))
    cfg = result["artifacts"]["sasv9_append.cfg"]
    assert "/* Server: winsas22, Windows Server 2022, 64 CPUs" in cfg
    assert "Windows 10.0" not in cfg
    doc = example("windows2022-refs-sas94m8")
    del doc["server"]["os_release_name"]
    cfg = rules.advise(doc)["artifacts"]["sasv9_append.cfg"]
    assert "Windows 10.0 (Server 2016-2025)" in cfg
