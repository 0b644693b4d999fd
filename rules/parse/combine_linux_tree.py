"""The devices below a Linux file system: lsblk's tree, md arrays, LVM, multipath, NVMe.

lsblk's tree is read from every lsblk in the paste, the fullest first (an `lsblk -d` of
disks alone adds nothing to the whole tree). md arrays come from /proc/mdstat or
`mdadm --detail`, LVM stripes from lvs, multipath maps (the dm device behind a mount,
its paths) from `multipath -ll`; a disk `nvme list` lists, or named nvme*, is solid state.
"""

from __future__ import annotations

from typing import Any

from rules.parse import Found, Parsed

MD_RAID = {"raid0": "0", "raid1": "1", "raid5": "5", "raid6": "6", "raid10": "10"}


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

    def _add(self, r: Any) -> None:
        self.nodes.setdefault(r.name, r)
        if r.kname:
            self.alias.setdefault(r.kname, r.name)
        if r.parent:
            self.parents.setdefault(r.name, []).append(r.parent)

    def _key(self, name: str) -> str | None:
        return name if name in self.nodes else self.alias.get(name)

    def disks(self, source: str) -> tuple[list[str], Found | None]:
        """The whole disks (or multipath LUNs) a device sits on, and what told it."""
        name = source.rstrip("/").rsplit("/", 1)[-1]
        out: list[str] = []
        seen: set[str] = set()
        stack = [self._key(name)]
        while stack:
            key = stack.pop()
            if key is None or key in seen:
                continue
            seen.add(key)
            if self.nodes[key].type in ("disk", "mpath"):
                out.append(key)
            else:
                stack.extend(self._key(p) for p in reversed(self.parents.get(key, [])))
        if out:
            return out, self.found
        if name in self.maps:
            return [name], self.maps[name][1]
        md = self._md(name)
        if md is not None:
            return list(md[0].members), md[1]
        return [], None

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

    def rotational(self, disk: str, queues: dict[str, tuple[dict[str, str], Found]]) -> bool | None:
        if disk in queues and "rotational" in queues[disk][0]:
            return str(queues[disk][0]["rotational"]).strip() == "1"
        node = self.nodes.get(disk)
        return None if node is None else node.rotational

    def layout(self, source: str) -> tuple[str | None, int | None, Found | None]:
        name = source.rstrip("/").rsplit("/", 1)[-1]
        md = self._md(name)
        if md is not None and md[0].level in MD_RAID:
            return MD_RAID[md[0].level], md[0].chunk_kb, md[1]
        for lv in self.lvs.value if self.lvs else ():
            mine = lv.path == source or (lv.vg is not None and dm_name(lv.vg, lv.lv) == name)
            if mine and lv.stripes and lv.stripes > 1:
                return "0", lv.stripe_size_kb, self.lvs
        return None, None, None


def _arrays(found: Found) -> tuple[Any, ...]:
    """mdstat gives every array; mdadm --detail one."""
    return found.value if isinstance(found.value, tuple) else (found.value,)


def queues(parsed: Parsed) -> dict[str, tuple[dict[str, str], Found]]:
    """Each device's /sys/block/X/queue values, over every section that printed some (a
    paste holds one `cat` per device and attribute)."""
    out: dict[str, tuple[dict[str, str], Found]] = {}
    for found in parsed.all("block_queue"):
        for device, attrs in found.value.items():
            held = out.setdefault(device, ({}, found))[0]
            held.update(attrs)
    return out


def dm_name(vg: str, lv: str) -> str:
    """The device-mapper name of an LV: each '-' doubled, then vg-lv (fedora_dhcp129-186,
    root → fedora_dhcp129--186-root)."""
    return f"{vg.replace('-', '--')}-{lv.replace('-', '--')}"
