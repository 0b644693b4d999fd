"""Rules: can the storage feed the CPUs? (sas-io-throughput; bartucca2005; bogacz2012).

SAS's I/O guidance (Crevar et al.; SAS Communities, source `sas-io-throughput`) asks for
100–150 MB/s per core for WORK/UTILLOC and again for permanent data; it is 2015-era
guidance (older SAS grid documents asked 25–30 MB/s). The figure is per core SAS keeps
busy, not per core installed: three sessions at CPUCOUNT 8 on 192 cores use 24 of them.
The per-device figures below are assumptions, not measurements: one HDD ≈ 15–20 MB/s of
SAS-style mixed I/O (same source); the solid-state figures are the project's conservative
guesses. Such an estimate is never more than a "medium" finding, and it is not made at all
for SAN LUNs, whose `disks` the host cannot see: the papers' own SAN LUNs ran far above any
per-spindle figure (bartucca2005 l.244: lemans's two-LUN RAID 0 volume wrote 118.9 MB/s
with dd; bogacz2012 l.79: a 4-disk volume group moved 226.9 MB/s at 27.6 % busy, l.97: one
hdisk wrote 113.4 MB/s). A measured figure, when the contract carries one, replaces the
estimate (`measured_mb_s`), and its warning drops the spindle assumption.
"""

from __future__ import annotations

from rules.derive.cpu import cores_in_use, cpucount, sas_threads, spds_threads
from rules.derive.hardware import physical_cores
from rules.derive.storage_layers import work_on_data_disks
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule

# sas-io-throughput: 100–150 MB/s per core; the lower bound is used so a warning is sure.
NEED_MB_S_PER_CORE = 100
# Assumed mixed-I/O MB/s per device. HDD: the top of sas-io-throughput's 15–20 MB/s (a
# generous figure, again so a shortfall is real). SSD/NVMe/RAM: project assumptions.
DEVICE_MB_S = {"hdd": 20, "ssd": 200, "nvme": 1000, "ram": 2000}
SHORTFALL_MEDIUM = 0.5  # an estimate below half of the need: medium; otherwise low
# Fibre Channel adapters (AIX fscsiN/fcsN, VIOS vfchostN, Linux/Solaris fc/qla/lpfc names)
# mark a SAN LUN: the array's spindles, cache and striping are out of the host's sight.
SAN_ADAPTER_PREFIXES = ("fscsi", "fcs", "vfc", "fc", "qla", "lpfc", "emlxs")
# bartucca2005 l.244: dd on lemans's /raid0 (two SAN LUNs), write and read, KB/s → MB/s.
BARTUCCA_RAID0_MB_S = (118.9, 117.9)


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


def _unit(s: Storage, n: int) -> str:
    name = "disk" if s.media == "hdd" else s.media.upper()
    return name if n == 1 else name + "s"


def _term(s: Storage) -> tuple[float, str]:
    # A rate measured on it (the collector's --measure, dd with 1 MiB blocks as
    # bartucca2005 Listing 2, or SAS's iotest.sh) replaces any estimate.
    measured = s.measured_mb_s
    if measured is not None:
        return measured, f"{s.name} measured {measured:g} MB/s"
    n, rate = data_disks(s), DEVICE_MB_S[s.media]
    return n * rate, f"{n} {_unit(s, n)} × {rate} MB/s (assumed)"


def estimate(entries: tuple[Storage, ...]) -> tuple[float, str]:
    """Summed MB/s and the arithmetic as text ("2 disks × 20 MB/s (assumed) = 40 MB/s")."""
    terms = [_term(s) for s in entries]
    total = sum(rate for rate, _ in terms)
    return total, f"{' + '.join(text for _, text in terms)} = {total:g} MB/s"


def _need(inv: Inventory) -> tuple[int, str]:
    """The rule of thumb counts the physical cores SAS keeps busy at peak: sessions ×
    CPUCOUNT (plus SPD Server's threads), at most the cores there are; logical CPUs stand
    in where cores are unknown."""
    found = physical_cores(inv)
    count, unit = (found[0], "cores") if found else (inv.server.cpus, "logical CPUs")
    busy = cores_in_use(inv, count)
    need = busy * NEED_MB_S_PER_CORE
    threads = sas_threads(inv, cpucount(inv)) + spds_threads(inv)
    used = (
        f"{busy} of {count} {unit} in use ({threads} threads at peak: sessions × CPUCOUNT "
        f"{cpucount(inv)}" + (" plus SPD Server's" if spds_threads(inv) else "") + ")"
        if busy < count
        else f"{count} {unit}"
    )
    return need, f"{used} × {NEED_MB_S_PER_CORE} MB/s = {need} MB/s needed"


def _core_note(inv: Inventory) -> str:
    found = physical_cores(inv)
    if found:
        return f"physical cores: {found[1]}; the figure is per core in use, not installed"
    return (
        "logical CPUs stand in for cores, which neither server.cores nor server.smt_threads "
        "gives: with SMT this overstates the need"
    )


