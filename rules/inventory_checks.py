"""The contract's checks across fields: unique mounts, paths that fit the OS, a Linux
distribution on Linux only, a workload mix that sums to one, and each later field where it
belongs (a Windows Server release on Windows, NFS settings on NFS mounts, a maintenance
release its SAS version had …). Each returns (path, message) pairs, the message naming
the other field it weighs; `rules.inventory` attaches them to its declarations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.kinds import is_windows_path
from rules.kinds_estate import (
    MAINTENANCE_BY_VERSION,
    SHARED_AS_FILESYSTEM,
    WINDOWS_RELEASE_VERSION,
)

if TYPE_CHECKING:
    from rules.inventory import Inventory, Mix, Sas, Server
    from rules.inventory_storage import Storage

MIX_TOLERANCE = 0.01
ZFS_OSES = ("solaris", "linux")
# Binary floats put 1.01 − 1 just above 0.01; this slack (far below any share a person
# types) lets 0.99, 1.01, 0.33 + 0.33 + 0.34 and ten shares of 0.1 through, and 1.011 not.
_MIX_FLOAT_SLACK = 1e-9


def unique_mounts(entries: list[Storage | None], path: str) -> list[tuple[str, str]]:
    seen: dict[str, int] = {}
    found: list[tuple[str, str]] = []
    for i, entry in enumerate(entries):
        if entry is None:
            continue
        if entry.mount in seen:
            found.append((f"{path}[{i}].mount", f"duplicates {path}[{seen[entry.mount]}].mount"))
        seen.setdefault(entry.mount, i)
    return found


def paths_fit_the_os(inv: Inventory, path: str) -> list[tuple[str, str]]:
    """Windows paths on Windows only, POSIX paths everywhere else; Windows paths compare
    without regard to case, so two that differ only in case are the same mount."""
    windows, found = inv.server.os == "windows", []
    seen: dict[str, int] = {}
    for s in inv.storage:
        if windows != is_windows_path(s.mount):
            want = (
                "a Windows path (D:\\saswork or \\\\server\\share)"
                if windows
                else ("an absolute POSIX path (/saswork)")
            )
            found.append((f"{s.path}.mount", f"must be {want} for server.os {inv.server.os}"))
        elif windows and s.mount.lower().rstrip("\\") in seen:
            other = seen[s.mount.lower().rstrip("\\")]
            found.append((f"{s.path}.mount", f"duplicates storage[{other}].mount"))
        seen.setdefault(s.mount.lower().rstrip("\\"), s.index)
    return found


def linux_only(server: Server, path: str) -> list[tuple[str, str]]:
    if server.distribution is not None and server.os != "linux":
        return [(f"{path}.distribution", f"is for Linux; server.os is {server.os}")]
    return []


def mix_sums_to_one(mix: Mix, path: str) -> list[tuple[str, str]]:
    total = mix.etl + mix.summary + mix.analytics + mix.spds_query
    if abs(total - 1.0) > MIX_TOLERANCE + _MIX_FLOAT_SLACK:
        return [(path, f"fractions must sum to 1 (±{MIX_TOLERANCE:g}), got {total:.4g}")]
    return []


def server_fits(server: Server, path: str) -> list[tuple[str, str]]:
    """The server's own checks: a distribution on Linux only, a Windows Server release on
    Windows at version 10.0, a ZFS ARC bound where ZFS runs, caches within the RAM."""
    found = linux_only(server, path)
    release = server.os_release_name
    if release is not None and server.os != "windows":
        found.append((f"{path}.os_release_name", f"is for Windows; server.os is {server.os}"))
    elif release is not None and server.version[:2] not in ((10,), WINDOWS_RELEASE_VERSION):
        found.append((
            f"{path}.os_release_name",
            f"Windows Server {release} is OS version 10.0; server.os_version is "
            f"{server.os_version!r}",
        ))  # fmt: skip
    if server.zfs_arc_max_gb is not None and server.os not in ZFS_OSES:
        found.append((
            f"{path}.zfs_arc_max_gb",
            f"is for ZFS, which runs on Solaris and Linux; server.os is {server.os}",
        ))  # fmt: skip
    ram = f"{server.ram_gb:g}"
    for name in ("zfs_arc_max_gb", "gpfs_pagepool_gb"):
        size = getattr(server, name)
        if size is not None and size > server.ram_gb:
            found.append((f"{path}.{name}", f"is more than the RAM ({ram} GB): at most {ram}"))
    return found


def maintenance_fits(sas: Sas, path: str) -> list[tuple[str, str]]:
    """A maintenance release the SAS version had."""
    had = MAINTENANCE_BY_VERSION.get(sas.version, ())
    if sas.maintenance is None or sas.maintenance in had:
        return []
    return [(
        f"{path}.maintenance",
        f"SAS {sas.version} had no {sas.maintenance}: one of " + ", ".join(repr(m) for m in had),
    )]  # fmt: skip


def storage_fits(entry: Storage, path: str) -> list[tuple[str, str]]:
    """A storage entry's settings where they belong: each file system's settings on that
    file system, a shared file system named as this server mounts it, a volume's kind
    with its volume, the cluster's rate and instance storage where they can be."""
    found = _shared_as_mounted(entry, path)
    if entry.volume_kind is not None and entry.volume is None:
        found.append((f"{path}.volume_kind", f"is the kind of {path}.volume, which is not given"))
    found += _measured_fits(entry, path)
    for name, flag in (("measured_is_cluster_total", "a shared"), ("ephemeral", "a local")):
        if getattr(entry, name) and (entry.shared_kind is not None) != (flag == "a shared"):
            found.append((f"{path}.{name}", f"is for {flag} file system; {_sharing(entry, path)}"))
    fs = f"{path}.filesystem is {entry.filesystem!r}"
    for name, wanted, label in _FS_SETTINGS:
        if getattr(entry, name) is not None and not _is(entry, wanted):
            found.append((f"{path}.{name}", f"is for {label}; {fs}"))
    return found


