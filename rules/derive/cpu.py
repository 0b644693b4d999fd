"""CPU facts: CPUs each kind of job can use, the run-queue bands, CPUCOUNT.

Sources: chew (the site cap for many simultaneous users l.96, the LOESS table l.577-582,
simultaneous CPUCOUNT=8 jobs l.588-601, "back CPUCOUNT off when the real time saved is
less than the CPU time added" l.662, Cockcroft's run-queue thresholds l.629), pohl2007
Table 3 (l.308-315), bartucca2005's sort (l.412), bogacz2012 (SPD Server's own threads,
l.217-219); SAS's CPUCOUNT= documentation for the default (sas94-cpucount).

CPUCOUNT follows the CPUs each session has at peak. chew's simultaneous CPUCOUNT=8 jobs
on 8 CPUs show a job gets about its share of the box whatever CPUCOUNT says: two took
6:47 each, near one job on 4 CPUs (6:34, l.580); eight took 23:40, near one job on one
CPU (21:31, l.601). So where the CPUs per session reach what the mix is worth, a session
gets its share (up to the measured 8); where they do not, chew's shared-box cap (l.96),
backed off until the peak run queue is out of Cockcroft's red (l.629), down to 1.
"""

from __future__ import annotations

import itertools
import math

from rules.derive.memo import per_inventory
from rules.derive.spds import maxwhthreads
from rules.inventory import Inventory, Mix

# chew l.577-582, PROC LOESS on an 8-way box, seconds: 21:31, 12:16, 6:34, 5:06, 4:04.
CHEW_LOESS_S: tuple[tuple[int, int], ...] = ((1, 1291), (2, 736), (4, 394), (6, 306), (8, 244))
# pohl2007 Table 3 (l.311-315, Unix): PROC TABULATE at 87.2 % of the 1-CPU time with 2
# CPUs, 86.4 % with 4, 85.5 % with 8 — under 2 points gained past 2.
SUMMARY_USEFUL_CPUS = 2
# bartucca2005 l.412: the 60 GB PROC SORT "only consumed a little more than one CPU worth
# of processing power on this 8-way system" — sort/ETL is I/O bound.
ETL_USEFUL_CPUS = 2
# A session that queries SPD Server waits while the server's threads (MAXWHTHREADS,
# bogacz2012 l.217) do the work; those threads are counted on their own. An inference from
# how SPD Server works, not a measured figure.
SPDS_QUERY_USEFUL_CPUS = 1
# The most CPUs any of the papers ran one SAS PROC on (chew l.582, pohl2007 l.315).
MEASURED_MAX_CPUS = 8

# Cockcroft's run-queue traffic lights as chew quotes them (l.629): RunQ per CPU up to 2
# is green, up to 5 amber, above 5 red. Run queue = runnable threads − CPUs (chew l.631:
# 8 × 4 = 32 LWPs on 4 CPUs gave a run queue of 28).
RUNQ_GREEN_PER_CPU = 2
RUNQ_AMBER_PER_CPU = 5
# SAS CPUCOUNT= documentation (sas94-cpucount): under Windows the default is ACTUAL; under
# UNIX it is ACTUAL, or 4 on machines with more than 4 processors (9.2+); on 9.1.3 it is
# every CPU (chew l.86).
SAS92_DEFAULT_CAP = 4


def worth_it(before: tuple[int, int], after: tuple[int, int]) -> bool:
    """chew l.662: a step up in CPUs pays while the real time saved exceeds the CPU time
    added. CPU time ≈ CPUs × real time for a CPU-bound PROC (chew l.341-355: every LWP
    near 100 %)."""
    (n0, t0), (n1, t1) = before, after
    return t0 - t1 > n1 * t1 - n0 * t0


def shared_useful_cpus(table: tuple[tuple[int, int], ...]) -> int:
    """The CPUs reached before chew's back-off rule first says stop (LOESS: 4)."""
    reached = table[0][0]
    for before, after in itertools.pairwise(table):
        if not worth_it(before, after):
            break
        reached = after[0]
    return reached


# chew's LOESS under chew's own rule: 1→2 and 2→4 pay, 4→6 saves 88 s for 260 s more CPU.
ANALYTICS_USEFUL_CPUS = shared_useful_cpus(CHEW_LOESS_S)

KINDS = (
    ("analytics", "analytics", ANALYTICS_USEFUL_CPUS, "chew LOESS l.577-582 with l.662"),
    ("summary", "summary", SUMMARY_USEFUL_CPUS, "pohl2007 Table 3"),
    ("etl", "ETL", ETL_USEFUL_CPUS, "bartucca2005 l.412"),
    ("spds_query", "SPD Server queries", SPDS_QUERY_USEFUL_CPUS, "inference: SPD Server threads"),
)


