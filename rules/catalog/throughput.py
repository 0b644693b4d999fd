"""Rules: can the storage feed the CPUs? (sas-io-throughput; bartucca2005; bogacz2012).

SAS's I/O guidance (Crevar et al.; SAS Communities, source `sas-io-throughput`) asks for
100–150 MB/s per core for WORK/UTILLOC and again for permanent data; it is 2015-era
guidance (older SAS grid documents asked 25–30 MB/s). The figure is per core SAS keeps
busy, not per core installed: three sessions at CPUCOUNT 8 on 192 cores use 24 of them.
The need is stated at the band's lower end, 100 MB/s, as linux.gpfs states it
(rules.derive.throughput). What each entry gives (measured, capped by its provider, the
share of a cluster, a shared file system, a SAN LUN or an estimate from its disks) is
rules.derive.throughput's. An estimate from assumed per-device rates is never more than a
"medium" finding, and none is made for SAN LUNs or shared file systems, whose disks the host
cannot see: the papers' own SAN LUNs ran far above any per-spindle figure (bartucca2005
l.244: lemans's two-LUN RAID 0 volume wrote 118.9 MB/s with dd; bogacz2012 l.79: a 4-disk
volume group moved 226.9 MB/s at 27.6 % busy, l.97: one hdisk wrote 113.4 MB/s).
"""

from __future__ import annotations

from rules.catalog.throughput_measured import check_apart, judged_apart
from rules.derive.hardware import physical_cores
from rules.derive.storage_layers import work_on_data_disks
from rules.derive.throughput import (
    BAND,
    DEVICE_MB_S,
    NEED_LOW_MB_S_PER_CORE,
    Need,
    Rate,
    entry_rate,
    io_need,
    unit,
)
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule

Group = tuple[str, tuple[Storage, ...]]
SHORTFALL_MEDIUM = 0.5  # below half of the need: medium; otherwise low
# bartucca2005 l.244: dd on lemans's /raid0 (two SAN LUNs), write and read, KB/s → MB/s.
BARTUCCA_RAID0_MB_S = (118.9, 117.9)
# What each media's assumed figure rests on (rules.derive.throughput.DEVICE_MB_S).
MEDIA_BASIS = {
    "hdd": "sas-io-throughput's 15–20 MB/s of SAS mixed I/O per spindle (20 used)",
    "ssd": "a conservative project figure: no source in hand gives one for SAS on SSDs",
    "nvme": "a conservative project figure: no source in hand gives one for SAS on NVMe",
    "ram": "a conservative project figure for a RAM disk",
}
RULE_SOURCES = ("sas-io-throughput", "bartucca2005", "bogacz2012")
WINDOWS_SOURCES = ("sas-io-throughput", "sas-win-iotest", "ms-diskspd")
PER_CORE = f"{NEED_LOW_MB_S_PER_CORE} MB/s per core (2015-era guidance) fits this workload."


def measure_how(inv: Inventory, mount: str) -> str:
    """How to measure a file system's rate on this OS: Windows has no dd."""
    if inv.server.os == "windows":
        return (
            f"on {mount} with SAS's sasiotest.exe (sas-win-iotest: sasiotest "
            f"{mount}\\iotest.dat -w -filesize 8G -pagesize 64K) or Microsoft's DiskSpd "
            "(ms-diskspd: diskspd -c8G -b1M -w100 -Sh -d60 "
            f"{mount}\\iotest.dat, then -w0 to read), one stream per core in use (Windows "
            "has no dd)"
        )
    return (
        f"dd 1 GB with bs=1024k to and from {mount} as bartucca2005 did (Listing 2), or the "
        "collector's --measure DIR"
    )


def _core_note(inv: Inventory) -> str:
    found = physical_cores(inv)
    if found:
        return f"physical cores: {found[1]}; the figure is per core in use, not installed"
    return (
        "logical CPUs stand in for cores, which neither Physical cores nor SMT threads per "
        "core gives: with SMT this overstates the need"
    )


def _san_text(san: list[Storage]) -> str:
    names = ", ".join(f"{s.name} ({', '.join(s.adapters)})" if s.adapters else s.name for s in san)
    return (
        f"{names} are SAN LUNs whose spindles, cache and striping the host cannot see "
        "(bartucca2005 measured lemans's two-LUN RAID 0 volume at "
        f"{BARTUCCA_RAID0_MB_S[0]:g} MB/s write, {BARTUCCA_RAID0_MB_S[1]:g} MB/s read)"
    )


