"""Rules linux.readahead and linux.scheduler: the block devices behind SAS data and WORK.

Read-ahead belongs to the device a file system is mounted from: the kernel reads ahead "for
filesystems on this block device" (kernel-sysfs-block, queue/read_ahead_kb), so on an md or
LVM RAID 0 it is the md or dm device's, never its members' (rules.derive.storage_layers).
Where the inventory names that device (md0, dm-3) the tuned profile carries it; where it
does not (several disks and no md/dm name, or an LVM name whose dm-N the kernel numbers at
boot), linux_tuning.sh finds it from the mount (its major:minor) and keeps it with a udev
rule. The I/O scheduler stays on the members: md and dm devices queue no requests of their
own.

Sources: tuned's disk plugin and throughput-performance (tuned-profiles: `readahead=>4096`,
KiB, '>' meaning "at least"; `elevator` writes /sys/block/DEV/queue/scheduler, one name);
SAS tuned child profiles (sas-linux-community, unconfirmed: readahead 16384 KB on data
devices); the scheduler preferences follow tuned's own profiles (mq-deadline for SAS and
SATA disks, none for NVMe: profiles of Spectrum Scale ECE and SAP HANA) and saptune's
ordered IO_SCHEDULER list, checked against what the kernel offers.
"""

from __future__ import annotations

