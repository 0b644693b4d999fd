"""What a storage entry can give this host, and what SAS needs of it (throughput.estimate,
linux.gpfs).

The need: SAS's 100–150 MB/s per core in use for WORK/UTILLOC and again for data
(sas-io-throughput: Crevar et al.; SAS Communities "Contemplating I/O for SAS"; Brown &
Crevar SAS1500-2015). Every rule that states a need uses the band's lower end, 100 MB/s:
a store below it is short by any reading of the band, so a warning built on it is sure.
The upper end, 150, is the Azure SAS guide's sizing figure (azure-sas-guide), named where
storage is sized rather than judged.

The rate of one entry, in this order:
- measured (`measured_mb_s`, or the lower of `measured_read_mb_s` and `measured_write_mb_s`
  where it is not given) on this host: the measurement; read and write are judged apart
  where given (`direction_rate`). A read that may be the page cache's
  (`measured_read_cached`: files smaller than the RAM, without direct I/O) is not the
  storage's: the write alone is the measured rate, and the read is not measured;
- measured as a whole cluster's total (`measured_is_cluster_total`): not this node's rate;
  the contract gives no node count, so this node's share is unknown — the total only bounds
  it from above;
- a shared file system (NFS, Spectrum Scale, Lustre, CIFS) not measured: its disks are its
  server's or cluster's, not spindles this host drives, so nothing is estimated from them;
- a SAN LUN not measured: its spindles, cache and striping are out of the host's sight;
- else the data disks × an assumed per-device figure by media.
A provider's cap (`throughput_cap_mb_s`: an EBS volume's or Azure disk's limit) bounds any
of these: the rate is min(measured or estimate, cap), and an unknown rate is at most the cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.derive.cpu import cores_in_use, cpucount, sas_threads, spds_threads
from rules.derive.hardware import physical_cores
from rules.inventory import Inventory, Storage

# sas-io-throughput: 100–150 MB/s per core in use. The need is stated at the lower end.
NEED_LOW_MB_S_PER_CORE = 100
NEED_HIGH_MB_S_PER_CORE = 150
BAND = "SAS's 100–150 MB/s per core in use (sas-io-throughput)"
# Assumed mixed-I/O MB/s per device. HDD: the top of sas-io-throughput's 15–20 MB/s (a
# generous figure, so a shortfall is real). SSD/NVMe/RAM: the project's conservative
# figures; no source in hand gives a per-device rate for SAS on solid state (xu's "solid
# state disk" of the 1990s, l.52, moved 20 MB/s and is no guide to a flash device now).
DEVICE_MB_S = {"hdd": 20, "ssd": 200, "nvme": 1000, "ram": 2000}
# Fibre Channel adapters (AIX fscsiN/fcsN, VIOS vfchostN, Linux/Solaris fc/qla/lpfc names)
# mark a SAN LUN: the array's spindles, cache and striping are out of the host's sight.
SAN_ADAPTER_PREFIXES = ("fscsi", "fcs", "vfc", "fc", "qla", "lpfc", "emlxs")

Basis = Literal["measured", "estimated", "capped", "bound", "unknown"]
Flow = Literal["read", "write"]  # a direction of I/O


@dataclass(frozen=True)
class Rate:
    """What one entry gives this host. `capped`: its provider's cap, below its measured or
    estimated rate; `bound`: at most `mb_s` (a cap or a cluster's total), its own rate
    unknown; `unknown`: no figure at all."""

    mb_s: float | None
    text: str
    basis: Basis


@dataclass(frozen=True)
class Need:
    mb_s: int
    text: str  # "16 cores × 100 MB/s = 1600 MB/s needed"
    busy: int  # cores in use


def is_san(s: Storage) -> bool:
    """Marked as a SAN LUN, or reached through a Fibre Channel adapter."""
    if s.san is not None:
        return s.san
    return any(a.lower().startswith(SAN_ADAPTER_PREFIXES) for a in s.adapters)


def data_disks(s: Storage) -> int:
    """Devices that carry data: parity (RAID 5 one, RAID 6 two) and mirrors (RAID 1/10
    half) add no write bandwidth."""
    if s.raid == "5":
        return max(1, s.disks - 1)
    if s.raid == "6":
        return max(1, s.disks - 2)
    if s.raid in ("1", "10"):
        return max(1, s.disks // 2)
    return s.disks


def unit(media: str, n: int) -> str:
    """'disk', 'SSDs', 'NVMe devices' … as many as n."""
    name = {"hdd": "disk", "ssd": "SSD", "nvme": "NVMe device", "ram": "RAM disk"}[media]
    return name if n == 1 else name + "s"


def io_need(inv: Inventory, per_core: int = NEED_LOW_MB_S_PER_CORE) -> Need:
    """The physical cores SAS keeps busy at peak (sessions × CPUCOUNT plus SPD Server's
    threads, at most the cores there are; logical CPUs where cores are unknown) × per_core."""
    found = physical_cores(inv)
    count, what = (found[0], "cores") if found else (inv.server.cpus, "logical CPUs")
    busy = cores_in_use(inv, count)
    threads = sas_threads(inv, cpucount(inv)) + spds_threads(inv)
    used = (
        f"{busy} of {count} {what} in use ({threads} threads at peak: sessions × CPUCOUNT "
        f"{cpucount(inv)}" + (" plus SPD Server's" if spds_threads(inv) else "") + ")"
        if busy < count
        else f"{count} {what}"
    )
    need = busy * per_core
    return Need(need, f"{used} × {per_core} MB/s = {need} MB/s needed", busy)


def _base(s: Storage) -> Rate:
    """The entry's rate before any cap."""
    measured, kind = s.measured_lower, s.shared_kind
    if measured is not None and s.measured_is_cluster_total:
        return Rate(
            measured,
            f"{s.name} measured {measured:g} MB/s for the whole {kind or 'shared'} cluster, "
            "shared by every node: not this node's rate, and this node's share is unknown "
            "(the inventory gives no node count)",
            "bound",
        )
    if measured is not None:
        return Rate(measured, f"{s.name} measured {measured:g} MB/s{_lower_of(s)}", "measured")
    if kind is not None:
        return Rate(
            None,
            f"{s.name} is on {kind}, a shared file system: its {s.disks} recorded disks are "
            "its server's or cluster's, not spindles this host drives, so nothing is "
            "estimated from them",
            "unknown",
        )
    if is_san(s):
        via = f" (through {', '.join(s.adapters)})" if s.adapters else " (marked SAN LUN)"
        return Rate(
            None,
            f"{s.name} is a SAN LUN{via}: its spindles, cache and striping are out of the "
            "host's sight",
            "unknown",
        )
    n, rate = data_disks(s), DEVICE_MB_S[s.media]
    return Rate(n * rate, f"{n} {unit(s.media, n)} × {rate} MB/s (assumed)", "estimated")


def _lower_of(s: Storage) -> str:
    """Where the measured rate is the lower of the directions given, which it is."""
    if s.measured_read_cached:
        return f" (the write: {cached_text(s)})"
    if s.measured_mb_s is not None:
        return ""
    read, write = s.measured_read_mb_s, s.measured_write_mb_s
    if read is not None and write is not None:
        return f" (the lower of read {read:g} and write {write:g})"
    return " (read only)" if read is not None else " (write only)"


def _capped(base: Rate, cap: float | None) -> Rate:
    """`base` bounded by the provider's cap, min(base, cap)."""
    if cap is None:
        return base
    cap_text = f"cap {cap:g} MB/s (its Throughput cap)"
    if base.mb_s is None:
        return Rate(cap, f"{base.text}; at most its {cap_text}", "bound")
    text = f"min({base.text}, {cap_text})"
    if cap < base.mb_s:
        return Rate(cap, text, "bound" if base.basis == "bound" else "capped")
    return Rate(base.mb_s, text, base.basis)


def cached_text(s: Storage) -> str:
    """Why its read figure is not the storage's (storage[].measured_read_cached)."""
    return (
        f"its read {s.measured_read_mb_s:g} MB/s may be the page cache's, not the storage's: "
        "files smaller than the RAM, read without direct I/O"
    )


def direction_rate(s: Storage, direction: Flow) -> Rate:
    """One direction's rate: its measured figure (capped) where given on this host, else
    the entry's rate, which is at most either direction's. A read that may be the page
    cache's is not measured, and the entry's rate (the write's) says nothing of it."""
    if direction == "read" and s.measured_read_cached and not s.measured_is_cluster_total:
        return Rate(None, f"{s.name}: {cached_text(s)}", "unknown")
    figure = s.measured_read_mb_s if direction == "read" else s.measured_write_mb_s
    other = s.measured_write_mb_s if direction == "read" else s.measured_read_mb_s
    if figure is None and other is not None and s.measured_mb_s is None:
        # Only the other direction was measured: it says nothing of this one (a given
        # measured_mb_s, the lower of the two, would bound both).
        return Rate(None, f"{s.name}: {direction} not measured, only its {_other(direction)}",
                    "unknown")  # fmt: skip
    if figure is None or s.measured_is_cluster_total:
        return entry_rate(s)
    base = Rate(figure, f"{s.name} measured {direction} {figure:g} MB/s", "measured")
    return _capped(base, s.throughput_cap_mb_s)


def _other(direction: Flow) -> Flow:
    return "write" if direction == "read" else "read"


def entry_rate(s: Storage) -> Rate:
    """The entry's rate: its base bounded by the provider's cap, min(base, cap). Where
    all it measured is a read that may be the page cache's, the base says so."""
    base = _base(s)
    if s.measured_read_cached and s.measured_lower is None:
        base = Rate(base.mb_s, f"{base.text}; {s.name}: {cached_text(s)}", base.basis)
    return _capped(base, s.throughput_cap_mb_s)
