"""Generated inventories with the contract's fields for the estates SAS runs on now.

Built on `tests.rules.test_properties.inventory` (every OS, role, RAID, media and file
system, 0..512 storage entries, tiny and huge machines): each document gains the later
optional fields of contract v1 (`rules.inventory`, `rules.inventory_storage`,
`rules.kinds_estate`), each only where `rules.inventory_checks` accepts it: a Windows
Server release on Windows 10.0, a ZFS ARC bound on Solaris and Linux and a GPFS pagepool
beside a gpfs file system (both within the RAM), a maintenance release its SAS version had,
NFS settings on NFS mounts, ZFS recordsize on ZFS, GPFS block size on GPFS, instance storage
only local, a cluster's measured rate only shared. A `current` block (what the server runs
now) comes with some of them, so the plans that use known values are exercised too.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from rules.inventory_fit import FILESYSTEMS as OS_FILESYSTEMS
from rules.kinds_estate import (
    MAINTENANCE_BY_VERSION,
    SHARED_CHOICE,
    VIRTUAL_CHOICE,
    VOLUME_KIND_CHOICE,
    WINDOWS_RELEASE_CHOICE,
)
from tests.rules.fitting import fit_filesystems
from tests.rules.test_properties import OS_VERSIONS, inventory, posix_mount, windows_mount

# Entries past this index keep the base fields only, and at most KEPT_ENTRIES stay: the 512
# entry installations are test_properties' concern, and they would take most of the time.
DRAWN_ENTRIES = 12
KEPT_ENTRIES = 24
VOLUMES = ["md0", "md126", "vg_sas/lv_work", "vgdata/lvdata", "mpatha", "dg_sas.vol01"]
MOUNT_OPTIONS = [
    "rw,relatime", "rw,hard,rsize=1048576,wsize=1048576,nconnect=8",
    "rw,noatime,nodiratime,inode64", "rw,vers=4.1,proto=tcp,timeo=600", "cio", "rw,dio",
]  # fmt: skip
POW2_KB = st.integers(0, 14).map(lambda n: 2**n)


def _local_shared(filesystem: str) -> st.SearchStrategy[str | None]:
    """`shared` as rules.inventory_checks takes it: nfs and gpfs with their own file system
    only; the others (or none) beside any file system but nfs and gpfs."""
    if filesystem in ("nfs", "gpfs"):
        return st.sampled_from([None, filesystem])
    others = [c for c in SHARED_CHOICE.options if c not in ("nfs", "gpfs")]
    return st.sampled_from([None, *others])


def _is_shared(entry: dict[str, Any]) -> bool:
    shared = entry.get("shared")
    return entry["filesystem"] in ("nfs", "gpfs") if shared is None else shared != "none"


def _optional(draw: st.DrawFn, key: str, values: st.SearchStrategy[Any]) -> dict[str, Any]:
    """{} (absent), {key: None} or {key: value}, a third each."""
    pick = draw(st.integers(0, 2))
    return {} if pick == 0 else {key: None} if pick == 1 else {key: draw(values)}


@st.composite
def _estate_entry(draw: st.DrawFn, entry: dict[str, Any], os_name: str) -> dict[str, Any]:
    if draw(st.integers(0, 3)) == 0:  # one in four becomes a shared file system
        choices = ["nfs", "gpfs"] if "gpfs" in OS_FILESYSTEMS[os_name] else ["nfs"]
        entry = {**entry, "filesystem": draw(st.sampled_from(choices))}
    fs = entry["filesystem"]
    entry = entry | _optional(draw, "shared", _local_shared(fs))
    if draw(st.booleans()):
        entry |= {"volume": draw(st.sampled_from(VOLUMES))}
        entry |= _optional(draw, "volume_kind", st.sampled_from(VOLUME_KIND_CHOICE.options))
    entry |= _optional(draw, "mount_options", st.sampled_from(MOUNT_OPTIONS))
    entry |= _optional(draw, "throughput_cap_mb_s", st.floats(1, 1e5))
    if draw(st.booleans()):
        entry |= {"measured_mb_s": draw(st.floats(1, 1e5))}
        if _is_shared(entry):
            entry |= _optional(draw, "measured_is_cluster_total", st.booleans())
    if not _is_shared(entry):
        entry |= _optional(draw, "ephemeral", st.booleans())
    if fs == "zfs":
        entry |= _optional(draw, "zfs_recordsize_kb", POW2_KB)
    if fs == "gpfs":
        entry |= _optional(draw, "gpfs_block_size_kb", POW2_KB.filter(lambda kb: kb >= 16))
    if fs == "nfs":
        for key in ("nfs_rsize_kb", "nfs_wsize_kb"):
            entry |= _optional(draw, key, st.sampled_from([32, 64, 256, 1024]))
        entry |= _optional(draw, "nfs_read_ahead_kb", st.sampled_from([0, 128, 15360, 1048576]))
        entry |= _optional(draw, "nfs_nconnect", st.integers(1, 16))
    return entry


def _server(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    server = dict(doc["server"])
    os_name, ram = server["os"], server["ram_gb"]
    server |= _optional(draw, "virtual", st.sampled_from(VIRTUAL_CHOICE.options))
    server |= _optional(draw, "numa_nodes", st.integers(1, 1024))
    if os_name == "windows" and server["os_version"] == "10.0":
        server |= _optional(
            draw, "os_release_name", st.sampled_from(WINDOWS_RELEASE_CHOICE.options)
        )
    cache = st.floats(0.01, 1.0).map(lambda share: max(ram * share, 1e-6))
    if os_name in ("solaris", "linux"):
        server |= _optional(draw, "zfs_arc_max_gb", cache)
    if any(e["filesystem"] == "gpfs" for e in doc["storage"]):
        server |= _optional(draw, "gpfs_pagepool_gb", cache)
    return server


AIX_CURRENT = st.fixed_dictionaries(
    {},
    optional={
        "aix_ioo": st.dictionaries(
            st.sampled_from(
                ["j2_maxPageReadAhead", "j2_minPageReadAhead", "j2_nPagesPerWriteBehindCluster"]
            ),
            st.sampled_from(["2", "8", "16", "128", "1024", "2048"]),
        ),
        "aix_vmo": st.dictionaries(
            st.sampled_from(["minfree", "maxfree", "maxperm%", "minperm%", "maxclient%"]),
            st.sampled_from(["3", "20", "80", "90", "960", "1088", "4096", "100000"]),
        ),
    },
)
LINUX_CURRENT = st.fixed_dictionaries(
    {},
    optional={
        "linux_sysctl": st.dictionaries(
            st.sampled_from(
                ["vm.dirty_ratio", "vm.dirty_background_ratio", "vm.swappiness", "vm.dirty_bytes"]
            ),
            st.sampled_from(["0", "5", "10", "20", "40", "60"]),
        ),
        "linux_thp": st.sampled_from(["always", "madvise", "never"]),
    },
)


def _current(draw: st.DrawFn, os_name: str) -> dict[str, Any]:
    table = {"aix": AIX_CURRENT, "linux": LINUX_CURRENT}.get(os_name)
    if table is None or not draw(st.booleans()):
        return {}
    return {"current": draw(table) | {"source": "generated"}}


@st.composite
def estate_inventory(draw: st.DrawFn, os_name: str | None = None) -> dict[str, Any]:
    """A valid document with the estate fields; on `os_name` when given."""
    doc = draw(inventory())
    if os_name is not None:
        doc = _move(draw, doc, os_name)
    os_now = doc["server"]["os"]
    entries = doc["storage"][:KEPT_ENTRIES]
    drawn = [draw(_estate_entry(e, os_now)) for e in entries[:DRAWN_ENTRIES]]
    doc["storage"] = drawn + entries[DRAWN_ENTRIES:]
    doc["server"] = _server(draw, doc)
    sas = doc["sas"]
    sas |= _optional(draw, "maintenance", st.sampled_from(MAINTENANCE_BY_VERSION[sas["version"]]))
    return doc | _current(draw, os_now)


def _move(draw: st.DrawFn, doc: dict[str, Any], os_name: str) -> dict[str, Any]:
    """The same document on another OS: its release, mounts and file systems."""
    server = {k: v for k, v in doc["server"].items() if k not in ("distribution", "kernel")}
    server |= {"os": os_name, "os_version": draw(st.sampled_from(OS_VERSIONS[os_name]))}
    if os_name == "linux":
        server |= draw(st.fixed_dictionaries({
            "distribution": st.sampled_from(["rhel", "ol", "sles", "ubuntu", "debian", "other"]),
            "kernel": st.sampled_from(["3.10.0", "4.18.0", "5.14.0", "6.8.0"]),
        }))  # fmt: skip
    move = windows_mount if os_name == "windows" else posix_mount
    entries = [{**e, "mount": move(posix_mount(e["mount"]))} for e in doc["storage"]]
    return fit_filesystems({**doc, "server": server, "storage": entries})