from rules.catalog.linux.common import ON_LINUX, PARENT_READAHEAD_KB, SAS_ROLES, tune
from rules.derive.linux import linux_release
from rules.derive.storage_layers import (
    layered_unnamed,
    lvm_volume,
    members,
    upper_device,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import LINUX_SCRIPT, TUNED, Rule, rule
from rules.payloads import Directories, LinuxTunable

READAHEAD_PATH = "/sys/block/{dev}/queue/read_ahead_kb"
SCHEDULER_PATH = "/sys/block/{dev}/queue/scheduler"
# sas-linux-community (unconfirmed): 16 MiB read-ahead on the devices SAS streams from.
SAS_READAHEAD_KB = 16384
# Blk-mq names from RHEL 8 (kernel 4.18); RHEL 7's single-queue kernel calls it deadline.
HDD_PREFERENCE = ("mq-deadline", "deadline", "none")
FLASH_PREFERENCE = ("none", "mq-deadline", "noop")
RHEL7_HDD_PREFERENCE = ("deadline", "mq-deadline", "noop")
MAX_DEVICES_PER_LINE = 64
# Hosts whose kernel names of disks may change from one boot to the next: NVMe namespaces
# (the controllers are numbered as they are probed) and cloud volumes (aws-ebs-nvme: "the
# device names ... may be assigned in a different order" at boot; unconfirmed here).
CLOUDS = ("aws", "azure", "gcp", "oci")
# Every NVMe namespace, as tuned's devices= (fnmatch), /sys/block/ and udev's KERNEL== read
# it: for a setting that is the same for all of them (the scheduler none).
NVME_GLOB = "nvme*"


def _local(inv: Inventory) -> list[Storage]:
    """SAS storage this host's block devices serve: not a shared or cluster file system."""
    return [s for s in inv.by_role(*SAS_ROLES) if s.shared_kind is None]


def _local_devices(inv: Inventory, note: str = "") -> str | None:
    """Applicability of a block-device rule: not where every SAS entry is on a shared file
    system, whose devices are its server's or cluster's (linux.shared_storage)."""
    reason = ON_LINUX(inv)
    if reason is not None:
        return reason
    entries = inv.by_role(*SAS_ROLES)
    if entries and not _local(inv):
        kinds = ", ".join(sorted({e.shared_kind or "" for e in entries}))
        return (
            f"every SAS storage entry is on a shared file system ({kinds}): its block devices "
            f"are its server's or cluster's, not this host's{note}"
        )
    return None


def _readahead_applies(inv: Inventory) -> str | None:
    return _local_devices(inv, " (an NFS mount's read-ahead is linux.nfs_readahead's)")


def _with_devices(inv: Inventory, out: Emitter, what: str) -> list[Storage]:
    entries = [s for s in _local(inv) if s.devices]
    if not entries:
        missing = _local(inv)
        field = f"{missing[0].path}.devices" if missing else "storage"
        out.skip(field, f"{what} is set per block device: no SAS storage entry names its devices")
    return entries


def unstable_names(inv: Inventory, entry: Storage) -> bool:
    """The entry's disks may take other kernel names at the next boot: NVMe, or a cloud."""
    nvme = any(d.startswith("nvme") for d in entry.devices)
    return nvme or inv.server.virtual in CLOUDS


def _readahead_targets(inv: Inventory) -> tuple[dict[str, list[Storage]], list[Storage]]:
    """Per device the tuned profile can name, the entries on it; and the entries whose
    device only the mount can tell (an md or LVM layer the inventory does not name)."""
    named: dict[str, list[Storage]] = {}
    by_mount: list[Storage] = []
    for entry in inv.by_role(*SAS_ROLES):
        if entry.shared_kind is not None:
            continue  # NFS read-ahead is linux.nfs_readahead's; a cluster's is its own
        upper = upper_device(entry)
        if upper is not None:
            named.setdefault(upper, []).append(entry)
        elif layered_unnamed(entry) or unstable_names(inv, entry):
            by_mount.append(entry)
        else:
            for device in entry.devices:
                named.setdefault(device, []).append(entry)
    return named, by_mount


READAHEAD_WHY = (
    "SAS streams its data sets sequentially, and the SAS child profiles raise "
    f"throughput-performance's >{PARENT_READAHEAD_KB} to this on data devices; '>' keeps a "
    "larger value already set. The kernel default is 128 KB. The kernel reads ahead for a "
    "file system with the read-ahead of the device it is mounted from (sysfs-block, "
    "read_ahead_kb), so an md or LVM RAID 0 takes it on the md or dm device, not on its "
    "member disks, which need none. This value rests on community SAS profiles only: "
    "unconfirmed."
)


def _layered(entry: Storage) -> bool:
    """An md or LVM layer stands between the file system and its disks."""
    return upper_device(entry) is not None or layered_unnamed(entry)


def _layer_note(entries: list[Storage]) -> str:
    """The members of a layer, which keep their read-ahead; plain disks have no layer above
    them and take the read-ahead themselves, so they are not named here."""
    under = [f"{e.mount} ({', '.join(members(e))})" for e in entries if _layered(e) and members(e)]
    return f" Members left alone: {'; '.join(under)}." if under else ""


@rule(
    id="linux.readahead",
    title="Read-ahead of 16 MiB on the device each SAS file system is mounted from",
    sources=("tuned-profiles", "sas-linux-community", "kernel-sysfs-block", "aws-ebs-nvme"),
    settings=((TUNED, "readahead"), (LINUX_SCRIPT, "read_ahead_kb:mount")),
    applies=_readahead_applies,
    inputs=(
        "storage[].devices",
        "storage[].role",
        "storage[].name",
        "storage[].filesystem",
        "storage[].volume",
        "storage[].volume_kind",
        "server.virtual",
    ),
)
def readahead(inv: Inventory, out: Emitter) -> None:
    """SAS reads its data sets sequentially, in BUFSIZE pages, start to end."""
    named, by_mount = _readahead_targets(inv)
    if not named and not by_mount:
        _with_devices(inv, out, "read-ahead")
        return
    devices = tuple(named)[:MAX_DEVICES_PER_LINE]
    if devices:
        entries = list(dict.fromkeys(e for d in devices for e in named[d]))
        mounts = ", ".join(e.mount for e in entries)
        tune(
            out, LinuxTunable("disk", "readahead", READAHEAD_PATH, devices=devices,
                              default="128"),
            f">{SAS_READAHEAD_KB}", setting="readahead",
            rationale=f"At least {SAS_READAHEAD_KB} KB read-ahead on {', '.join(devices)} "
            f"(behind {mounts}): {READAHEAD_WHY}{_layer_note(entries)}",
            evidence="tuned profiles/throughput-performance/tuned.conf [disk] readahead=>4096",
        )  # fmt: skip
    if by_mount:
        _by_mount(out, by_mount)


def _why_by_mount(entries: list[Storage]) -> str:
    """Why the tuned profile cannot name these mounts' devices."""
    lvm = [f"{e.mount} on {lvm_volume(e)}" for e in entries if lvm_volume(e)]
    layered = [e for e in entries if not lvm_volume(e) and layered_unnamed(e)]
    other = [e.mount for e in layered]
    unstable = [f"{e.mount} ({', '.join(e.devices)})" for e in entries if not _layered(e)]
    parts = []
    if lvm:
        parts.append(
            f"For {'; '.join(lvm)}, the Volume field names the LVM volume the file system is "
            "mounted from: that is the layer, but the kernel numbers its dm-N at boot."
        )
    if other:
        parts.append(
            f"For {', '.join(other)} the inventory names no md, dm or LVM device (an md0 or "
            "dm-3 among its Devices, or a Volume)."
        )
    if unstable:
        parts.append(
            f"The disks of {'; '.join(unstable)} are NVMe or cloud volumes, whose kernel names "
            "can come in another order at the next boot (Amazon EBS and NVMe, aws-ebs-nvme: "
            "unconfirmed here), so no name is pinned: the device is found from the mount each "
            "run, and the udev rule matches it by its WWID, not its kernel name."
        )
    return " ".join(parts)


def _by_mount(out: Emitter, entries: list[Storage]) -> None:
    mounts = tuple(e.mount for e in entries)
    out.set(
        LINUX_SCRIPT, "read_ahead_kb:mount", f">{SAS_READAHEAD_KB}", kind="change",
        rationale=f"At least {SAS_READAHEAD_KB} KB read-ahead on the device each of "
        f"{', '.join(mounts)} is mounted from: {READAHEAD_WHY}{_layer_note(entries)} "
        f"{_why_by_mount(entries)} So the tuned profile cannot name the device: "
        "linux_tuning.sh finds each mount's device from its major:minor, sets "
        "/sys/class/bdi/MAJOR:MINOR/read_ahead_kb and keeps it at boot with a udev rule "
        "matching that device by a name that lasts (an LVM volume by its device-mapper name, a "
        "disk by its WWID).",
        evidence="Documentation/ABI/stable/sysfs-block (queue/read_ahead_kb)",
        payload=Directories(mounts),
    )  # fmt: skip


NVME_NOTE = (
    f" {NVME_GLOB} is every NVMe namespace, not one kernel name: NVMe names can come in "
    "another order at the next boot (Amazon EBS and NVMe, aws-ebs-nvme: unconfirmed here), and "
    "none suits them all, EBS volumes on Nitro included (an EBS volume is an NVMe device there)."
)


def _preference(inv: Inventory, flash: bool) -> tuple[str, ...]:
    if flash:
        return FLASH_PREFERENCE
    release = linux_release(inv)
    return RHEL7_HDD_PREFERENCE if release.kernel_at_least((4, 18)) is False else HDD_PREFERENCE


@rule(
    id="linux.scheduler",
    title="I/O scheduler per device: deadline for disks and array LUNs, none for flash",
    sources=("tuned-profiles", "aws-ebs-nvme"),
    settings=((TUNED, "elevator:flash"), (TUNED, "elevator:disk")),
    applies=_local_devices,
    inputs=(
        "storage[].devices",
        "storage[].media",
        "storage[].san",
        "server.kernel",
        "storage[].shared",
        "storage[].filesystem",
        "server.virtual",
    ),
)
def scheduler(inv: Inventory, out: Emitter) -> None:
    """Deadline keeps large sequential SAS streams from starving; flash needs no reordering."""
    entries = _with_devices(inv, out, "the I/O scheduler")
    flash_of: dict[str, bool] = {}  # a device listed twice takes its first entry's media
    for entry in entries:  # local ones only: a shared file system's disks are not this host's
        for device in members(entry):  # an md or dm device queues nothing of its own
            if device.startswith("nvme") and unstable_names(inv, entry):
                flash_of.setdefault(NVME_GLOB, True)  # an NVMe name may change at boot
            else:
                flash_of.setdefault(device, entry.media == "nvme")
    groups = {
        flash: tuple(d for d, f in flash_of.items() if f is flash)[:MAX_DEVICES_PER_LINE]
        for flash in (True, False)
    }
    for flash, devices in groups.items():
        if not devices:
            continue
        order = _preference(inv, flash)
        what = "NVMe devices" if flash else "disks and array LUNs"
        tune(
            out, LinuxTunable("disk", "elevator", SCHEDULER_PATH, devices=devices,
                              alternatives=order[1:]),
            order[0], setting="elevator:flash" if flash else "elevator:disk",
            rationale=f"{order[0]} for the {what} {', '.join(devices)}, then "
            f"{' or '.join(order[1:])} where the kernel does not offer it (linux_tuning.sh "
            "reads /sys/block/DEV/queue/scheduler first and says which it used). "
            + ("NVMe queues need no reordering: tuned's Spectrum Scale and SAP HANA profiles "
               "use none." + (NVME_NOTE if NVME_GLOB in devices else "") if flash else
               "Deadline bounds how long a read waits behind large sequential SAS writes; "
               "tuned's Spectrum Scale profile sets mq-deadline on sd* devices."),
            evidence="tuned profiles/spectrumscale-ece/tuned.conf [disk-sas] elevator="
            "mq-deadline, [disk-nvme] elevator=none",
        )  # fmt: skip


RULES: tuple[Rule, ...] = (readahead, scheduler)
