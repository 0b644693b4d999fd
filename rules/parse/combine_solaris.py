"""Solaris facts → the server and its file systems.

The server: on-line virtual processors from `psrinfo -v` (or plain `psrinfo`), else all of
them from `psrinfo -pv`, else prtdiag's CPU table; cores and threads per core from
`psrinfo -pv` (virtual processors / cores); memory from prtconf's or prtdiag's "Memory
size". The file systems: a mount table (`mount -v` gives each one's type; plain `mount`
does not), else `df -k`, else `zfs list`: ZFS datasets (pool/fs), UFS and VxFS on devices,
and /tmp on swap (tmpfs, where SAS WORK often lives on Solaris); a df of a few file systems
only (`df -h /u01`) names no others, so `zfs list` gives them beside it. Sizes from df (a
zone's data set shows 0 kbytes: its used + avail), `zfs list` or `zpool list`, a ZFS file
system's pool layout and record size from `zpool status` and `zfs get recordsize`
(combine_solaris_zfs). The release from `uname -a` or /etc/release, else asked. Swap
(`swap -l`/`-s`) has no place in the contract: its size is named in a note, and `swap -s`
sizes /tmp where df did not.
"""

from __future__ import annotations

import re
from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_linux_fs import df_table
from rules.parse.combine_solaris_zfs import ZfsFacts, zfs_facts, zfs_layout, zfs_rows, zfs_size
from rules.parse.combine_storage import (
    common_fields,
    measured,
    printable,
    storage_name,
    swap_note,
    usable_mount,
    within_reach,
)
from rules.parse.duplicates import filtered
from rules.parse.wiring import reads

KIB_PER_GIB = 1024**2
SOLARIS_FILESYSTEMS = {"zfs": "zfs", "ufs": "ufs", "vxfs": "vxfs", "tmpfs": "other"}
# df sources that are never a disk's file system (zone and kernel pseudo file systems).
PSEUDO_SOURCES = frozenset((
    "proc", "ctfs", "mnttab", "objfs", "fd", "sharefs", "bootfs", "/devices", "/dev",
    "-hosts", "auto_home", "lofs", "dev",
))  # fmt: skip
# File systems only Solaris and illumos mount (contracts, kernel objects, mnttab, shares).
SOLARIS_ONLY = frozenset(("ctfs", "objfs", "mntfs", "mnttab", "sharefs"))
# Device names of the Solaris shape: c1t0d0, c0t5000C500A612DA93d0s0, c0d1.
_CTD = re.compile(r"c[0-9]{1,4}(?:t[0-9A-Fa-f]{1,40})?d[0-9]{1,4}(?:s[0-9]{1,2})?")
Row = tuple[str, str, str | None, Found]
ASK_RELEASE = "no `uname -a` or `cat /etc/release` was read: give the Solaris release (11.4)"


@reads("psrinfo", "psrinfo_virtual", "prtdiag", "prtconf")
def solaris_server(parsed: Parsed, b: Builder) -> None:
    """CPUs, cores, threads per core and memory of a Solaris server."""
    if "server.os_version" not in b.provenance:
        b.needs("server.os_version", ASK_RELEASE)
    _cpus(parsed, b)
    psr = max(parsed.all("psrinfo"), key=lambda f: f.value.cores is not None, default=None)
    if psr is not None and psr.value.cores:
        b.put("server.cores", psr.value.cores, psr)
        if psr.value.virtual_processors and psr.value.virtual_processors % psr.value.cores == 0:
            threads = psr.value.virtual_processors // psr.value.cores
            b.put("server.smt_threads", threads, psr, note="virtual processors / cores")
    memory = [f for f in parsed.all("prtconf") if getattr(f.value, "memory_mb", None)]
    memory += [f for f in parsed.all("prtdiag") if getattr(f.value, "memory_mb", None)]
    if memory:
        mb = memory[0].value.memory_mb
        b.put("server.ram_gb", round(mb / 1024, 2), memory[0], raw=f"Memory size: {mb} MB")
    else:
        b.guess("server.ram_gb", 1, "neither prtconf nor prtdiag was read")


