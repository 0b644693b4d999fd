"""Rules: can the storage feed the CPUs? (sas-io-throughput rule of thumb; xu; bartucca2005).

SAS's I/O guidance (Crevar et al.; SAS Communities, source `sas-io-throughput`) asks for
100–150 MB/s per core for WORK/UTILLOC and again for permanent data. The per-device
figures below are assumptions, not measurements: one HDD ≈ 15–20 MB/s of SAS-style mixed
I/O (same source); the solid-state figures are the project's conservative guesses.
"""

from __future__ import annotations

from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import SYSTEM, Rule, rule

# sas-io-throughput: 100–150 MB/s per core; the lower bound is used so a warning is sure.
NEED_MB_S_PER_CORE = 100
# Assumed mixed-I/O MB/s per device. HDD: the top of sas-io-throughput's 15–20 MB/s (a
# generous figure, again so a shortfall is real). SSD/NVMe/RAM: project assumptions.
DEVICE_MB_S = {"hdd": 20, "ssd": 200, "nvme": 1000, "ram": 2000}
SHORTFALL_HIGH = 0.5  # below half of the need: severity high


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


def estimate(entries: tuple[Storage, ...]) -> tuple[int, str]:
    """Summed MB/s and the arithmetic as text ("2 disks × 20 MB/s = 40 MB/s")."""
    terms = [(data_disks(s), DEVICE_MB_S[s.media], s) for s in entries]
    total = sum(n * rate for n, rate, _ in terms)
    parts = [f"{n} {_unit(s, n)} × {rate} MB/s" for n, rate, s in terms]
    return total, f"{' + '.join(parts)} = {total} MB/s"


def _need(inv: Inventory) -> tuple[int, str]:
    """The rule of thumb counts physical cores; logical CPUs stand in where they are unknown."""
    cores = inv.server.cores
    count, unit = (cores, "cores") if cores else (inv.server.cpus, "logical CPUs")
    need = count * NEED_MB_S_PER_CORE
    return need, f"{count} {unit} × {NEED_MB_S_PER_CORE} MB/s = {need} MB/s needed"


def _core_note(inv: Inventory) -> str:
    if inv.server.cores:
        return "physical cores as listed"
    return (
        "logical CPUs stand in for cores, which server.cores does not give: with SMT this "
        "overstates the need"
    )


def _check(out: Emitter, label: str, entries: tuple[Storage, ...], inv: Inventory) -> str:
    have, arithmetic = estimate(entries)
    need, need_text = _need(inv)
    summary = f"{arithmetic} for {label} vs {need_text}"
    if have < need:
        names = ", ".join(s.name for s in entries)
        out.warn(
            f"Estimated {label} throughput is short: {summary} ({have / need:.0%} of the "
            f"need; {names}). Per-disk rates are assumptions (sas-io-throughput: one HDD ≈ "
            "15–20 MB/s of SAS mixed I/O).",
            action=f"Measure it: dd 1 GB with bs=1024k to and from {entries[0].mount} as "
            "bartucca2005 did (Listing 2), then add spindles, stripe or move to solid state.",
            severity="high" if have < need * SHORTFALL_HIGH else "medium",
        )
    return summary


@rule(
    id="throughput.estimate",
    title="Storage throughput against 100 MB/s per core",
    sources=("sas-io-throughput", "xu", "bartucca2005"),
    settings=((SYSTEM, "I/O throughput target"),),
    inputs=(
        "server.cpus",
        "server.cores",
        "storage[].role",
        "storage[].raid",
        "storage[].disks",
        "storage[].media",
    ),
)
def throughput(inv: Inventory, out: Emitter) -> None:
    """Estimate what WORK and data storage deliver and warn where it falls short."""
    work = inv.by_role("work", "utilloc")
    data = inv.by_role("data")
    if not work and not data:
        out.skip("storage", "no storage with role work, utilloc or data to estimate")
        return
    summaries = [_check(out, label, e, inv) for label, e in (("WORK", work), ("data", data)) if e]
    need, need_text = _need(inv)
    out.set(
        SYSTEM,
        "I/O throughput target",
        f"{need} MB/s",
        kind="advice",
        rationale=f"Aim WORK/UTILLOC and permanent data at {need_text} each (sas-io-throughput "
        f"lower bound, 100–150 MB/s per core; {_core_note(inv)}). Estimates (assumed "
        "per-disk rates): "
        f"{'; '.join(summaries)}.",
        evidence="sas-io-throughput rule of thumb; bartucca2005 measured /raid0 at 118.9 MB/s "
        "write and 117.9 MB/s read with dd",
    )


RULES: tuple[Rule, ...] = (throughput,)
