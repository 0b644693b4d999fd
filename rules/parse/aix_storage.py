"""AIX facts → storage entries: the file systems, the LVs under them, their disks.

The file systems are read in rules.parse.aix_mounts (mount, else lsfs, lsvg -l, lslv,
lspv -l, lslv -l and df). An entry is a JFS2/JFS (or, from a command that prints no type,
any /dev) file system, or an NFS mount; rootvg's are kept as Linux's root file system is.
Its size is df's, else lsfs's configured size, else the LV's PPs. lslv gives the stripe
width and size; the disks under an LV come from `lslv -l LV`, else from the `lspv -l
hdiskN` listings that name it, else from its volume group when that has one disk (lsvg -p,
lspv, lspv hdiskN) or as many disks as `lsvg -l`'s PVs column says the LV spans; where the
disks are not named, that PVs count is the number of disks. A mount point whose LV `lsvg
-l` shows closed is left out (with a note) unless mount or df shows it mounted. Each
disk's max_transfer is `lsattr -El hdiskN`'s, else lspv hdiskN's MAX REQUEST; lspath and
lsdev say whether the disks are Fibre Channel LUNs. An NFS mount has no disk of its own
here: its layout and media are the server's.
"""

from __future__ import annotations

from typing import Any

from rules.parse import Found, Parsed
from rules.parse.aix_mounts import NFS, FsSource, file_systems
from rules.parse.builder import Builder
from rules.parse.combine_storage import (
    FILESYSTEMS,
    NFS_REASON,
    common_fields,
    safe_devices,
    storage_name,
    usable_mount,
    within_reach,
)
from rules.parse.wiring import reads

FC_ADAPTERS = ("fscsi", "fcs", "vfc")
DF_FS_GUESS = "jfs2"  # what a /dev file system on AIX is, unless it is GPFS or Veritas
AIX_FILESYSTEMS = {**FILESYSTEMS, **dict.fromkeys(NFS, "nfs")}


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
        self.rows = {lv.name: (lv, f) for f in parsed.all("aix_lsvg_lvs") for lv in f.value.lvs}
        self.vg_of = {name: row.vg for name, (row, _) in self.rows.items()}
        self.lslv = {f.value.name: f for f in parsed.all("aix_lslv") if f.value.name}
        self.vg_of.update({n: f.value.vg for n, f in self.lslv.items() if f.value.vg})
        self.pvs = {f.value.lv: f for f in parsed.all("aix_lslv_pvs") if f.value.lv}
        self.on_disks = parsed.all("aix_lspv_lvs")
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
        listed = [(f.value.disks_of(lv), f) for f in self.on_disks if f.value.disks_of(lv)]
        if listed:
            disks = list(dict.fromkeys(d for names, _ in listed for d in names))
            return disks, listed[0][1], "disks whose lspv -l lists the LV"
        vg = self.vg_of.get(lv)
        disks, found = self.vg_disks.get(vg or "", ([], None))
        if vg and len(disks) == 1:
            return disks, found, f"the only disk of {vg}"
        if vg and disks and self.spans(lv) == len(disks):
            return disks, found, f"`lsvg -l`: the LV spans {len(disks)} PVs, as many as {vg} has"
        return [], None, f"{vg} has {len(disks)} disks" if vg and disks else ""

    def spans(self, lv: str) -> int | None:
        """The PVs `lsvg -l` says the LV spans (None where no row gives it)."""
        row = self.rows.get(lv)
        return row[0].pvs if row is not None and row[0].pvs else None

    def closed(self) -> dict[str, tuple[str, Found]]:
        """Mount point → (LV, lsvg -l section) of each LV whose state is closed."""
        return {row.mount_point: (name, f) for name, (row, f) in self.rows.items()
                if row.mount_point and row.state.startswith("closed")}  # fmt: skip

    def adapters(self, disks: list[str]) -> tuple[list[str], Found | None]:
        """The parents of the disks' paths (fscsi0 …) and an lspath section that lists them."""
        rows = [(row.parent, f) for d in disks for row, f in self.paths.get(d, ())]
        return list(dict.fromkeys(parent for parent, _ in rows)), rows[0][1] if rows else None