def _cpus(parsed: Parsed, b: Builder) -> None:
    """On-line virtual processors: psrinfo -v states each; psrinfo -pv counts them all."""
    virtual = next((f for f in parsed.all("psrinfo_virtual") if f.value.online), None)
    physical = next((f for f in parsed.all("psrinfo") if f.value.virtual_processors), None)
    diag = next((f for f in parsed.all("prtdiag") if f.value.cpus_online), None)
    if virtual is not None:
        total = virtual.value.virtual_processors
        b.put("server.cpus", virtual.value.online, virtual,
              note=f"on-line virtual processors ({total} in all)")  # fmt: skip
    elif physical is not None:
        b.put("server.cpus", physical.value.virtual_processors, physical,
              note="virtual processors")  # fmt: skip
    elif diag is not None:
        b.put("server.cpus", diag.value.cpus_online, diag, note="prtdiag's CPU table")
    else:
        b.guess("server.cpus", 1, "no psrinfo or prtdiag CPU table was read")


def _rows(parsed: Parsed, facts: ZfsFacts, b: Builder) -> list[Row]:
    """(mount point, source, type or None, found) of the file systems on storage."""
    tables = list(parsed.all("mount"))
    if tables:
        best = max(tables, key=lambda f: len(f.value))
        return [
            (r.target, r.source, r.fstype, best)
            for r in best.value
            if r.fstype is None or r.fstype in SOLARIS_FILESYSTEMS
        ]
    df: list[Row] = [
        (mount, str(row.filesystem), None, found)
        for mount, (row, found) in df_table(parsed).items()
        if row.filesystem not in PSEUDO_SOURCES and row.size_kb is not None
    ]
    whole = any(not filtered(f.section) for f in parsed.all("df"))
    if df and whole:
        return df
    zfs: list[Row] = [(mount, name, fs, found) for mount, name, fs, found in zfs_rows(facts, b)]
    if df and zfs:  # `df -h /u01` names one file system; `zfs list` names them all
        return _joined(df, zfs, b)
    return df or zfs


def _joined(df: list[Row], zfs: list[Row], b: Builder) -> list[Row]:
    """`zfs list`'s file systems, and those only a df of a few file systems names."""
    listed = {row[0] for row in zfs}
    extra = [row for row in df if row[0] not in listed]
    commands = sorted({f"`{printable(row[3].section.command)}`" for row in df})
    b.notes.append(
        f"file systems from `{printable(zfs[0][3].section.command)}` (line "
        f"{zfs[0][3].section.line}): {', '.join(commands)} shows only the file systems it "
        "names, whose sizes are taken from it"
    )
    return zfs + extra


def _usable(mount: str, source: str, fstype: str | None) -> bool:
    if source == "swap" or fstype == "tmpfs":
        return mount == "/tmp"  # /etc/svc/volatile, /var/run: the system's own
    if fstype is None:  # plain `mount` or df: a dataset, a device, or a zone's root
        return "/" in source and not source.startswith(("/devices", "/proc", "/usr/lib"))
    return True


@reads("mount", "df", "zfs_list", "zfs_get", "zpool_status", "zpool_list", "swap")
def solaris_storage(parsed: Parsed, b: Builder) -> None:
    """One storage entry a file system, from `mount -v`, `mount`, `df -k` or `zfs list`."""
    facts = zfs_facts(parsed)
    rows = [r for r in _rows(parsed, facts, b) if _usable(r[0], r[1], r[2])]
    _swap_note(parsed, b)
    if not rows:
        b.notes.append("no mount -v, mount, df -k or zfs list output: no file systems read")
        return
    kept = within_reach([r for r in rows if usable_mount(r[0], b)], b, lambda r: r[0])
    df = df_table(parsed)
    for i, (mount, source, fstype, found) in enumerate(kept):
        at = f"storage[{i}]"
        b.put(f"{at}.name", storage_name(source, i), found, raw=source)
        b.put(f"{at}.mount", mount, found)
        zfs = _filesystem(b, at, source, fstype, found) == "zfs"
        if not _df_size(b, at, df.get(mount)) and not _other_size(parsed, facts, b, at, source):
            b.guess(f"{at}.size_gb", 1, "no size was read for this file system (df -k)")
        common_fields(b, i, role_from=mount)
        if zfs:
            zfs_layout(facts, b, at, source)
        else:
            b.guess(f"{at}.disks", 1, "the disks behind it were not read")
            b.guess(f"{at}.media", "hdd", "the disks behind it were not read")
            b.guess(f"{at}.raid", "jbod", "the volume's layout was not read")
    measured(parsed, b)


