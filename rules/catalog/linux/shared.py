"""Rules linux.shared_storage, linux.nfs_readahead and linux.gpfs: SAS storage on a shared or
cluster file system, seen from this client.

A shared file system's RAID, stripe and disks are its server's or cluster's: the client
cannot see them, so no RAID advice is given from here; what to ask the storage admin is
(linux.shared_storage). NFS: kernels from 5.4 (commit c128e575) and RHEL 8.3 set a mount's
read-ahead to 128 KiB whatever rsize is, and SAS GRID tests found 15,360 KiB best; it is
set per mount through /sys/class/bdi/MAJOR:MINOR/read_ahead_kb and kept with a udev rule
(anf-nfs-readahead: Azure NetApp Files "Linux NFS read-ahead best practices"; Red Hat
solution 5953561; nfsrahead(5) for nfs-utils' own way). No source in hand settles rsize,
wsize or nconnect for SAS: the script shows the mount options and no value is advised.
Spectrum Scale: one node per 8 cores at 150 MB/s per core (azure-sas-guide), the upper end
of SAS's 100–150 MB/s band; the node's need is stated at the lower end, as throughput.estimate
states it (rules.derive.throughput). No source in hand gives pagepool or block size values
for SAS, so those are checks, marked unconfirmed.
"""

from __future__ import annotations

import math

from rules.catalog.linux.common import ON_LINUX, SAS_ROLES, check
from rules.derive.linux import linux_release
from rules.derive.throughput import BAND, NEED_HIGH_MB_S_PER_CORE, io_need
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import LINUX_SCRIPT, SYSTEM, Rule, rule
from rules.payloads import Directories

NFS_READAHEAD_KB = 15360  # anf-nfs-readahead: SAS GRID tests' best
NFS_DEFAULT_READAHEAD_KB = 128
GPFS_CORES_PER_NODE = 8  # azure-sas-guide
MMFS_BIN = "/usr/lpp/mmfs/bin"


def _shared(inv: Inventory, *kinds: str) -> list[Storage]:
    return [
        e for e in inv.by_role(*SAS_ROLES)
        if e.shared_kind is not None and (not kinds or e.shared_kind in kinds)
    ]  # fmt: skip


def _has_shared(inv: Inventory) -> str | None:
    return None if _shared(inv) else "no SAS storage entry is on a shared file system"


@rule(
    id="linux.shared_storage",
    title="Shared file systems: ask the storage admin, advise no RAID from the client",
    sources=("sas-nfs-work", "azure-sas-guide"),
    settings=((SYSTEM, "shared storage: ask the storage admin"),),
    applies=lambda inv: ON_LINUX(inv) or _has_shared(inv),
    inputs=("storage[].filesystem", "storage[].raid", "storage[].role", "storage[].mount"),
)
def shared_storage(inv: Inventory, out: Emitter) -> None:
    """The RAID behind an export is the server's: what this host can ask, not advise."""
    entries = _shared(inv)
    listed = "; ".join(
        f"{e.mount} ({e.shared_kind}, recorded as RAID {e.raid} of {e.disks})" for e in entries
    )
    out.set(
        SYSTEM, "shared storage: ask the storage admin", ", ".join(e.mount for e in entries),
        kind="advice",
        rationale=f"{listed}: the RAID, stripe and disks behind a shared file system belong "
        "to its server or cluster, which this host cannot see, so the advisor gives no RAID, "
        "stripe or parity advice for them from here. Ask the storage admin: the RAID level "
        "and stripe unit behind each export or file system (parity RAID under WORK costs "
        "small writes), whether the array's write cache is protected, the read and write "
        "MB/s it sustains to this host and to all its clients at once, and how many other "
        "hosts share it. SAS sizes shared storage per physical core in use (150 MB/s per core "
        "in the Azure SAS guide).",
    )  # fmt: skip


def _nfs_applies(inv: Inventory) -> str | None:
    reason = ON_LINUX(inv)
    if reason is not None:
        return reason
    return None if _shared(inv, "nfs", "nfs4") else "no SAS storage entry is on NFS"


def _nfs_default(inv: Inventory) -> str:
    if linux_release(inv).is_rhel:
        return "RHEL 8.3 and later set an NFS mount's read-ahead to 128 KiB whatever rsize is"
    return (
        "Linux 5.4 and later set an NFS mount's read-ahead to the VM's 128 KiB instead of 15 "
        "× rsize (kernel commit c128e575)"
    )


