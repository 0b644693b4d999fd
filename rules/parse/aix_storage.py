"""AIX facts → storage entries: the file systems, the LVs under them, their disks.

The file systems come from `mount`; without it, from `lsfs` (what /etc/filesystems
configures), else `lsvg -l` (each LV's mount point and type), and df adds what neither
names (AIX df prints no type: JFS2 is then a guess). An entry is a JFS2/JFS (or, from df,
any /dev) file system; rootvg's are kept as Linux's root file system is. Its size is df's,
else lsfs's configured size, else the LV's PPs. lslv gives the stripe width and size; the
disks under an LV come from `lslv -l LV`, else from its volume group when that has one disk
(lsvg -p, lspv, lspv hdiskN). Each disk's max_transfer is `lsattr -El hdiskN`'s, else
lspv hdiskN's MAX REQUEST; lspath and lsdev say whether the disks are Fibre Channel LUNs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import (
    FILESYSTEMS,
    common_fields,
    safe_devices,
    storage_name,
    usable_mount,
)

LOCAL_FS = ("jfs2", "jfs")
FC_ADAPTERS = ("fscsi", "fcs", "vfc")
DF_FS_GUESS = "jfs2"  # what a /dev file system on AIX is, unless it is GPFS or Veritas


@dataclass(frozen=True)
class FsSource:
    """One file system as some command names it."""

    mount: str
    device: str  # /dev/lv_web1
    fstype: str | None  # None: df alone, which prints no type
    found: Found


def _from_mount(found: Found) -> list[FsSource]:
    return [FsSource(r.target, r.source or "", r.fstype or "", found) for r in found.value]


def _from_lsfs(parsed: Parsed) -> list[FsSource]:
    return [FsSource(r.mount, r.device, r.vfs, f)
            for f in parsed.all("aix_lsfs") for r in f.value.rows]  # fmt: skip


def _from_lsvg(parsed: Parsed) -> list[FsSource]:
    rows = [(lv, f) for f in parsed.all("aix_lsvg_lvs") for lv in f.value.lvs]
    return [
        FsSource(lv.mount_point, f"/dev/{lv.name}", lv.type, f) for lv, f in rows if lv.mount_point
    ]


def _from_df(parsed: Parsed) -> list[FsSource]:
    return [FsSource(r.mount, r.filesystem, None, f) for f in parsed.all("df") for r in f.value]


def file_systems(parsed: Parsed, b: Builder) -> list[FsSource]:
    """Every file system named, by mount point, the most telling command first."""
    found = parsed.first("mount")
    if found is not None:
        return _from_mount(found)
    listed = _from_lsfs(parsed) + _from_lsvg(parsed) + _from_df(parsed)
    if not listed:
        b.notes.append("no mount, lsfs, lsvg -l or df output: no file systems read")
        return []
    used = sorted({f"`{s.found.section.command}`" for s in listed})
    b.notes.append(f"no `mount` output: file systems read from {', '.join(used)}")
    by_mount: dict[str, FsSource] = {}
    for source in listed:
        by_mount.setdefault(source.mount, source)
    return list(by_mount.values())


def _kept(source: FsSource) -> bool:
    if not source.device.startswith("/dev/"):
        return False
    return source.fstype is None or source.fstype in LOCAL_FS


def _vg_disks(parsed: Parsed) -> dict[str, tuple[list[str], Found]]:
    """VG → its disks and the first section that lists them (lsvg -p, lspv, lspv hdiskN)."""
    rows = [(row.vg, row.name, f) for f in parsed.all("aix_lsvg_pvs") for row in f.value.pvs]
    rows += [(row.vg, row.name, f) for f in parsed.all("aix_lspv") for row in f.value.pvs]
    rows += [(f.value.vg, f.value.name, f) for f in parsed.all("aix_lspv_disk")]
    out: dict[str, tuple[list[str], Found]] = {}
    for vg, disk, found in rows:
        disks = out.setdefault(vg or "", ([], found))[0]
        if disk and disk not in disks:
            disks.append(disk)
    return out


class _Lvm:
    """Which VG each LV is in, each LV's lslv, the disks under it and their attributes."""

    def __init__(self, parsed: Parsed) -> None:
        self.vg_of = {lv.name: f.value.vg for f in parsed.all("aix_lsvg_lvs") for lv in f.value.lvs}
        self.lslv = {f.value.name: f for f in parsed.all("aix_lslv") if f.value.name}
        self.vg_of.update({n: f.value.vg for n, f in self.lslv.items() if f.value.vg})
        self.pvs = {f.value.lv: f for f in parsed.all("aix_lslv_pvs") if f.value.lv}
        self.disk = {f.value.device: f for f in parsed.all("aix_lsattr_disk") if f.value.device}
        self.pv = {f.value.name: f for f in parsed.all("aix_lspv_disk") if f.value.name}
        self.vg_disks = _vg_disks(parsed)
        self.paths: dict[str, list[tuple[Any, Found]]] = {}
        for f in parsed.all("aix_lspath"):
            for path in f.value.paths:
                self.paths.setdefault(path.device, []).append((path, f))
        self.lsdev = parsed.first("aix_lsdev_disk")
        self.fc_disks = {
            row.name
            for f in parsed.all("aix_lsdev_disk")
            for row in f.value.rows
            if row.fibre_channel
        }

    def disks_of(self, lv: str) -> tuple[list[str], Found | None, str]:
        """The LV's disks, the section that says so and how it was found."""
        pvs = self.pvs.get(lv)
        if pvs is not None:
            return [pv.name for pv in pvs.value.pvs], pvs, "hdisks under the LV"
        vg = self.vg_of.get(lv)
        disks, found = self.vg_disks.get(vg or "", ([], None))
        if vg and len(disks) == 1:
            return disks, found, f"the only disk of {vg}"
        return [], None, f"{vg} has {len(disks)} disks" if vg and disks else ""

    def adapters(self, disks: list[str]) -> tuple[list[str], Found | None]:
        """The parents of the disks' paths (fscsi0 …) and an lspath section that lists them."""
        rows = [(row.parent, f) for d in disks for row, f in self.paths.get(d, ())]
        return list(dict.fromkeys(parent for parent, _ in rows)), rows[0][1] if rows else None