def _measured_fits(entry: Storage, path: str) -> list[tuple[str, str]]:
    """A measurement's details with a measured rate (the cache's flag with the read it
    flags), and its lower rate (measured_mb_s) no higher than the read and the write it is
    the lower of."""
    found: list[tuple[str, str]] = []
    if entry.measured_read_cached is not None and entry.measured_read_mb_s is None:
        found.append((
            f"{path}.measured_read_cached",
            f"says what {path}.measured_read_mb_s may include, which is not given",
        ))  # fmt: skip
    if not entry.measured_given:
        for name in ("measured_is_cluster_total", "measured_by", "measured_at", "measured_streams"):
            if getattr(entry, name):
                found.append((
                    f"{path}.{name}",
                    f"says whose {path}.measured_mb_s it is, which is not given"
                    if name == "measured_is_cluster_total"
                    else f"describes a measurement: {path}.measured_mb_s, "
                    "measured_read_mb_s or measured_write_mb_s, none of which is given",
                ))  # fmt: skip
        return found
    read, write, low = entry.measured_read_mb_s, entry.measured_write_mb_s, entry.measured_mb_s
    if low is not None and read is not None and write is not None and low > min(read, write):
        name, lower = min((("measured_read_mb_s", read), ("measured_write_mb_s", write)), key=_rate)
        found.append((
            f"{path}.measured_mb_s",
            f"is the lower of write and read, so at most {path}.{name} ({lower:g} MB/s); "
            f"got {low:g}",
        ))  # fmt: skip
    return found


def _rate(pair: tuple[str, float]) -> float:
    return pair[1]


# Each file system's own settings: (field, the file system it is for, what it is called).
_FS_SETTINGS = (
    ("zfs_recordsize_kb", "zfs", "ZFS"),
    ("gpfs_block_size_kb", "gpfs", "GPFS (IBM Storage Scale)"),
    ("nfs_rsize_kb", "nfs", "NFS mounts"),
    ("nfs_wsize_kb", "nfs", "NFS mounts"),
    ("nfs_read_ahead_kb", "nfs", "NFS mounts"),
    ("nfs_nconnect", "nfs", "NFS mounts"),
)


def _is(entry: Storage, filesystem: str) -> bool:
    return entry.filesystem == filesystem or entry.shared == filesystem


def _sharing(entry: Storage, path: str) -> str:
    if entry.shared is None:
        return f"{path}.shared is not given and {path}.filesystem is {entry.filesystem!r}"
    return f"{path}.shared is {entry.shared!r}"


def _shared_as_mounted(entry: Storage, path: str) -> list[tuple[str, str]]:
    """NFS is mounted as nfs, Storage Scale as gpfs: `shared` and `filesystem` agree."""
    mounted = SHARED_AS_FILESYSTEM.get(entry.shared or "")
    if mounted is not None and entry.filesystem != mounted:
        return [(
            f"{path}.shared",
            f"{entry.shared!r} is mounted as file system {mounted!r}; {path}.filesystem is "
            f"{entry.filesystem!r}",
        )]  # fmt: skip
    if entry.filesystem in SHARED_AS_FILESYSTEM and entry.shared not in (None, entry.filesystem):
        return [(
            f"{path}.shared",
            f"must be {entry.filesystem!r} (or null) where {path}.filesystem is "
            f"{entry.filesystem!r}",
        )]  # fmt: skip
    return []


def inventory_fits(inv: Inventory, path: str) -> list[tuple[str, str]]:
    """The checks across parts of the document: paths that fit the OS, a GPFS page pool
    on a server with a GPFS file system."""
    found = paths_fit_the_os(inv, path)
    if inv.server.gpfs_pagepool_gb is not None and not any(_is(s, "gpfs") for s in inv.storage):
        found.append((
            "server.gpfs_pagepool_gb",
            "is for IBM Storage Scale (GPFS) nodes: no storage[] entry has filesystem 'gpfs'",
        ))  # fmt: skip
    return found
