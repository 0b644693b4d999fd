"""Linux facts → server and storage: lscpu, nproc, /proc/meminfo, findmnt, lsblk, sysfs.

Logical CPUs are `nproc` (what SAS can run on); cores and threads per core come from
lscpu; memory is /proc/meminfo's MemTotal. A storage entry is a mounted file system on a
block device (bind mounts and pseudo file systems left out); lsblk walks it down to the
disks behind it; /sys/block/*/queue gives each disk's rotational flag and max_sectors_kb.
"""

from __future__ import annotations

import re
from typing import Any

from rules.kinds import KERNEL, OS_VERSION
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import (
    FILESYSTEMS,
    common_fields,
    safe_devices,
    storage_name,
    usable_mount,
)

MD_RAID = {"raid0": "0", "raid1": "1", "raid5": "5", "raid6": "6", "raid10": "10"}
GIB = 1024**3


def _release(parsed: Parsed, b: Builder) -> None:
    """The distribution's release (RHEL 9.4 → '9.4'), which the contract calls os_version."""
    found = parsed.first("os_release")
    if found is not None and OS_VERSION.accepts(found.value.version_id):
        b.put("server.os_version", found.value.version_id, found, note="VERSION_ID")
        return
    found = parsed.first("redhat_release")
    if found is not None and OS_VERSION.accepts(found.value.version):
        b.put("server.os_version", found.value.version, found)
        return
    b.guess("server.os_version", "1", "no /etc/os-release or /etc/redhat-release was read")


# os-release ID → the contract's distribution (os-release(5); RHEL's rebuilds name their own).
DISTRIBUTIONS = {
    "rhel": "rhel", "ol": "ol", "centos": "centos", "rocky": "rocky", "almalinux": "alma",
    "sles": "sles", "sled": "sles", "opensuse-leap": "sles", "ubuntu": "ubuntu",
    "debian": "debian",
}  # fmt: skip
_KERNEL = re.compile(r"([0-9]{1,4}(?:\.[0-9]{1,6}){1,3})")


def _distribution_and_kernel(parsed: Parsed, b: Builder) -> None:
    found = parsed.first("os_release")
    if found is not None and found.value.id:
        name = DISTRIBUTIONS.get(found.value.id.lower(), "other")
        b.put("server.distribution", name, found, raw=f"ID={found.value.id}")
    uname = parsed.first("uname")
    if uname is not None and uname.value.system == "Linux":
        numbers = _KERNEL.match(uname.value.release)
        if numbers is not None and KERNEL.accepts(numbers.group(1)):
            b.put("server.kernel", numbers.group(1), uname, raw=uname.value.release)


def linux_server(parsed: Parsed, b: Builder) -> None:
    _release(parsed, b)
    _distribution_and_kernel(parsed, b)
    nproc, cpu = parsed.first("nproc"), parsed.first("lscpu")
    if nproc is not None:
        b.put("server.cpus", nproc.value, nproc)
    elif cpu is not None and cpu.value.cpus:
        b.put("server.cpus", cpu.value.cpus, cpu, note="CPU(s)")
    else:
        b.guess("server.cpus", 1, "neither nproc nor lscpu was read")
    if cpu is not None and cpu.value.cores:
        b.put("server.cores", cpu.value.cores, cpu, note="sockets × cores per socket")
    if cpu is not None and cpu.value.threads_per_core:
        b.put("server.smt_threads", cpu.value.threads_per_core, cpu, note="Thread(s) per core")
    mem = parsed.first("meminfo")
    if mem is not None and mem.value.mem_total_kb:
        kb = mem.value.mem_total_kb
        b.put("server.ram_gb", round(kb / 1024**2, 2), mem, raw=f"MemTotal: {kb} kB")
    else:
        b.guess("server.ram_gb", 1, "/proc/meminfo was not read")


def _mounts(parsed: Parsed) -> Found | None:
    return parsed.first("findmnt") or parsed.first("proc_mounts") or parsed.first("mount")


def _candidates(found: Found, b: Builder) -> list[Any]:
    seen: set[str] = set()
    kept = []
    for row in found.value:
        fstype = (row.fstype or "").lower()
        source = row.source or ""
        if fstype not in FILESYSTEMS or not source.startswith("/dev/") or "[" in source:
            continue
        if row.target in seen or not usable_mount(row.target, b):
            continue
        seen.add(row.target)
        kept.append(row)
    return kept


def linux_storage(parsed: Parsed, b: Builder) -> None:
    found = _mounts(parsed)
    if found is None:
        b.notes.append("no findmnt, /proc/mounts or mount output: no file systems read")
        return
    tree = _BlockTree(parsed)
    for i, row in enumerate(_candidates(found, b)):
        _entry(parsed, b, i, row, found, tree)


def _entry(parsed: Parsed, b: Builder, i: int, row: Any, found: Found, tree: _BlockTree) -> None:
    at = f"storage[{i}]"
    b.put(f"{at}.name", storage_name(row.source, i), found, raw=row.source)
    b.put(f"{at}.mount", row.target, found)
    b.put(f"{at}.filesystem", FILESYSTEMS[row.fstype.lower()], found, raw=row.fstype)
    _size(parsed, b, at, row, found)
    common_fields(b, i, role_from=row.target)
    disks = safe_devices(tree.disks(row.source), b)
    _devices(parsed, b, at, disks, tree)
    _layout(b, at, row.source, tree)