@reads(
    "mount", "df", "aix_lsfs", "aix_lsvg_lvs", "aix_lsvg_pvs", "aix_lspv", "aix_lspv_disk",
    "aix_lslv", "aix_lslv_pvs", "aix_lspv_lvs", "aix_lsattr_disk", "aix_lspath",
    "aix_lsdev_disk",
)  # fmt: skip
def aix_storage(parsed: Parsed, b: Builder) -> None:
    lvm = _Lvm(parsed)
    sources = [s for s in file_systems(parsed, b) if s.kept and usable_mount(s.mount, b)]
    sources = _mounted(parsed, b, sources, lvm)
    for i, source in enumerate(within_reach(sources, b, lambda s: s.mount)):
        _entry(parsed, b, i, source, lvm)


def _mounted(parsed: Parsed, b: Builder, sources: list[FsSource], lvm: _Lvm) -> list[FsSource]:
    """The sources but those whose LV `lsvg -l` shows closed, unless mount or df lists them:
    a closed LV's mount point is configured, not mounted, and holds nothing SAS reads."""
    if parsed.first("mount") is not None:
        return sources  # the mount table already says what is mounted
    closed = lvm.closed()
    shown = {r.mount for f in parsed.all("df") for r in f.value}
    kept = []
    for source in sources:
        if source.mount in closed and source.mount not in shown:
            lv, found = closed[source.mount]
            b.notes.append(f"{source.mount} (LV {lv}, `{found.section.command}`): "
                           "closed: not mounted, left out")  # fmt: skip
        else:
            kept.append(source)
    return kept


def _entry(parsed: Parsed, b: Builder, i: int, source: FsSource, lvm: _Lvm) -> None:
    at, lv, found = f"storage[{i}]", storage_name(source.device, i), source.found
    b.put(f"{at}.name", lv, found, raw=source.device)
    b.put(f"{at}.mount", source.mount, found)
    _filesystem(b, at, source)
    common_fields(b, i, role_from=source.mount)
    _size(parsed, b, at, source.mount, lvm.lslv.get(lv))
    if source.nfs:
        for field, value in (("raid", "jbod"), ("disks", 1), ("media", "hdd")):
            b.guess(f"{at}.{field}", value, NFS_REASON)
        return
    _layout(b, at, lvm.lslv.get(lv))
    names, where, how = lvm.disks_of(lv)
    disks = safe_devices(names, b)
    if not disks or where is None:
        _disk_count(b, at, lv, how, lvm)
    else:
        b.put(f"{at}.devices", disks, where, note=how)
        b.put(f"{at}.disks", len(disks), where, note=how)
        _disks(b, at, disks, lvm)
    b.guess(f"{at}.media", "hdd", "AIX does not say what is behind an hdisk")


def _disk_count(b: Builder, at: str, lv: str, how: str, lvm: _Lvm) -> None:
    """The disks' count where their names are not known: `lsvg -l`'s PVs, else a guess."""
    spans = lvm.spans(lv)
    if spans is not None:
        found = lvm.rows[lv][1]
        why = f"; {how}" if how else ""
        b.put(f"{at}.disks", spans, found, raw=f"PVs {spans}",
              note=f"the PVs `lsvg -l` says {lv} spans{why}")  # fmt: skip
        return
    why = f"; {how}" if how else ""
    b.guess(f"{at}.disks", 1, f"`lslv -l {lv}` was not read{why}")


def _filesystem(b: Builder, at: str, source: FsSource) -> None:
    if source.fstype:
        kind = AIX_FILESYSTEMS.get(source.fstype, "other")
        b.put(f"{at}.filesystem", kind, source.found, raw=source.fstype)
    elif source.nfs:
        b.put(f"{at}.filesystem", "nfs", source.found, raw=source.device,
              note="an NFS export (node:/path)")  # fmt: skip
    else:
        why = f"`{source.found.section.command}` does not print the type; lsfs or mount does"
        b.guess(f"{at}.filesystem", DF_FS_GUESS, why)


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