def _filesystem(b: Builder, at: str, source: str, fstype: str | None, found: Found) -> str:
    if fstype is not None:
        name = SOLARIS_FILESYSTEMS.get(fstype, "other")
        b.put(f"{at}.filesystem", name, found, raw=fstype)
    elif source == "swap":
        name = "other"
        b.put(f"{at}.filesystem", name, found, raw=source, note="tmpfs on swap")
    elif not source.startswith("/"):
        name = "zfs"
        b.put(f"{at}.filesystem", name, found, raw=source, note="a ZFS dataset (pool/name)")
    else:
        name = "ufs"
        b.guess(f"{at}.filesystem", name, "df does not say the file system's type")
    return name


def _df_size(b: Builder, at: str, held: tuple[Any, Found] | None) -> bool:
    if held is None:
        return False
    row, found = held
    if row.size_kb:
        kb = row.size_kb
        b.put(f"{at}.size_gb", round(kb / KIB_PER_GIB, 2), found, raw=f"{kb} KB")
        return True
    if row.size_kb == 0 and row.used_kb is not None and row.free_kb:
        kb = row.used_kb + row.free_kb  # a zone's delegated data set: kbytes 0
        raw = f"kbytes 0, used {row.used_kb} + avail {row.free_kb} KB"
        note = "used + avail of the same row: df in a zone prints 0 kbytes for a data set"
        b.put(f"{at}.size_gb", round(kb / KIB_PER_GIB, 2), found, raw=raw, note=note)
        return True
    return False


def _other_size(parsed: Parsed, facts: ZfsFacts, b: Builder, at: str, source: str) -> bool:
    """Without df: a data set's from zfs list or zpool list, /tmp's from swap -s."""
    if source == "swap":
        held = next((f for f in parsed.all("swap") if f.value.view == "s"), None)
        if held is None:
            return False
        kb = held.value.swap_free_kb
        note = "tmpfs on swap: the virtual swap available (swap -s)"
        b.put(f"{at}.size_gb", round(kb / KIB_PER_GIB, 2), held, raw=f"{kb}k", note=note)
        return True
    return not source.startswith("/") and zfs_size(facts, b, at, source)


def _swap_note(parsed: Parsed, b: Builder) -> None:
    """Swap has no field in the contract; what was read is said."""
    for found in parsed.all("swap"):
        swap = found.value
        if swap.system != "solaris":
            continue
        gb = round(swap.swap_total_kb / KIB_PER_GIB, 2)
        what = (
            f"{len(swap.devices)} swap device(s), {gb} GB"
            if swap.view == "l"
            else f"virtual swap {gb} GB (used + available)"
        )
        swap_note(b, found, what)


@reads("swap", "mount", "df", "zpool_status", "zpool_list", "zfs_list", "zfs_get")
def solaris_evidence(parsed: Parsed) -> list[tuple[Found, bool, str]]:
    """(found, strong, why) for each section whose shape only Solaris (or illumos) prints:
    swap's tables, a mount table with Solaris' options or pseudo file systems, df of
    ctfs/objfs/mnttab, zpool status of c#t#d# disks. ZFS listings are weak evidence (OpenZFS
    prints the same on Linux and FreeBSD)."""
    out = [(f, True, "swap's Solaris tables") for f in parsed.all("swap")
           if f.value.system == "solaris"]  # fmt: skip
    for found in parsed.all("mount"):
        if any(_solaris_mount(r) for r in found.value):
            out.append((found, True, "a mount table of Solaris' shape"))
    for found in parsed.all("df"):
        if any(r.filesystem in SOLARIS_ONLY for r in found.value):
            out.append((found, True, "df of Solaris' ctfs/objfs/mnttab"))
    for found in parsed.all("zpool_status"):
        disks = [d for p in found.value for v in p.vdevs for d in v.devices]
        strong = bool(disks) and all(_CTD.fullmatch(d) for d in disks)
        out.append((found, strong, "zpool status of c#t#d# disks" if strong else "zpool status"))
    for name in ("zpool_list", "zfs_list", "zfs_get"):
        out += [(f, False, f"`{name}` output (ZFS)") for f in parsed.all(name)]
    return out


def _solaris_mount(row: Any) -> bool:
    if row.fstype in SOLARIS_ONLY or row.source in SOLARIS_ONLY:
        return True
    options = set(row.options)
    return {"read", "write"} <= options or ("setuid" in options and any(
        o.startswith("dev=") for o in options))  # fmt: skip