def _size(parsed: Parsed, b: Builder, at: str, row: Any, found: Found) -> None:
    if getattr(row, "size_bytes", None):
        b.put(f"{at}.size_gb", round(row.size_bytes / GIB, 2), found, raw=f"{row.size_bytes} B")
        return
    df = parsed.first("df")
    match = next((r for r in (df.value if df else ()) if r.mount == row.target), None)
    if df is not None and match is not None and match.size_kb:
        b.put(f"{at}.size_gb", round(match.size_kb / 1024**2, 2), df, raw=f"{match.size_kb} KB")
    else:
        b.guess(f"{at}.size_gb", 1, "no size was read for this file system")


def _devices(parsed: Parsed, b: Builder, at: str, disks: list[str], tree: _BlockTree) -> None:
    lsblk = tree.found
    if not disks or lsblk is None:
        b.guess(f"{at}.disks", 1, "the devices behind it were not read (lsblk)")
        b.guess(f"{at}.media", "hdd", "the devices behind it were not read (lsblk)")
        return
    b.put(f"{at}.devices", disks, lsblk)
    b.put(f"{at}.disks", len(disks), lsblk, note="disks below it in lsblk")
    if tree.san(disks):
        b.put(f"{at}.san", True, lsblk, note="a multipath or array LUN")
    _media(parsed, b, at, disks, tree)
    _max_transfer(parsed, b, at, disks)


def _media(parsed: Parsed, b: Builder, at: str, disks: list[str], tree: _BlockTree) -> None:
    queue = parsed.first("block_queue")
    flags = [tree.rotational(d, queue) for d in disks]
    if None in flags:
        b.guess(f"{at}.media", "hdd", "whether its disks spin was not read")
        return
    media = "hdd" if any(flags) else "nvme" if all(d.startswith("nvme") for d in disks) else "ssd"
    b.put(f"{at}.media", media, queue or tree.found, note="rotational flag of " + ", ".join(disks))  # type: ignore[arg-type]


def _max_transfer(parsed: Parsed, b: Builder, at: str, disks: list[str]) -> None:
    queue = parsed.first("block_queue")
    if queue is None:
        return
    values = [queue.value.get(d, {}).get("max_sectors_kb") for d in disks]
    numbers = [int(v) for v in values if v and str(v).isdigit()]
    if numbers and len(numbers) == len(disks):
        low = min(numbers)
        if 1 <= low <= 1048576:
            b.put(f"{at}.max_transfer_kb", low, queue, note="max_sectors_kb, lowest of its disks")


def _layout(b: Builder, at: str, source: str, tree: _BlockTree) -> None:
    raid, stripe, found = tree.layout(source)
    if raid is None or found is None:
        b.guess(f"{at}.raid", "jbod", "the host sees no RAID; an array LUN's RAID is in the array")
        return
    b.put(f"{at}.raid", raid, found)
    if stripe:
        b.put(f"{at}.stripe_kb", stripe, found)


class _BlockTree:
    """lsblk's device tree, with md arrays (/proc/mdstat) and LVM stripes (lvs). A device on
    several parents (an LV over two disks) is listed once under each parent."""

    def __init__(self, parsed: Parsed) -> None:
        self.found = parsed.first("lsblk")
        self.nodes: dict[str, Any] = {}
        self.alias: dict[str, str] = {}
        self.parents: dict[str, list[str]] = {}
        for r in self.found.value if self.found else ():
            self.nodes.setdefault(r.name, r)
            if r.kname:
                self.alias.setdefault(r.kname, r.name)
            if r.parent:
                self.parents.setdefault(r.name, []).append(r.parent)
        self.md = parsed.first("mdstat")
        self.lvs = parsed.first("lvs")

    def _key(self, name: str) -> str | None:
        return name if name in self.nodes else self.alias.get(name)

    def disks(self, source: str) -> list[str]:
        """The whole disks (or multipath LUNs) a device sits on, in lsblk order."""
        out: list[str] = []
        seen: set[str] = set()
        stack = [self._key(source.rstrip("/").rsplit("/", 1)[-1])]
        while stack:
            key = stack.pop()
            if key is None or key in seen:
                continue
            seen.add(key)
            if self.nodes[key].type in ("disk", "mpath"):
                out.append(key)
            else:
                stack.extend(self._key(p) for p in reversed(self.parents.get(key, [])))
        return out

    def san(self, disks: list[str]) -> bool:
        return any(self.nodes[d].type == "mpath" for d in disks if d in self.nodes)

    def rotational(self, disk: str, queue: Found | None) -> bool | None:
        if queue is not None and disk in queue.value and "rotational" in queue.value[disk]:
            return str(queue.value[disk]["rotational"]).strip() == "1"
        node = self.nodes.get(disk)
        return None if node is None else node.rotational

    def layout(self, source: str) -> tuple[str | None, int | None, Found | None]:
        name = source.rstrip("/").rsplit("/", 1)[-1]
        for array in self.md.value if self.md else ():
            if array.name == name and array.level in MD_RAID:
                return MD_RAID[array.level], array.chunk_kb, self.md
        for lv in self.lvs.value if self.lvs else ():
            mine = lv.path == source or f"{lv.vg}-{lv.lv}" == name
            if mine and lv.stripes and lv.stripes > 1:
                return "0", lv.stripe_size_kb, self.lvs
        return None, None, None