def aix_storage(parsed: Parsed, b: Builder) -> None:
    lvm, i = _Lvm(parsed), 0
    for source in file_systems(parsed, b):
        if _kept(source) and usable_mount(source.mount, b):
            _entry(parsed, b, i, source, lvm)
            i += 1


def _entry(parsed: Parsed, b: Builder, i: int, source: FsSource, lvm: _Lvm) -> None:
    at, lv, found = f"storage[{i}]", storage_name(source.device, i), source.found
    b.put(f"{at}.name", lv, found, raw=source.device)
    b.put(f"{at}.mount", source.mount, found)
    if source.fstype is None:
        b.guess(f"{at}.filesystem", DF_FS_GUESS, "df does not print the type; lsfs or mount does")
    else:
        b.put(f"{at}.filesystem", FILESYSTEMS[source.fstype], found, raw=source.fstype)
    common_fields(b, i, role_from=source.mount)
    _size(parsed, b, at, source.mount, lvm.lslv.get(lv))
    _layout(b, at, lvm.lslv.get(lv))
    names, where, how = lvm.disks_of(lv)
    disks = safe_devices(names, b)
    if not disks or where is None:
        why = f"; {how}" if how else ""
        b.guess(f"{at}.disks", 1, f"`lslv -l {lv}` was not read{why}")
    else:
        b.put(f"{at}.devices", disks, where, note=how)
        b.put(f"{at}.disks", len(disks), where, note=how)
        _disks(b, at, disks, lvm)
    b.guess(f"{at}.media", "hdd", "AIX does not say what is behind an hdisk")


