"""AIX facts → server and storage: lparstat, smtctl, prtconf, mount, lsvg, lslv, lsattr.

Cores are the partition's online virtual processors (`lparstat -i`, else prtconf's
"Number Of Processors"); a shared-processor LPAR is said to be one, with its entitled
capacity, since its virtual processors may get less than a core each. SMT threads come
from smtctl (else the lparstat Type, "Shared-SMT-4"); logical CPUs are cores × threads.
A storage entry is a mounted JFS2/JFS file system outside rootvg; lslv gives its stripe
width and size and the hdisks under it, `lsattr -El hdiskN` each disk's max_transfer,
and lspath/lsdev whether the disks are Fibre Channel LUNs.
"""

from __future__ import annotations

import re
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

SYSTEM_VG = "rootvg"
# rootvg's own logical volumes keep these names on every AIX install (hd4 /, hd2 /usr,
# hd9var, hd3 /tmp, hd1 /home, hd10opt, hd11admin, livedump): left out even where no
# `lsvg -l rootvg` was read.
SYSTEM_LVS = re.compile(r"hd[0-9]{1,2}[a-z]{0,8}|livedump|lg_dumplv")
FC_ADAPTERS = ("fscsi", "fcs", "vfc")


def _cores(parsed: Parsed, b: Builder) -> int | None:
    lpar = parsed.first("aix_lparstat")
    if lpar is not None and lpar.value.online_virtual_cpus:
        note = "online virtual CPUs"
        if lpar.value.shared:
            note += (
                f"; a shared-processor LPAR entitled to {lpar.value.entitled_capacity} cores"
                f" ({lpar.value.mode or 'mode unknown'})"
            )
        b.put("server.cores", lpar.value.online_virtual_cpus, lpar, note=note)
        return int(lpar.value.online_virtual_cpus)
    conf = parsed.first("prtconf")
    if conf is not None and conf.value.processors:
        b.put("server.cores", conf.value.processors, conf, note="Number Of Processors")
        return int(conf.value.processors)
    return None


def _smt(parsed: Parsed, b: Builder) -> int | None:
    smt = parsed.first("aix_smtctl")
    if smt is not None and (smt.value.threads or smt.value.enabled is False):
        threads = smt.value.threads if smt.value.enabled is not False else 1
        b.put("server.smt_threads", threads, smt)
        return int(threads)
    lpar = parsed.first("aix_lparstat")
    if lpar is not None and lpar.value.smt_threads:
        b.put("server.smt_threads", lpar.value.smt_threads, lpar, raw=lpar.value.type or "")
        return int(lpar.value.smt_threads)
    return None


def _memory(parsed: Parsed, b: Builder) -> None:
    conf, lpar = parsed.first("prtconf"), parsed.first("aix_lparstat")
    sys0 = parsed.first("aix_lsattr_sys0")
    if conf is not None and conf.value.memory_mb:
        b.put("server.ram_gb", round(conf.value.memory_mb / 1024, 2), conf, note="Memory Size")
    elif lpar is not None and lpar.value.online_memory_mb:
        b.put("server.ram_gb", round(lpar.value.online_memory_mb / 1024, 2), lpar)
    elif sys0 is not None and sys0.value.realmem_kb:
        b.put("server.ram_gb", round(sys0.value.realmem_kb / 1024**2, 2), sys0, note="realmem")
    else:
        b.guess("server.ram_gb", 1, "no prtconf, lparstat -i or lsattr -El sys0 was read")


def aix_server(parsed: Parsed, b: Builder) -> None:
    level = parsed.first("aix_oslevel")
    if level is not None:
        b.put("server.os_version", level.value.release, level, raw=level.value.text)
    cores, threads = _cores(parsed, b), _smt(parsed, b)
    if cores is not None:
        found = parsed.first("aix_smtctl") or parsed.first("aix_lparstat")
        assert found is not None
        b.put("server.cpus", cores * (threads or 1), found, note="cores × SMT threads")
    else:
        b.guess("server.cpus", 1, "no lparstat -i, prtconf or smtctl was read")
    _memory(parsed, b)