def _shared_text(inv: Inventory, entries: list[Storage], rates: list[Rate]) -> str:
    return "; ".join(
        f"{r.text}: measure it from this host ({measure_how(inv, s.mount)}) and, if known, "
        "give the network link's speed (a 10 Gb/s link carries at most 1,250 MB/s before "
        "protocol overhead)"
        for s, r in zip(entries, rates, strict=True)
    )


def _unknown_text(inv: Inventory, label: str, unknown: list[tuple[Storage, Rate]]) -> str:
    shared = [(s, r) for s, r in unknown if s.shared_kind is not None]
    san = [s for s, _ in unknown if s.shared_kind is None]
    parts = ([_san_text(san)] if san else []) + (
        [_shared_text(inv, [s for s, _ in shared], [r for _, r in shared])] if shared else []
    )
    return f"{label}: not estimated, {'; '.join(parts)}"


def _assumes(entries: list[Storage]) -> str:
    """What the estimate assumes, by the media it counted, with the figure it used."""
    media = list(dict.fromkeys(s.media for s in entries))
    spindle = "is a spindle the host drives directly, "
    each = "; ".join(
        f"each listed {unit(m, 1)} {spindle if m == 'hdd' else 'gives '}"
        f"{DEVICE_MB_S[m]} MB/s ({MEDIA_BASIS[m]})"
        for m in media
    )
    return f"{each}, and that {PER_CORE}"


def _caveat(entries: tuple[Storage, ...], rates: list[Rate]) -> str:
    """What the figure rests on: a measured rate or a bound needs no device assumption."""
    basis = {r.basis for r in rates}
    guessed = [s for s, r in zip(entries, rates, strict=True) if r.basis == "estimated"]
    bound = (
        "A provider's cap (Throughput cap, MB/s) or a cluster's measured total "
        "is the most this host can get, whatever its disks could do. "
        if basis & {"capped", "bound"}
        else ""
    )
    if basis == {"measured"}:
        return f"Every rate here is measured (Measured MB/s); the need assumes {PER_CORE}"
    if not guessed:
        return f"{bound}No device rate is assumed; the need assumes {PER_CORE}"
    if len(guessed) == len(entries):
        return f"This is an estimate, not a measurement: it assumes {_assumes(guessed)}"
    names = ", ".join(s.name for s in guessed)
    return f"{bound}Partly an estimate: the figure for {names} assumes {_assumes(guessed)}"


def _fix(entries: tuple[Storage, ...], rates: list[Rate]) -> str:
    if any(
        r.basis in ("capped", "bound") and s.throughput_cap_mb_s
        for s, r in zip(entries, rates, strict=True)
    ):
        return "raise the volume's provisioned throughput or spread the files over more volumes"
    if any(s.measured_is_cluster_total for s in entries):
        return "ask the cluster's admin what this node gets with every node at peak"
    if all(s.media != "hdd" for s in entries):
        return "add devices or stripe across more of them"
    return "add spindles, stripe or move to solid state"


def _warn_short(
    out: Emitter,
    inv: Inventory,
    label: str,
    entries: tuple[Storage, ...],
    rates: list[Rate],
    share: tuple[float, str],
) -> None:
    have_share, summary = share
    basis = {r.basis for r in rates}
    head = (
        f"Measured {label} throughput is short"
        if basis == {"measured"}
        else f"{label[0].upper()}{label[1:]} throughput cannot meet the need"
        if basis & {"capped", "bound"}
        else f"Estimated {label} throughput may be short"
    )
    measure = (
        "Check the measurement with the sessions running at peak"
        if basis == {"measured"}
        else f"Measure it: {measure_how(inv, entries[0].mount)}"
    )
    out.warn(
        f"{head}: {summary} ({have_share:.0%} of the need). {_caveat(entries, rates)}",
        action=f"{measure}, then {_fix(entries, rates)}.",
        severity="medium" if have_share < SHORTFALL_MEDIUM else "low",
        sources=WINDOWS_SOURCES if inv.server.os == "windows" else None,
    )  # fmt: skip