def _size(parsed: Parsed, b: Builder, at: str, mount: str, lslv: Found | None) -> None:
    df = next(((f, r) for f in parsed.all("df") for r in f.value if r.mount == mount), None)
    lsfs = next(((f, r) for f in parsed.all("aix_lsfs") for r in f.value.rows
                 if r.mount == mount and r.size_kb), None)  # fmt: skip
    if df is not None and df[1].size_kb:
        kb = df[1].size_kb
        b.put(f"{at}.size_gb", round(kb / 1024**2, 2), df[0], raw=f"{kb} KB")
    elif lsfs is not None:
        kb = lsfs[1].size_kb
        b.put(f"{at}.size_gb", round(kb / 1024**2, 2), lsfs[0], raw=f"{kb} KB",
              note="the size /etc/filesystems gives")  # fmt: skip
    elif lslv is not None and lslv.value.pps and lslv.value.pp_size_mb:
        copies = lslv.value.copies or 1
        gb = round(lslv.value.pps * lslv.value.pp_size_mb / copies / 1024, 2)
        b.put(f"{at}.size_gb", gb, lslv, note="PPs × PP size / copies")
    else:
        b.guess(f"{at}.size_gb", 1, "no df -k, lsfs or lslv size was read")


def _layout(b: Builder, at: str, lslv: Found | None) -> None:
    if lslv is None:
        b.guess(f"{at}.raid", "jbod", "lslv was not read; an array LUN's RAID is in the array")
        return
    width, copies = lslv.value.stripe_width or 1, lslv.value.copies or 1
    raid = {(True, True): "10", (True, False): "0", (False, True): "1"}.get((width > 1, copies > 1))
    if raid is None:
        b.guess(
            f"{at}.raid", "jbod", "the LV is not striped or mirrored; a LUN's RAID is in the array"
        )
    else:
        b.put(f"{at}.raid", raid, lslv, note=f"stripe width {width}, copies {copies}")
    if lslv.value.stripe_size_kb and width > 1:
        b.put(f"{at}.stripe_kb", lslv.value.stripe_size_kb, lslv, note="STRIPE SIZE")


def _transfer(disk: str, lvm: _Lvm) -> tuple[int, Found, str] | None:
    """A disk's max transfer in KB, where it was read and as printed."""
    attrs = lvm.disk.get(disk)
    if attrs is not None and attrs.value.max_transfer_kb:
        return attrs.value.max_transfer_kb, attrs, attrs.value.max_transfer or ""
    pv = lvm.pv.get(disk)
    if pv is not None and pv.value.max_request_kb:
        return pv.value.max_request_kb, pv, f"MAX REQUEST {pv.value.max_request_kb} kilobytes"
    return None


def _disks(b: Builder, at: str, disks: list[str], lvm: _Lvm) -> None:
    sizes = [t for d in disks if (t := _transfer(d, lvm))]
    if sizes and len(sizes) == len(disks) and 1 <= min(s[0] for s in sizes) <= 1048576:
        kb, low, raw = min(sizes, key=lambda s: s[0])
        b.put(f"{at}.max_transfer_kb", kb, low, raw=raw, note="lowest of " + ", ".join(disks))
    names, paths = lvm.adapters(disks)
    adapters = safe_devices(names, b)
    if adapters and paths is not None:
        b.put(f"{at}.adapters", adapters, paths, note="parents of the disks' paths")
    fc = [d for d in disks if d in lvm.fc_disks]
    if fc and lvm.lsdev is not None:
        b.put(f"{at}.san", True, lvm.lsdev, note="Fibre Channel LUNs: " + ", ".join(fc))
    elif paths is not None and any(a.startswith(FC_ADAPTERS) for a in adapters):
        b.put(f"{at}.san", True, paths, note="reached through Fibre Channel adapters")