def _san_text(label: str, san: list[Storage]) -> str:
    names = ", ".join(f"{s.name} ({', '.join(s.adapters)})" for s in san)
    return (
        f"{label}: not estimated, {names} are SAN LUNs whose spindles, cache and striping "
        "the host cannot see (bartucca2005 measured lemans's two-LUN RAID 0 volume at "
        f"{BARTUCCA_RAID0_MB_S[0]:g} MB/s write, {BARTUCCA_RAID0_MB_S[1]:g} MB/s read)"
    )


def _caveat(entries: tuple[Storage, ...]) -> str:
    """What the figure rests on: a measured rate needs no spindle assumption."""
    guessed = [s.name for s in entries if s.measured_mb_s is None]
    per_core = "100 MB/s per core (2015-era guidance) fits this workload."
    if not guessed:
        return f"Every rate here is measured (storage[].measured_mb_s); the need assumes {per_core}"
    spindle = (
        "each listed disk is a spindle the host drives directly at sas-io-throughput's 15–20 "
        f"MB/s of SAS mixed I/O (20 used), and that {per_core}"
    )
    if len(guessed) == len(entries):
        return f"This is an estimate, not a measurement: it assumes {spindle}"
    return f"Partly an estimate: the figure for {', '.join(guessed)} assumes {spindle}"


def _warn_short(
    out: Emitter, label: str, entries: tuple[Storage, ...], have: float, need: int, summary: str
) -> None:
    measured = all(s.measured_mb_s is not None for s in entries)
    fix = "add spindles, stripe or move to solid state"
    out.warn(
        f"{'Measured' if measured else 'Estimated'} {label} throughput "
        f"{'is' if measured else 'may be'} short: {summary} ({have / need:.0%} of the need). "
        f"{_caveat(entries)}",
        action=(
            f"Check the measurement with the sessions running at peak, then {fix}."
            if measured
            else f"Measure it: dd 1 GB with bs=1024k to and from {entries[0].mount} as "
            f"bartucca2005 did (Listing 2), then {fix}."
        ),
        severity="medium" if have < need * SHORTFALL_MEDIUM else "low",
    )


def _check(out: Emitter, label: str, entries: tuple[Storage, ...], inv: Inventory) -> str:
    san = [s for s in entries if is_san(s) and s.measured_mb_s is None]
    if san:
        return _san_text(label, san)
    have, arithmetic = estimate(entries)
    need, need_text = _need(inv)
    summary = f"{arithmetic} for {label} vs {need_text}"
    if have < need:
        _warn_short(out, label, entries, have, need, summary)
    return summary


@rule(
    id="throughput.estimate",
    title="Storage throughput against 100 MB/s per core in use",
    sources=("sas-io-throughput", "bartucca2005", "bogacz2012"),
    settings=((SYSTEM, "I/O throughput target"),),
    inputs=(
        "server.cpus",
        "server.cores",
        "server.smt_threads",
        "workload.concurrent_sessions",
        "workload.mix",
        "storage[].role",
        "storage[].raid",
        "storage[].disks",
        "storage[].media",
        "storage[].adapters",
        "storage[].san",
        "storage[].measured_mb_s",
    ),
)
def throughput(inv: Inventory, out: Emitter) -> None:
    """Estimate what WORK and data storage deliver and warn where it may fall short."""
    data = inv.by_role("data")
    # WORK on the data file system's own disks is counted once, with data (placement).
    shared = {w.index for w, _ in work_on_data_disks(inv.by_role("work", "utilloc"), data)}
    work = tuple(s for s in inv.by_role("work", "utilloc") if s.index not in shared)
    if not work and not data:
        out.skip("storage", "no storage with role work, utilloc or data to estimate")
        return
    summaries = [_check(out, label, e, inv) for label, e in (("WORK", work), ("data", data)) if e]
    if shared:
        summaries.append("WORK on the data disks is counted once, with data")
    need, need_text = _need(inv)
    out.set(
        SYSTEM,
        "I/O throughput target",
        f"{need} MB/s",
        kind="advice",
        rationale=f"Aim WORK/UTILLOC and permanent data at {need_text} each (sas-io-throughput "
        f"lower bound, 100–150 MB/s per core; {_core_note(inv)}), and measure what the "
        "storage gives with dd (bartucca2005 Listing 2): "
        f"{'; '.join(summaries)}.",
        evidence="sas-io-throughput rule of thumb; bartucca2005 l.244 measured /raid0 at "
        "118.9 MB/s write and 117.9 MB/s read with dd; bogacz2012 l.79 and l.97 (226.9 MB/s "
        "from a 4-disk volume group, 113.4 MB/s from one SAN hdisk)",
    )


RULES: tuple[Rule, ...] = (throughput,)
