"""Solaris facts → the server and its file systems.

The server: virtual processors (on-line CPUs) and cores from `psrinfo -pv` (threads per
core = virtual processors / cores), memory from prtconf's or prtdiag's "Memory size".
The file systems: a mount table (`mount -v` gives each one's type; plain `mount` does
not), else `df -k`: ZFS datasets (pool/fs), UFS and VxFS on devices, and /tmp on swap
(tmpfs, where SAS WORK often lives on Solaris); sizes from df.
"""

from __future__ import annotations

from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_linux_fs import df_table
from rules.parse.combine_storage import (
    common_fields,
    measured,
    storage_name,
    usable_mount,
)

KIB_PER_GIB = 1024**2
SOLARIS_FILESYSTEMS = {"zfs": "zfs", "ufs": "ufs", "vxfs": "vxfs", "tmpfs": "other"}
# df sources that are never a disk's file system (zone and kernel pseudo file systems).
PSEUDO_SOURCES = frozenset((
    "proc", "ctfs", "mnttab", "objfs", "fd", "sharefs", "bootfs", "/devices", "/dev",
    "-hosts", "auto_home", "lofs", "dev",
))  # fmt: skip


def solaris_server(parsed: Parsed, b: Builder) -> None:
    """CPUs, cores, threads per core and memory of a Solaris server."""
    psr = max(parsed.all("psrinfo"), key=lambda f: f.value.cores is not None, default=None)
    if psr is not None and psr.value.virtual_processors:
        b.put("server.cpus", psr.value.virtual_processors, psr, note="virtual processors")
    else:
        b.guess("server.cpus", 1, "no psrinfo was read")
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


def _rows(parsed: Parsed) -> list[tuple[str, str, str | None, Found]]:
    """(mount point, source, type or None, found) of the file systems on storage."""
    tables = [f for f in parsed.all("mount")]
    if tables:
        best = max(tables, key=lambda f: len(f.value))
        return [
            (r.target, r.source, r.fstype, best)
            for r in best.value
            if r.fstype is None or r.fstype in SOLARIS_FILESYSTEMS
        ]
    return [
        (mount, row.filesystem, None, found)
        for mount, (row, found) in df_table(parsed).items()
        if row.filesystem not in PSEUDO_SOURCES and row.size_kb is not None
    ]


def _usable(mount: str, source: str, fstype: str | None) -> bool:
    if source == "swap" or fstype == "tmpfs":
        return mount == "/tmp"  # /etc/svc/volatile, /var/run: the system's own
    if fstype is None:  # plain `mount` or df: a dataset, a device, or a zone's root
        return "/" in source and not source.startswith(("/devices", "/proc", "/usr/lib"))
    return True


def solaris_storage(parsed: Parsed, b: Builder) -> None:
    """One storage entry a file system, from `mount -v`, `mount` or `df -k`."""
    rows = [r for r in _rows(parsed) if _usable(r[0], r[1], r[2])]
    if not rows:
        b.notes.append("no mount -v, mount or df -k output: no file systems read")
        return
    kept = [r for r in rows if usable_mount(r[0], b)]
    df = df_table(parsed)
    for i, (mount, source, fstype, found) in enumerate(kept):
        at = f"storage[{i}]"
        b.put(f"{at}.name", storage_name(source, i), found, raw=source)
        b.put(f"{at}.mount", mount, found)
        _filesystem(b, at, source, fstype, found)
        _size(b, at, df.get(mount))
        common_fields(b, i, role_from=mount)
        b.guess(f"{at}.disks", 1, "the disks behind it were not read (zpool status)")
        b.guess(f"{at}.media", "hdd", "the disks behind it were not read")
        b.guess(f"{at}.raid", "jbod", "the pool's layout was not read")
    measured(parsed, b)


def _filesystem(b: Builder, at: str, source: str, fstype: str | None, found: Found) -> None:
    if fstype is not None:
        b.put(f"{at}.filesystem", SOLARIS_FILESYSTEMS.get(fstype, "other"), found, raw=fstype)
    elif source == "swap":
        b.put(f"{at}.filesystem", "other", found, raw=source, note="tmpfs on swap")
    elif not source.startswith("/"):
        b.put(f"{at}.filesystem", "zfs", found, raw=source, note="a ZFS dataset (pool/name)")
    else:
        b.guess(f"{at}.filesystem", "ufs", "df does not say the file system's type")


def _size(b: Builder, at: str, held: tuple[Any, Found] | None) -> None:
    if held is not None and held[0].size_kb:
        kb = held[0].size_kb
        b.put(f"{at}.size_gb", round(kb / KIB_PER_GIB, 2), held[1], raw=f"{kb} KB")
    else:
        b.guess(f"{at}.size_gb", 1, "no size was read for this file system (df -k)")