class _Lvm:
    """Which VG each LV is in, each LV's lslv, the disks under it and their attributes."""

    def __init__(self, parsed: Parsed) -> None:
        self.vg_of = {lv.name: f.value.vg for f in parsed.all("aix_lsvg_lvs") for lv in f.value.lvs}
        self.lslv = {f.value.name: f for f in parsed.all("aix_lslv") if f.value.name}
        self.pvs = {f.value.lv: f for f in parsed.all("aix_lslv_pvs") if f.value.lv}
        self.disk = {f.value.device: f for f in parsed.all("aix_lsattr_disk") if f.value.device}
        self.paths: dict[str, list[tuple[Any, Found]]] = {}
        for f in parsed.all("aix_lspath"):
            for row in f.value.paths:
                self.paths.setdefault(row.device, []).append((row, f))
        self.lsdev = parsed.first("aix_lsdev_disk")
        self.fc_disks = {
            row.name
            for f in parsed.all("aix_lsdev_disk")
            for row in f.value.rows
            if row.fibre_channel
        }

    def adapters(self, disks: list[str]) -> tuple[list[str], Found | None]:
        """The parents of the disks' paths (fscsi0 …) and an lspath section that lists them."""
        rows = [(row.parent, f) for d in disks for row, f in self.paths.get(d, ())]
        return list(dict.fromkeys(parent for parent, _ in rows)), rows[0][1] if rows else None


def aix_storage(parsed: Parsed, b: Builder) -> None:
    found = parsed.first("mount")
    if found is None:
        b.notes.append("no `mount` output: no file systems read")
        return
    lvm, i = _Lvm(parsed), 0
    for row in found.value:
        lv = storage_name(row.source or "", 0)
        if (row.fstype or "") not in ("jfs2", "jfs") or not (row.source or "").startswith("/dev/"):
            continue
        if lvm.vg_of.get(lv) == SYSTEM_VG or SYSTEM_LVS.fullmatch(lv):
            b.notes.append(f"left out {row.target}: in {SYSTEM_VG}")
            continue
        if usable_mount(row.target, b):
            _entry(parsed, b, i, row, found, lvm)
            i += 1


def _entry(parsed: Parsed, b: Builder, i: int, row: Any, found: Found, lvm: _Lvm) -> None:
    at, lv = f"storage[{i}]", storage_name(row.source, i)
    b.put(f"{at}.name", lv, found, raw=row.source)
    b.put(f"{at}.mount", row.target, found)
    b.put(f"{at}.filesystem", FILESYSTEMS[row.fstype], found, raw=row.fstype)
    common_fields(b, i, role_from=row.target)
    _size(parsed, b, at, row.target, lvm.lslv.get(lv))
    _layout(b, at, lvm.lslv.get(lv))
    pvs = lvm.pvs.get(lv)
    disks = safe_devices([pv.name for pv in pvs.value.pvs], b) if pvs else []
    if not disks or pvs is None:
        b.guess(f"{at}.disks", 1, f"`lslv -l {lv}` was not read")
    else:
        b.put(f"{at}.devices", disks, pvs)
        b.put(f"{at}.disks", len(disks), pvs, note="hdisks under the LV")
        _disks(b, at, disks, lvm)
    b.guess(f"{at}.media", "hdd", "AIX does not say what is behind an hdisk")


def _size(parsed: Parsed, b: Builder, at: str, mount: str, lslv: Found | None) -> None:
    df = parsed.first("df")
    match = next((r for r in (df.value if df else ()) if r.mount == mount), None)
    if df is not None and match is not None and match.size_kb:
        b.put(f"{at}.size_gb", round(match.size_kb / 1024**2, 2), df, raw=f"{match.size_kb} KB")
    elif lslv is not None and lslv.value.pps and lslv.value.pp_size_mb:
        copies = lslv.value.copies or 1
        gb = round(lslv.value.pps * lslv.value.pp_size_mb / copies / 1024, 2)
        b.put(f"{at}.size_gb", gb, lslv, note="PPs × PP size / copies")
    else:
        b.guess(f"{at}.size_gb", 1, "no df -k or lslv size was read")


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


def _disks(b: Builder, at: str, disks: list[str], lvm: _Lvm) -> None:
    attrs = [lvm.disk[d] for d in disks if d in lvm.disk]
    sizes = [f.value.max_transfer_kb for f in attrs if f.value.max_transfer_kb]
    if sizes and len(sizes) == len(disks) and 1 <= min(sizes) <= 1048576:
        low = min(attrs, key=lambda f: f.value.max_transfer_kb)
        b.put(f"{at}.max_transfer_kb", min(sizes), low, raw=low.value.max_transfer or "",
              note="lowest of " + ", ".join(disks))  # fmt: skip
    names, paths = lvm.adapters(disks)
    adapters = safe_devices(names, b)
    if adapters and paths is not None:
        b.put(f"{at}.adapters", adapters, paths, note="parents of the disks' paths")
    fc = [d for d in disks if d in lvm.fc_disks]
    if fc and lvm.lsdev is not None:
        b.put(f"{at}.san", True, lvm.lsdev, note="Fibre Channel LUNs: " + ", ".join(fc))
    elif paths is not None and any(a.startswith(FC_ADAPTERS) for a in adapters):
        b.put(f"{at}.san", True, paths, note="reached through Fibre Channel adapters")
