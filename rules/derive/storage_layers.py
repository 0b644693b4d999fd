"""What lies between a SAS mount and its disks: a shared or cluster file system whose disks
the host cannot see, or (Linux) an md or device-mapper device the file system is mounted
from, with the member disks beneath it.

A shared file system (NFS, Spectrum Scale/GPFS, Lustre, CIFS) is served over the network:
its RAID, stripe and disks belong to the server or the cluster, so no local-file-system or
RAID advice applies from the client side. The contract records it in `storage[].shared`,
or, where that is not given, as an "nfs" or "gpfs" `storage[].filesystem`
(`Storage.shared_kind`).

A Linux file system on a RAID 0 of several disks sits on an md device (mdN) or a
device-mapper device (dm-N: LVM, multipath): read-ahead is a property of that device's
queue, "for filesystems on this block device" (Documentation/ABI/stable/sysfs-block,
read_ahead_kb), so it is set there, not on the members. The device is `storage[].volume`
when that is a kernel name, else found among `storage[].devices` or as `storage[].name`
(md0, md127, dm-3).
"""

from __future__ import annotations

import re

from rules.inventory import Storage

# Kernel names of the devices a file system is mounted from above its disks: md RAID
# (md0, md127) and device-mapper (dm-3: LVM, multipath, crypt).
UPPER_DEVICE = re.compile(r"md[0-9]{1,4}|dm-[0-9]{1,4}")
# An LVM logical volume by its name, vg/lv (lvm(8): "VG/LV"); its dm-N is numbered at boot.
LVM_NAME = re.compile(r"[A-Za-z0-9+_.][A-Za-z0-9+_.-]*/[A-Za-z0-9+_.][A-Za-z0-9+_.-]*")


def upper_device(entry: Storage) -> str | None:
    """The md or dm device the file system is mounted from, where the inventory names it."""
    if entry.volume and UPPER_DEVICE.fullmatch(entry.volume):
        return entry.volume
    for name in (*entry.devices, entry.name):
        if UPPER_DEVICE.fullmatch(name):
            return name
    return None


def lvm_volume(entry: Storage) -> str | None:
    """The LVM logical volume (vg/lv) the file system is mounted from, where storage[].volume
    names it: the layer itself, whose dm device only the mount tells."""
    volume = entry.volume
    if not volume or UPPER_DEVICE.fullmatch(volume):
        return None
    return volume if entry.volume_kind == "lvm" or LVM_NAME.fullmatch(volume) else None


def members(entry: Storage) -> tuple[str, ...]:
    """The devices listed beneath the file system's own device."""
    upper = upper_device(entry)
    return tuple(d for d in entry.devices if d != upper)


def layered_unnamed(entry: Storage) -> bool:
    """A volume layer whose kernel device the inventory does not name: several disks behind
    one file system and none of them the device it is mounted from, or a volume given by
    its LVM name (vg/lv), whose dm-N the kernel numbers at boot."""
    if upper_device(entry) is not None:
        return False
    return len(entry.devices) > 1 or bool(entry.volume)


def nested_in(inner: Storage, outer: Storage) -> bool:
    """inner's mount point lies below outer's (/sasdata/saswork below /sasdata)."""
    if inner.mount == outer.mount or outer.mount == "/":
        return False
    return inner.mount.startswith(outer.mount.rstrip("/") + "/")


def same_disks(a: Storage, b: Storage) -> bool:
    """Two entries on the same LUN or disks: a device in common, or one name."""
    return a.name == b.name or bool(set(a.devices) & set(b.devices))


def work_on_data_disks(
    work: tuple[Storage, ...], data: tuple[Storage, ...]
) -> list[tuple[Storage, Storage]]:
    """(WORK entry, data entry) pairs on the same disks: WORK is then a directory of the
    data file system (nested mount path) or another file system on its LUN, and the disks
    are one set, to be counted once."""
    return [(w, d) for w in work for d in data if same_disks(w, d)]