def _check(out: Emitter, label: str, entries: tuple[Storage, ...], inv: Inventory) -> str:
    rates = [entry_rate(s) for s in entries]
    unknown = [(s, r) for s, r in zip(entries, rates, strict=True) if r.basis == "unknown"]
    if unknown:
        return _unknown_text(inv, label, unknown)
    if judged_apart(entries):
        return check_apart(out, inv, label, entries, io_need(inv))
    have = sum(r.mb_s or 0 for r in rates)
    bounded = any(r.basis in ("capped", "bound") for r in rates)
    need = io_need(inv)
    total = f"{'at most ' if bounded else ''}{have:g} MB/s"
    summary = f"{' + '.join(r.text for r in rates)} = {total} for {label} vs {need.text}"
    if have < need.mb_s:
        _warn_short(out, inv, label, entries, rates, (have / need.mb_s, summary))
    elif any(r.basis == "bound" for r in rates):
        summary += ": a bound, not this host's rate, so it is not judged; measure it"
    return summary


def _target_text(inv: Inventory, need: Need, summaries: list[str]) -> str:
    how = (
        "with sasiotest.exe or DiskSpd" if inv.server.os == "windows"
        else "with dd (bartucca2005 Listing 2)"
    )  # fmt: skip
    return (
        f"Aim WORK/UTILLOC and permanent data at {need.text} each ({BAND}: its lower end, "
        f"so a store below it is short by any reading of the band; {_core_note(inv)}), and "
        f"measure what the storage gives {how}. A provider's cap bounds a file system's rate: "
        f"min(estimate or measured, cap). {'; '.join(summaries)}."
    )


def _groups(work: tuple[Storage, ...], data: tuple[Storage, ...]) -> list[Group]:
    """WORK/UTILLOC and data, as SAS states its need. A UTILLOC file system measured on this
    host is judged on its own: the sort's utility files go there while WORK is busy, so a
    measured shortfall there is real whatever WORK gives. Estimates stay pooled, so that
    assumed per-device figures are not stacked into a warning per file system."""
    util = tuple(s for s in work if s.role == "utilloc")
    if not any(s.measured_lower or s.measured_read_mb_s for s in util):
        return [("WORK", work), ("data", data)]
    rest = tuple(s for s in work if s.role != "utilloc")
    return [("WORK", rest), ("UTILLOC", util), ("data", data)]


@rule(
    id="throughput.estimate",
    title="Storage throughput against 100 MB/s per core in use",
    sources=RULE_SOURCES,
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
        "storage[].measured_read_mb_s",
        "storage[].measured_write_mb_s",
        "storage[].measured_by",
        "storage[].measured_at",
        "storage[].measured_streams",
        "storage[].measured_read_cached",
        "storage[].measured_is_cluster_total",
        "storage[].throughput_cap_mb_s",
        "storage[].shared",
        "storage[].filesystem",
    ),
)
def throughput(inv: Inventory, out: Emitter) -> None:
    """Estimate what WORK and data storage deliver and warn where it may fall short."""
    data = inv.by_role("data")
    # WORK on the data file system's own disks is counted once, with data (placement).
    shared = {w.index for w, _ in work_on_data_disks(inv.by_role("work", "utilloc"), data)}
    work = tuple(s for s in inv.by_role("work", "utilloc") if s.index not in shared)
    if not work and not data:
        out.skip("storage", "no file system marked SAS WORK, UTILLOC or SAS data to estimate")
        return
    summaries = [_check(out, label, e, inv) for label, e in _groups(work, data) if e]
    if shared:
        summaries.append("WORK on the data disks is counted once, with data")
    need = io_need(inv)
    out.set(
        SYSTEM,
        "I/O throughput target",
        f"{need.mb_s} MB/s",
        kind="advice",
        rationale=_target_text(inv, need, summaries),
        sources=WINDOWS_SOURCES + RULE_SOURCES[1:] if inv.server.os == "windows" else None,
        evidence="sas-io-throughput rule of thumb; bartucca2005 l.244 measured /raid0 at "
        "118.9 MB/s write and 117.9 MB/s read with dd; bogacz2012 l.79 and l.97 (226.9 MB/s "
        "from a 4-disk volume group, 113.4 MB/s from one SAN hdisk)",
    )


RULES: tuple[Rule, ...] = (throughput,)