def kinds_present(mix: Mix) -> list[tuple[str, int, str]]:
    return [(label, n, cite) for key, label, n, cite in KINDS if getattr(mix, key) > 0]


def shared_need(mix: Mix) -> int:
    """CPUs worth one session on a shared box: the most any kind in the mix can use."""
    return max([n for _, n, _ in kinds_present(mix)] or [1])


def need_text(mix: Mix) -> str:
    """'ETL 2 (bartucca2005 l.412), SPD Server queries 1 (inference …)'."""
    return ", ".join(f"{label} {n} ({cite})" for label, n, cite in kinds_present(mix))


@per_inventory
def dedicated(inv: Inventory) -> bool:
    return inv.workload.concurrent_sessions == 1


def per_session(inv: Inventory) -> int:
    """The CPUs each session has at peak: CPUs over sessions, rounded down (0 when the
    sessions outnumber the CPUs)."""
    return inv.server.cpus // inv.workload.concurrent_sessions


@per_inventory
def roomy(inv: Inventory) -> bool:
    """Each session has at least the CPUs the mix is worth: the box is not shared past
    its CPUs, so chew's many-user cap (l.96) has nothing to guard against."""
    return per_session(inv) >= min(shared_need(inv.workload.mix), inv.server.cpus)


@per_inventory
def ceiling(inv: Inventory) -> int:
    """CPUCOUNT before the run-queue check: a session's share up to the measured 8 where
    the box has room, else the mix's shared need (chew's cap), never above the CPUs."""
    if roomy(inv):
        return max(1, min(per_session(inv), MEASURED_MAX_CPUS))
    return max(1, min(shared_need(inv.workload.mix), inv.server.cpus))


def red(inv: Inventory, value: int) -> bool:
    """The peak run queue at this CPUCOUNT is in Cockcroft's red (chew l.629)."""
    threads = sas_threads(inv, value) + spds_threads(inv)
    return runq_per_cpu(threads, inv.server.cpus) > RUNQ_AMBER_PER_CPU


@per_inventory
def cpucount(inv: Inventory) -> int:
    """The ceiling, backed off while the peak run queue would be red; 1 at the least."""
    value = ceiling(inv)
    while value > 1 and red(inv, value):
        value -= 1
    return value


def cores_in_use(inv: Inventory, cores: int) -> int:
    """Cores the peak load keeps busy: SAS sessions × CPUCOUNT plus SPD Server's threads,
    at most the cores there are."""
    return min(cores, sas_threads(inv, cpucount(inv)) + spds_threads(inv))


@per_inventory
def spds_sessions(inv: Inventory) -> int:
    """Sessions querying SPD Server at peak: the spds_query share, rounded up."""
    if inv.sas.spds is None:
        return 0
    return math.ceil(inv.workload.concurrent_sessions * inv.workload.mix.spds_query - 1e-9)


@per_inventory
def spds_threads(inv: Inventory) -> int:
    """SPD Server's own threads at peak: each query's WHERE runs MAXWHTHREADS threads."""
    return spds_sessions(inv) * maxwhthreads(inv) if inv.sas.spds else 0


def sas_threads(inv: Inventory, value: int) -> int:
    """SAS sessions' threads; a session waiting on SPD Server runs none of its own."""
    return (inv.workload.concurrent_sessions - spds_sessions(inv)) * value


def runq_per_cpu(threads: int, cpus: int) -> float:
    """Run queue per CPU when every thread is runnable at once (chew's arithmetic)."""
    return max(0, threads - cpus) / cpus


@per_inventory
def default_cpucount(inv: Inventory) -> int:
    """SAS's own default: ACTUAL (every CPU) on Windows and on 9.1.3; from 9.2 on UNIX, 4 on
    boxes with more than 4 (sas94-cpucount)."""
    cpus = inv.server.cpus
    if inv.server.os == "windows" or not inv.sas.at_least_92:
        return cpus
    return min(cpus, SAS92_DEFAULT_CAP)


def default_text(inv: Inventory) -> str:
    """'CPUCOUNT=ACTUAL, all 16 CPUs on Windows' or 'CPUCOUNT 4 on UNIX with more than 4'."""
    value = default_cpucount(inv)
    if inv.server.os == "windows":
        return f"CPUCOUNT=ACTUAL, all {value} CPUs on Windows"
    if not inv.sas.at_least_92:
        return f"CPUCOUNT = every CPU on SAS {inv.sas.version}, {value} here"
    if value < inv.server.cpus:
        return f"CPUCOUNT {value} on UNIX boxes with more than {value} CPUs"
    return f"CPUCOUNT=ACTUAL, {value} here"
