"""CPU facts: what one job of the mix can use, the run-queue bands, CPUCOUNT.

Sources: chew (Cockcroft's run-queue thresholds, LOESS scaling), pohl2007 Table 3,
bartucca2005's first run, bogacz2012; SAS 9.2/9.3 documentation for the default cap.
"""

from __future__ import annotations

import math

from rules.inventory import Inventory, Mix

# CPUs one job of each kind can use before the speed-up flattens.
# pohl2007 Table 3 (Unix): DATA step → PROC TABULATE at 87.2 % of the 1-CPU time with 2
# CPUs, 86.4 % with 4, 85.5 % with 8 — nothing gained past 2.
SUMMARY_USEFUL_CPUS = 2
# chew, LOESS scaling table on an 8-way box: 21:31, 12:16, 6:34, 5:06, 4:04 at 1, 2, 4, 6, 8
# CPUs — still gaining at 8; nothing was measured beyond 8.
ANALYTICS_USEFUL_CPUS = 8
# bartucca2005 first run: the 60 GB PROC SORT "only consumed a little more than one CPU"
# of 8 (user 24:43 in 33:35 real) — sort/ETL is I/O bound.
ETL_USEFUL_CPUS = 2
# SPD Server queries thread inside the server (MAXWHTHREADS, bogacz2012); the client SAS
# session mostly waits on it. An inference from how SPD Server works, not a measured figure.
SPDS_QUERY_USEFUL_CPUS = 1

# Cockcroft's run-queue traffic lights as chew quotes them: RunQ per CPU up to 2 is green,
# up to 5 amber, above 5 red. Run queue = runnable threads − CPUs (chew: 8 × 4 = 32 LWPs on
# 4 CPUs gave a run queue of 28). chew's follow-on figure, "another 24 CPUs" to meet the
# thresholds for that load, cannot be rebuilt from the text, so no rule leans on it.
RUNQ_GREEN_PER_CPU = 2
RUNQ_AMBER_PER_CPU = 5
# SAS 9.2/9.3 docs (notes): CPUCOUNT defaults to ACTUAL, or 4 on machines with more than
# 4 processors; on 9.1.3 it is every CPU (chew).
SAS92_DEFAULT_CAP = 4


def useful_cpus(mix: Mix) -> float:
    """CPUs one job can use, weighted by the workload mix."""
    return (
        mix.summary * SUMMARY_USEFUL_CPUS
        + mix.analytics * ANALYTICS_USEFUL_CPUS
        + mix.etl * ETL_USEFUL_CPUS
        + mix.spds_query * SPDS_QUERY_USEFUL_CPUS
    )


def green_thread_budget(cpus: int) -> int:
    """Runnable threads the box takes while the run queue stays green (≤ 2 per CPU)."""
    return cpus * (1 + RUNQ_GREEN_PER_CPU)


def runq_per_cpu(threads: int, cpus: int) -> float:
    """Run queue per CPU when every thread is runnable at once (chew's arithmetic)."""
    return max(0, threads - cpus) / cpus


def workload_need(inv: Inventory) -> int:
    """The mix's useful CPUs, rounded half up, at least 1."""
    return max(1, math.floor(useful_cpus(inv.workload.mix) + 0.5))


def fair_share(inv: Inventory) -> int:
    """Threads per session that keep the whole box's run queue green (may be 0)."""
    return green_thread_budget(inv.server.cpus) // inv.workload.concurrent_sessions


def cpucount(inv: Inventory) -> int:
    """The workload's need, capped by the fair share, never above cpus, at least 1."""
    return max(1, min(workload_need(inv), fair_share(inv), inv.server.cpus))


MIX_LABELS = (
    ("summary", "summary", SUMMARY_USEFUL_CPUS, "pohl2007"),
    ("analytics", "analytics", ANALYTICS_USEFUL_CPUS, "chew LOESS"),
    ("etl", "ETL", ETL_USEFUL_CPUS, "bartucca2005"),
    ("spds_query", "SPDS queries", SPDS_QUERY_USEFUL_CPUS, "bogacz2012"),
)


def need_text(mix: Mix) -> str:
    """'ETL 30 % × 2 (bartucca2005) + SPDS queries 70 % × 1 (bogacz2012) = 1.3'."""
    parts = [
        f"{label} {getattr(mix, key):.0%} × {cpus} ({cite})"
        for key, label, cpus, cite in MIX_LABELS
        if getattr(mix, key) > 0
    ]
    return " + ".join(parts) + f" = {useful_cpus(mix):.3g}"


def default_cpucount(inv: Inventory) -> int:
    """SAS's own default: every CPU on 9.1.3; from 9.2, 4 on boxes with more than 4 (notes)."""
    cpus = inv.server.cpus
    return min(cpus, SAS92_DEFAULT_CAP) if inv.sas.at_least_92 else cpus