@rule(
    id="linux.nfs_readahead",
    title="NFS client read-ahead of 15,360 KiB on the SAS mounts",
    sources=("anf-nfs-readahead", "kernel-nfs-readahead", "nfsrahead"),
    settings=((LINUX_SCRIPT, "read_ahead_kb:nfs"), (LINUX_SCRIPT, "check:nfs mount options")),
    applies=_nfs_applies,
    inputs=("storage[].filesystem", "storage[].mount", "server.distribution"),
)
def nfs_readahead(inv: Inventory, out: Emitter) -> None:
    """A 128 KiB read-ahead starves SAS's sequential reads over NFS."""
    mounts = tuple(e.mount for e in _shared(inv, "nfs", "nfs4"))
    out.set(
        LINUX_SCRIPT, "read_ahead_kb:nfs", f">{NFS_READAHEAD_KB}", kind="change",
        rationale=f"{_nfs_default(inv)}; SAS GRID tests found {NFS_READAHEAD_KB} KiB best "
        "(Azure NetApp Files, Linux NFS read-ahead best practices). linux_tuning.sh raises "
        f"/sys/class/bdi/MAJOR:MINOR/read_ahead_kb of {', '.join(mounts)} to at least that "
        "now ('>': a larger value already set is kept, as linux.readahead does) and keeps it "
        "with the vendor's udev rule, which raises it on every NFS mount of this host as it "
        "is mounted (the rule reads /proc/fs/nfsfs/volumes, and here leaves a mount already "
        f"at {NFS_READAHEAD_KB} KiB or more). Where nfs-utils has nfsrahead "
        f"(2.6.2 and later), [nfsrahead] nfs={NFS_READAHEAD_KB} and nfs4={NFS_READAHEAD_KB} "
        "in /etc/nfs.conf is its own way; the rule here runs after nfsrahead's.",
        evidence="Azure NetApp Files, performance-linux-nfs-read-ahead; Red Hat solution "
        "5953561",
        payload=Directories(mounts),
    )  # fmt: skip
    check(
        out, "check:nfs mount options", ("findmnt", "-n", "-o", "OPTIONS", mounts[0]),
        "the options as the NFS server and client agreed them (rsize, wsize, nconnect)",
        f"Shows what {mounts[0]} is mounted with. No value is advised for rsize, wsize or "
        "nconnect: no source the advisor rests on settles them for SAS.",
    )  # fmt: skip


def _gpfs_applies(inv: Inventory) -> str | None:
    reason = ON_LINUX(inv)
    if reason is not None:
        return reason
    return None if _shared(inv, "gpfs") else "no SAS storage entry is on Spectrum Scale"


@rule(
    id="linux.gpfs",
    title="Spectrum Scale client: cluster sized per core; pagepool and block size checked",
    sources=("azure-sas-guide", "sas-io-throughput", "ibm-scale-commands"),
    settings=(
        (SYSTEM, "gpfs: cluster throughput"),
        (LINUX_SCRIPT, "check:mmlsconfig pagepool"),
        (LINUX_SCRIPT, "check:mmlsfs -B"),
    ),
    applies=_gpfs_applies,
    inputs=(
        "storage[].filesystem",
        "server.cores",
        "server.cpus",
        "server.smt_threads",
        "workload.concurrent_sessions",
    ),
)
def gpfs(inv: Inventory, out: Emitter) -> None:
    """Spectrum Scale's throughput is the cluster's: size it per SAS core in use."""
    need, sized = io_need(inv), io_need(inv, NEED_HIGH_MB_S_PER_CORE)
    mounts = ", ".join(e.mount for e in _shared(inv, "gpfs"))
    nodes = math.ceil(need.busy / GPFS_CORES_PER_NODE)
    out.set(
        SYSTEM, "gpfs: cluster throughput", f"{need.mb_s} MB/s", kind="advice",
        rationale=f"{mounts} is Spectrum Scale: its throughput is the cluster's, shared by "
        f"every node. This node's need: {need.text} ({BAND}, its lower end, the figure "
        "throughput.estimate warns on, since a share below it is short by any reading of the "
        f"band). The Azure SAS guide sizes Spectrum Scale at the upper end, "
        f"{NEED_HIGH_MB_S_PER_CORE} MB/s per physical core ({sized.mb_s} MB/s for this node), "
        f"and one Spectrum Scale node per {GPFS_CORES_PER_NODE} cores: {nodes} node(s)' worth "
        "of the cluster. A cluster's measured total is not this node's share: ask its admin "
        "what it sustains to all SAS nodes at once, and measure from this node at peak.",
    )  # fmt: skip
    why = (
        "No value is advised: no source the advisor rests on gives a pagepool or block size "
        "for SAS (unconfirmed); compare with IBM's guidance for large sequential I/O."
    )
    check(out, "check:mmlsconfig pagepool", (f"{MMFS_BIN}/mmlsconfig", "pagepool"),
          "the pagepool this node caches Spectrum Scale data in", why)  # fmt: skip
    check(out, "check:mmlsfs -B", (f"{MMFS_BIN}/mmlsfs", "all", "-B"),
          "each file system's block size", why)  # fmt: skip


RULES: tuple[Rule, ...] = (shared_storage, nfs_readahead, gpfs)
