"""SPD Server memory, threads and partition size (spdsserv.parm).

Sources: bogacz2012 — SORTSIZE, INDEX_SORTSIZE and GRPBYROWCACHE of 1024M on 64 GB with
30–50 daily users; MAXWHTHREADS=8 after a scalability test (threads 1, 2, 4, 6, 8, 16) whose
curve went flat past 8 on 8 CPUs; MINPARTSIZE raised from 256M to 1024M (280 GB table →
273 DPFs, 17 per data path). spds5-docs — SORTSIZE is split over the sort threads and
should give each 256 MB–1 GB; MAXSORTTHREADS defaults to MAXWHTHREADS; MAXWHTHREADS
defaults to half the cores.
"""

from __future__ import annotations

import math

from rules.derive.hardware import processors
from rules.derive.memory import SPDS_MEMORY_SHARE, SPDS_SORT_CAP_MB, spds_session_mb
from rules.derive.scope import with_spds
from rules.derive.spds import (
    SPDS_MAXWHTHREADS_CAP,
    is_5x,
    maxwhthreads,
    planned_paths,
    spindle_paths,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import PROGRAM, SPDSSERV, SYSTEM, rule
from rules.payloads import CodeExample
from rules.units import parse_size_mb

SPDS_SORT_THREAD_MIN_MB = 256  # spds5-docs: lower end per parallel sort thread
# bogacz2012 moved MINPARTSIZE from 256M to 1024M; the advisor stays within that range.
SPDS_PARTSIZES_MB = (1024, 512, 256)
# "Too many DPF files may cause overhead" (bogacz2012) — the paper gives no figure; its
# largest table made 273. Above this the advisor suggests a per-table PARTSIZE.
SPDS_MANY_DPFS = 1000
SPDS_TARGET_DPFS_PER_PATH = 17  # bogacz2012: 273 DPFs over 16 paths


MEMORY_ROLES = (
    ("SORTSIZE", "sorts"),
    ("INDEX_SORTSIZE", "sorts that build indexes"),
    ("GRPBYROWCACHE", "parallel GROUP BY"),
)


def _memory_derivation(inv: Inventory) -> tuple[int, str]:
    ram_mb = inv.server.ram_mb
    sessions = inv.workload.concurrent_sessions
    budget = ram_mb * SPDS_MEMORY_SHARE
    per_session = budget / sessions
    value = spds_session_mb(inv)
    text = (
        f"{inv.server.ram_gb:g} GB RAM × {SPDS_MEMORY_SHARE:.0%} = {budget:,.1f} MB / "
        f"{sessions} concurrent sessions = {per_session:,.1f} MB → {value}M "
        f"(power of two at or below, capped at {SPDS_SORT_CAP_MB}M)"
    )
    return value, text


@rule(
    id="spds.memory",
    title="SPD Server sort and group-by memory from RAM and sessions",
    sources=("bogacz2012", "spds5-docs"),
    settings=(*((SPDSSERV, name) for name, _ in MEMORY_ROLES), (SPDSSERV, "MAXMEMORYSIZE")),
    applies=with_spds,
    inputs=("server.ram_gb", "workload.concurrent_sessions", "sas.spds.version"),
)
def memory(inv: Inventory, out: Emitter) -> None:
    """SORTSIZE, INDEX_SORTSIZE, GRPBYROWCACHE = RAM share / sessions, power of two, ≤ 1024M."""
    value, text = _memory_derivation(inv)
    note = ""
    if is_5x(inv):
        note = " SPD Server 5.x splits SORTSIZE over the sort's threads (see MAXSORTTHREADS)."
    if value < SPDS_SORT_THREAD_MIN_MB:
        out.warn(
            f"Only {value}M of sort memory per session: below the {SPDS_SORT_THREAD_MIN_MB} MB "
            "per sort thread the SPD Server 5.3 guide recommends; sorts will spill to WORKPATH.",
            action="Add RAM or lower concurrent SPD Server sessions.",
            severity="medium",
        )
    for name, purpose in MEMORY_ROLES:
        out.set(
            SPDSSERV,
            name,
            f"{value}M",
            rationale=f"Memory for {purpose}: {text}, so every session can hold it at once "
            "without paging (bogacz2012 l.211 counts one of the three per job at a time; the "
            "SAS sessions' MEMSIZE is budgeted from what is left, see memory.memsize). Jobs "
            "that need more override it in their programs, as bogacz2012's few jobs above "
            "2 GB did, or their users get a larger value in the ---HIGH--- section of "
            "spdsserv.parm (SPD Server guide, Server Performance Levels)."
            f"{note if name == 'SORTSIZE' else ''}",
            evidence="bogacz2012: 1024M each on 64 GB with 30–50 users",
            effect="bogacz2012: 20 concurrent jobs finished in 19–21 min instead of hanging",
        )
    if is_5x(inv):
        _maxmemorysize(inv, out, value)


def _maxmemorysize(inv: Inventory, out: Emitter, value: int) -> None:
    """5.x: a ceiling per SPDSBASE process; left at its default, said why."""
    out.set(
        SPDSSERV,
        "MAXMEMORYSIZE",
        "unlimited (the default; not written)",
        rationale=f"SPD Server 5.x caps each SPDSBASE process, and every memory parameter "
        f"under it, with MAXMEMORYSIZE (default unlimited). A cap at the {value}M budgeted "
        "per session would stop the per-job overrides above 2 GB bogacz2012 (l.211) relied "
        "on, so it is left out. If one user's job can take the box, set it to the largest "
        "override you allow (MAXMEMORYSIZE=4G; caps SORTSIZE and its kin too).",
        evidence="spds5-docs: MAXMEMORYSIZE= parameter file option, default unlimited; "
        "all server memory size options are constrained by it",
        kind="advice",
    )


def _test_series(cpus: int) -> list[int]:
    """bogacz2012's thread counts for 8 CPUs were 1, 2, 4, 6, 8, 16: powers of two up to
    twice the CPUs plus three quarters of them."""
    series = {1 << k for k in range(int(math.log2(2 * cpus)) + 1)}
    series.add(max(1, cpus * 3 // 4))
    return sorted(series)


@rule(
    id="spds.threads",
    title="MAXWHTHREADS from the CPU count, confirmed by a scalability test",
    sources=("bogacz2012", "spds5-docs"),
    settings=(
        (SPDSSERV, "MAXWHTHREADS"),
        (SPDSSERV, "MAXSORTTHREADS"),
        (SYSTEM, "MAXWHTHREADS scalability test"),
    ),
    applies=with_spds,
    inputs=("server.cpus", "server.cores", "server.smt_threads", "sas.spds.version"),
    reads=((SPDSSERV, "SORTSIZE"),),
)
def threads(inv: Inventory, out: Emitter) -> None:
    """MAXWHTHREADS = CPUs (≤ 16, the paper's largest test); run %IOSCALE to confirm."""
    count, cpus = processors(inv)
    value = maxwhthreads(inv)
    default = " (the 5.x default would be half the cores)" if is_5x(inv) else ""
    out.set(
        SPDSSERV,
        "MAXWHTHREADS",
        str(value),
        rationale=f"{cpus} → {value} threads per parallel WHERE task, capped at "
        f"{SPDS_MAXWHTHREADS_CAP}, the most bogacz2012 measured{default}; the paper's run "
        "time curve went flat past one thread per CPU.",
        evidence="bogacz2012 Figure 3: threads 1–16 on 8 CPUs, flat after 8",
        effect="more threads than that only add thread starvation (bogacz2012)",
    )
    series = ", ".join(str(n) for n in _test_series(count))
    out.set(
        SYSTEM,
        "MAXWHTHREADS scalability test",
        series,
        rationale=f"Time the %IOSCALE macro (Etri 2009) reading one large table with "
        f"MAXWHTHREADS = {series}; keep the smallest count after which the curve is flat.",
        evidence="bogacz2012: SAS Support recommended the test; it gave 8 on 8 CPUs",
        kind="check",
    )
    if is_5x(inv):
        _sort_threads(inv, out, value)


def _sort_threads(inv: Inventory, out: Emitter, maxwh: int) -> None:
    sortsize = out.get(SPDSSERV, "SORTSIZE")
    if sortsize is None:
        out.skip("sas.spds", "SORTSIZE was not set, so MAXSORTTHREADS cannot be derived")
        return
    size_mb = int(parse_size_mb(sortsize.value))
    value = max(1, min(maxwh, size_mb // SPDS_SORT_THREAD_MIN_MB))
    out.set(
        SPDSSERV,
        "MAXSORTTHREADS",
        str(value),
        rationale=f"SORTSIZE {size_mb}M / {SPDS_SORT_THREAD_MIN_MB} MB per sort thread = "
        f"{size_mb // SPDS_SORT_THREAD_MIN_MB}, at least 1 and at most MAXWHTHREADS {maxwh} → "
        f"{value}; left "
        f"to default it would copy MAXWHTHREADS and give {size_mb / maxwh:g} MB per thread.",
        evidence="spds5-docs: keep SORTSIZE / MAXSORTTHREADS between 256 MB and 1 GB",
    )


def _choose_partsize(largest_mb: float, paths: int) -> tuple[int, int]:
    """The largest size that still gives every data path a partition of the largest table."""
    for size in SPDS_PARTSIZES_MB:
        dpfs = math.ceil(largest_mb / size)
        if dpfs >= paths:
            return size, dpfs
    smallest = SPDS_PARTSIZES_MB[-1]
    return smallest, math.ceil(largest_mb / smallest)


@rule(
    id="spds.partsize",
    title="MINPARTSIZE from the largest table and the data paths (DPF arithmetic)",
    sources=("bogacz2012", "spds5-docs"),
    settings=((SPDSSERV, "MINPARTSIZE"), (PROGRAM, "PARTSIZE")),
    applies=with_spds,
    inputs=(
        "workload.largest_table_gb",
        "server.cpus",
        "server.cores",
        "server.smt_threads",
        "storage[].role",
        "storage[].media",
        "storage[].san",
    ),
)
def partsize(inv: Inventory, out: Emitter) -> None:
    """MINPARTSIZE: largest of 1024M/512M/256M with at least one DPF per data path."""
    largest_gb = inv.workload.largest_table_gb
    if largest_gb <= 0:
        out.skip("workload.largest_table_gb", "0: no table size to derive partitions from")
        return
    paths = planned_paths(inv)
    size, dpfs = _choose_partsize(largest_gb * 1024, paths)
    out.set(
        SPDSSERV,
        "MINPARTSIZE",
        f"{size}M",
        rationale=_partsize_rationale(inv, size, dpfs, paths),
        evidence="bogacz2012: 280 GB / 1024M = 273 DPFs, 17 per path on 16 file systems; "
        "MINPARTSIZE raised from 256M to 1024M",
        effect="fewer, larger partitions mean fewer open files while every path still "
        "works in parallel (bogacz2012)",
    )
    if dpfs > SPDS_MANY_DPFS:
        _table_partsize(inv, out, size, dpfs, paths)


def _partsize_rationale(inv: Inventory, size: int, dpfs: int, paths: int) -> str:
    largest_gb = inv.workload.largest_table_gb
    have = len(inv.by_role("spds_data"))
    span = "" if dpfs >= paths else f"; even at {size}M it spans only {dpfs} of {paths} paths"
    why = (
        f"two per CPU; {have} exist today"
        if spindle_paths(inv)
        else "the ones listed: solid state or SAN LUNs, see spds.data_paths"
    )
    return (
        f"Largest table {largest_gb:g} GB = {largest_gb * 1024:,.0f} MB / {size}M = {dpfs} "
        f"DPFs; over {paths} data paths ({why}) = "
        f"{dpfs / paths:.1f} per path. {size}M is the largest of "
        f"{'/'.join(f'{s}M' for s in SPDS_PARTSIZES_MB)} that gives every path at least one "
        f"partition{span}. Units are binary (1 GB = 1024 MB); bogacz2012 counted 280 000 MB "
        "for its 280 GB table and so gives 273 DPFs where binary units give 280."
    )


def table_partsize_mb(largest_mb: float, paths: int) -> int:
    """PARTSIZE (MB) giving about 17 DPFs per path, the paper's ratio (may be ≤ MINPARTSIZE)."""
    return math.ceil(largest_mb / (paths * SPDS_TARGET_DPFS_PER_PATH))


def _table_partsize(inv: Inventory, out: Emitter, minpart: int, dpfs: int, paths: int) -> None:
    """A per-table PARTSIZE only where it is above MINPARTSIZE: the User's Guide says a
    PARTSIZE= must be greater than MINPARTSIZE= to have any effect, and a smaller one would
    mean more partitions, the opposite of bogacz2012's reason for raising it."""
    largest_mb = inv.workload.largest_table_gb * 1024
    part = table_partsize_mb(largest_mb, paths)
    if part <= minpart:
        out.warn(
            f"The largest table makes {dpfs} DPFs at MINPARTSIZE {minpart}M (over "
            f"{SPDS_MANY_DPFS}), yet {SPDS_TARGET_DPFS_PER_PATH} per path over {paths} paths "
            f"would take PARTSIZE={part}, not above MINPARTSIZE, which SPD Server ignores.",
            action="Leave PARTSIZE at MINPARTSIZE; the DPF count follows from the many data "
            "paths. Watch open files (ulimit -n) when that table is read.",
            severity="low",
        )
        return
    out.set(
        PROGRAM,
        "PARTSIZE",
        str(part),
        rationale=f"The largest table makes {dpfs} DPFs at MINPARTSIZE {minpart}M (over "
        f"{SPDS_MANY_DPFS}); PARTSIZE={part} (MB) on that table gives about "
        f"{SPDS_TARGET_DPFS_PER_PATH} per path over {paths} paths, the paper's ratio, and is "
        f"above MINPARTSIZE, which a PARTSIZE must exceed to have any effect.",
        evidence="bogacz2012: data client.Online_RxClaims (partsize=5820); set … ; run; "
        "spds5-docs (User's Guide, PARTSIZE= table option): must be greater than MINPARTSIZE=",
        kind="advice",
        payload=CodeExample(f"data lib.big (partsize={part}); set work.big; run;"),
    )


RULES = (memory, threads, partsize)
