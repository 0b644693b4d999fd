"""The devices below a Linux file system: lsblk's tree, md arrays, LVM, multipath, NVMe.

lsblk's tree is read from every lsblk in the paste, the fullest first (an `lsblk -d` of
disks alone adds nothing to the whole tree). md arrays come from /proc/mdstat or
`mdadm --detail`, LVM stripes from lvs, multipath maps (the dm device behind a mount,
its paths) from `multipath -ll`; a disk `nvme list` lists, or named nvme*, is solid state.
A partition no lsblk lists is put on its disk by the kernel's name for it (nvme0n1p3 on
nvme0n1), where some reading shows that disk (lsblk -d, md, nvme list, its /sys/block cats).
Each /sys/block/X/queue value keeps the section that printed it, though a paste's many
`cat`s of them are merged into one reading (`rules.parse.duplicates`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from rules.parse import Found, Parsed
from rules.parse.duplicates import source_of

MD_RAID = {"raid0": "0", "raid1": "1", "raid5": "5", "raid6": "6", "raid10": "10"}
QueueValue = tuple[str, Found]  # a /sys/block/X/queue value and the section that printed it
Queues = dict[str, dict[str, QueueValue]]  # device → attribute → value

# The kernel names a partition after its disk (block/partitions/core.c): the disk's name
# and the number, with a "p" between where the disk's name ends in a digit. Whole disks by
# driver: sd (SCSI, SATA, SAS, FC), hd (IDE), vd (virtio), xvd (Xen, EC2), dasd (s390),
# emcpower (PowerPath) end in letters; nvme namespaces (nvme0n1, nvme0c0n1), mmcblk, md
# arrays, loop, nbd, rbd, zd (ZFS zvols) and pmem in digits. dm-N and mapper names are
# never partitions (a partition of a dm device is another dm device).
_PARTITION = re.compile(
    r"(?P<lettered>(?:sd|hd|vd|xvd|dasd|emcpower)[a-z]{1,4})\d{1,3}"
    r"|(?P<numbered>(?:nvme\d{1,4}(?:c\d{1,4})?n\d{1,6}|mmcblk\d{1,4}|md\d{1,4}"
    r"|loop\d{1,6}|nbd\d{1,4}|rbd\d{1,4}|zd\d{1,6}|pmem\d{1,4}))p\d{1,3}"
)
NAME_MAX = 64  # longer than any kernel block device name
MAX_ANCESTORS = 64  # devices looked at below one file system (LV, crypt, partition, md, disks)


def disk_of(name: str) -> str | None:
    """The disk a partition's kernel name puts it on (nvme0n1p3 → nvme0n1, sda1 → sda,
    xvda1 → xvda, mmcblk0p1 → mmcblk0); None for a whole disk or a name that is no
    partition's (dm-0, md0, rhel-root)."""
    found = _PARTITION.fullmatch(name) if len(name) <= NAME_MAX else None
    if found is None:
        return None
    return found.group("lettered") or found.group("numbered")


