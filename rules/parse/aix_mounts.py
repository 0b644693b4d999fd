"""AIX file systems as each command names them, for the storage entries of aix_storage.

`mount` is the whole truth when pasted. Without it the file systems come from what else
names a mount point: lsfs (what /etc/filesystems configures), `lsvg -l` and `lslv` (each LV
with its type and mount point), `lspv -l hdiskN` (the LVs on a disk and their mount
points), the `LV:mount point` line of `lslv -l LV`, and df, which prints no type. The most
telling source of a mount point wins. NFS file systems are kept with their `host:/path`:
mount prints node and path apart, lsfs the node in its own column, df `host:/path` as the
Filesystem.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.parse import Found, Parsed
from rules.parse.builder import Builder

LOCAL_FS = ("jfs2", "jfs")
NFS = ("nfs", "nfs3", "nfs4")
# An NFS export as df and mount print it: node:/path (the node a host name or address).
_REMOTE = re.compile(r"[A-Za-z0-9][A-Za-z0-9.-]{0,253}:/\S{0,1024}")


@dataclass(frozen=True)
class FsSource:
    """One file system as some command names it."""

    mount: str
    device: str  # /dev/lv_web1, or node:/path for NFS
    fstype: str | None  # None where the command prints no type (df, lspv -l, lslv -l)
    found: Found

    @property
    def nfs(self) -> bool:
        if self.fstype is not None:
            return self.fstype in NFS
        return bool(_REMOTE.fullmatch(self.device))

    @property
    def kept(self) -> bool:
        """A file system SAS can live on: a local JFS2/JFS one, or NFS."""
        if self.nfs:
            return True
        return self.device.startswith("/dev/") and self.fstype in (None, *LOCAL_FS)


def _from_mount(found: Found) -> list[FsSource]:
    return [FsSource(r.target, r.source or "", r.fstype or "", found) for r in found.value]


def _from_lsfs(parsed: Parsed) -> list[FsSource]:
    out = []
    for f in parsed.all("aix_lsfs"):
        for r in f.value.rows:
            remote = r.nodename and r.vfs in NFS and not r.device.startswith("/dev/")
            out.append(FsSource(r.mount, f"{r.nodename}:{r.device}" if remote else r.device,
                                r.vfs, f))  # fmt: skip
    return out


def _from_lvs(parsed: Parsed) -> list[FsSource]:
    """lsvg -l's rows, lslv's MOUNT POINT, lspv -l's rows and lslv -l's heading."""
    rows = [(lv.name, lv.mount_point, lv.type, f)
            for f in parsed.all("aix_lsvg_lvs") for lv in f.value.lvs]  # fmt: skip
    rows += [(f.value.name, f.value.mount_point, f.value.type, f) for f in parsed.all("aix_lslv")]
    rows += [(r.lv, r.mount_point, None, f)
             for f in parsed.all("aix_lspv_lvs") for r in f.value.lvs]  # fmt: skip
    rows += [(f.value.lv, f.value.mount_point, None, f) for f in parsed.all("aix_lslv_pvs")]
    return [FsSource(mount, f"/dev/{lv}", kind, f) for lv, mount, kind, f in rows if lv and mount]


def _from_df(parsed: Parsed) -> list[FsSource]:
    return [FsSource(r.mount, r.filesystem, None, f) for f in parsed.all("df") for r in f.value]


def file_systems(parsed: Parsed, b: Builder) -> list[FsSource]:
    """Every file system named, by mount point, the most telling command first."""
    found = parsed.first("mount")
    if found is not None:
        return _from_mount(found)
    listed = _from_lsfs(parsed) + _from_lvs(parsed) + _from_df(parsed)
    if not listed:
        b.notes.append("no mount, lsfs, lsvg -l, lslv, lspv -l or df output: no file systems read")
        return []
    used = sorted({f"`{s.found.section.command}`" for s in listed})
    b.notes.append(f"no `mount` output: file systems read from {', '.join(used)}")
    by_mount: dict[str, FsSource] = {}
    for source in listed:
        by_mount.setdefault(source.mount, source)
    return list(by_mount.values())