class BlockTree:
    """A device on several parents (an LV over two disks) is listed once under each."""

    def __init__(self, parsed: Parsed) -> None:
        found = sorted(parsed.all("lsblk"), key=lambda f: len(f.value), reverse=True)
        self.found: Found | None = found[0] if found else None
        self.nodes: dict[str, Any] = {}
        self.alias: dict[str, str] = {}
        self.parents: dict[str, list[str]] = {}
        for section in found:
            fresh = [r for r in section.value if r.name not in self.nodes]
            for r in fresh:
                self._add(r)
        self.md = parsed.all("mdstat") + parsed.all("mdadm_detail")
        self.lvs = parsed.first("lvs")
        self.maps = {m.name: (m, f) for f in parsed.all("multipath") for m in f.value}
        self.nvme = {n.node: f for f in parsed.all("nvme_list") for n in f.value}
        self.queue = queues(parsed)
        self.btrfs = _btrfs_pools(parsed)

    def _add(self, r: Any) -> None:
        self.nodes.setdefault(r.name, r)
        if r.kname:
            self.alias.setdefault(r.kname, r.name)
        if r.parent:
            self.parents.setdefault(r.name, []).append(r.parent)

    def _key(self, name: str) -> str | None:
        return name if name in self.nodes else self.alias.get(name)

    def disks(self, source: str) -> tuple[list[str], Found | None]:
        """The whole disks (or multipath LUNs) a device sits on, and what told it; a
        device of a btrfs file system of several devices sits on all of theirs."""
        name = source.rstrip("/").rsplit("/", 1)[-1]
        pool = self.btrfs.get(name)
        if pool is None:
            return self._disks(name)
        out: list[str] = []
        for member in pool[0]:
            below = self._disks(member)[0] or [disk_of(member) or member]
            out += [d for d in below if d not in out]
        return out, pool[1]

    def _disks(self, name: str) -> tuple[list[str], Found | None]:
        out = self._below(name)
        if out:
            return out, self.found
        if name in self.maps:
            return [name], self.maps[name][1]
        md = self._md(name)
        if md is not None:
            return list(md[0].members), md[1]
        whole = disk_of(name)
        return self._whole(whole) if whole is not None else ([], None)

    def _below(self, name: str) -> list[str]:
        """The whole disks lsblk's tree has below `name`."""
        out: list[str] = []
        seen: set[str] = set()
        stack = [self._key(name)]
        while stack:
            key = stack.pop()
            if key is None or key in seen:
                continue
            seen.add(key)
            node = self.nodes[key]
            if node.type in ("disk", "mpath") or (node.type is None and key not in self.parents):
                out.append(key)  # without a TYPE column (lsblk -f), the tree's roots
            else:
                stack.extend(self._key(p) for p in reversed(self.parents.get(key, [])))
        return out

    def _whole(self, disk: str) -> tuple[list[str], Found | None]:
        """A partition no reading lists, on its disk by name, where a reading shows the disk."""
        out = self._below(disk)
        if out:
            return out, self.found
        md = self._md(disk)  # md126p1 on md126
        if md is not None:
            return list(md[0].members), md[1]
        shown = self.shows(disk)
        return ([disk], shown) if shown is not None else ([], None)

    def shows(self, disk: str) -> Found | None:
        """The reading that names a disk: nvme list, lsblk, btrfs filesystem show, else its
        /sys/block cats (the rotational one first, which says what the disk is)."""
        if disk in self.nvme:
            return self.nvme[disk]
        if self._key(disk) is not None:
            return self.found
        if disk in self.btrfs:
            return self.btrfs[disk][1]
        held = self.queue.get(disk)
        if not held:
            return None
        first = held.get("rotational") or min(held.values(), key=lambda v: v[1].section.line)
        return first[1]

    def _md(self, name: str) -> tuple[Any, Found] | None:
        return next(((a, f) for f in self.md for a in _arrays(f) if a.name == name), None)

    def san(self, disks: list[str]) -> Found | None:
        """What says a disk is a multipath LUN (lsblk's mpath type or multipath -ll)."""
        for disk in disks:
            if disk in self.maps:
                return self.maps[disk][1]
            if disk in self.nodes and self.nodes[disk].type == "mpath":
                return self.found
        return None

    def rotational(self, disk: str) -> tuple[bool, Found] | None:
        """Whether a disk spins, and what said so: its /sys/block cat, else lsblk's ROTA."""
        held = self.queue.get(disk, {}).get("rotational")
        if held is not None and held[0].strip() in ("0", "1"):
            return held[0].strip() == "1", held[1]
        key = self._key(disk)
        node = self.nodes[key] if key is not None else None
        if node is None or node.rotational is None or self.found is None:
            return None
        return node.rotational, self.found

    def layout(self, source: str) -> tuple[str | None, int | None, Found | None]:
        """The RAID level (and stripe) of the md array a device is, or sits on (md126p2
        on md126, an LV on md126p3): /proc/mdstat or mdadm --detail, else lsblk's TYPE
        (raid5); else the stripes of a striped LV."""
        name = source.rstrip("/").rsplit("/", 1)[-1]
        for key in self._ancestors(name):
            md = self._md(key)
            if md is not None and md[0].level in MD_RAID:
                return MD_RAID[md[0].level], md[0].chunk_kb, md[1]
            node = self.nodes.get(self._key(key) or "")
            if node is not None and node.type in MD_RAID and self.found is not None:
                return MD_RAID[node.type], None, self.found
        for lv in self.lvs.value if self.lvs else ():
            mine = lv.path == source or (lv.vg is not None and dm_name(lv.vg, lv.lv) == name)
            if mine and lv.stripes and lv.stripes > 1:
                return "0", lv.stripe_size_kb, self.lvs
        return None, None, None

    def _ancestors(self, name: str) -> list[str]:
        """The device and those below it, nearest first, up to the whole disks: by lsblk's
        tree, and by the kernel's name of a partition (md126p2 on md126)."""
        out: list[str] = []
        queue = [name]
        while queue and len(out) < MAX_ANCESTORS:
            key = queue.pop(0)
            if key in out:
                continue
            out.append(key)
            known = self._key(key)
            queue += self.parents.get(known, []) if known is not None else []
            whole = disk_of(key)
            queue += [whole] if whole is not None else []
        return out


def _arrays(found: Found) -> tuple[Any, ...]:
    """mdstat gives every array; mdadm --detail one."""
    return found.value if isinstance(found.value, tuple) else (found.value,)


def queues(parsed: Parsed) -> Queues:
    """Each device's /sys/block/X/queue values over every section that printed some (a
    paste holds one `cat` per device and attribute), each with the section it came from."""
    out: Queues = {}
    for found in parsed.all("block_queue"):
        for device, attrs in found.value.items():
            held = out.setdefault(device, {})
            for attr, value in attrs.items():
                held[attr] = (str(value), _printer(found, device, attr))
    return out


def _printer(found: Found, device: str, attr: str) -> Found:
    """The reading of the section that printed a merged reading's value (recorded as the
    sections were merged), for its provenance; an unmerged reading is its own."""
    if not found.also:
        return found
    section = source_of(found, device, attr)
    return dataclasses.replace(found, section=section, also=(), origins={})


def dm_name(vg: str, lv: str) -> str:
    """The device-mapper name of an LV: each '-' doubled, then vg-lv (fedora_dhcp129-186,
    root → fedora_dhcp129--186-root)."""
    return f"{vg.replace('-', '--')}-{lv.replace('-', '--')}"


def _btrfs_pools(parsed: Parsed) -> dict[str, tuple[list[str], Found]]:
    """Each device of a btrfs file system of several devices → all its devices' names."""
    pools: dict[str, tuple[list[str], Found]] = {}
    for found in parsed.all("btrfs_fi_show"):
        by_uuid: dict[str, list[str]] = {}
        for device in (d for d in found.value.devices if not d.missing):
            names = by_uuid.setdefault(device.uuid, [])
            name = device.path.rsplit("/", 1)[-1]
            if name not in names:
                names.append(name)
        for names in by_uuid.values():
            for name in names if len(names) > 1 else ():
                pools.setdefault(name, (names, found))
    return pools
