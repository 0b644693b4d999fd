"""Rules: threading and CPUCOUNT (sources: chew, pohl2007, bartucca2005, bogacz2012).

SAS 9 creates threads in proportion to CPUCOUNT, which defaults to every CPU in the box
(chew). On a shared server that multiplies: chew's 25 users on a 48-CPU system could spawn
25 × 48 = 1200 threads. The cap chosen here is what the workload can use (the papers'
scaling measurements, weighted by the inventory's mix) limited to a fair share of the
CPUs, so that sessions × CPUCOUNT stays inside Cockcroft's "green" run queue (chew).
"""

from __future__ import annotations

import math

from rules.inventory import Inventory, Mix
from rules.model import SAS_CONFIG, Emitter, Rule, rule

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

OS_LABELS = {
    "aix": "AIX", "linux": "Linux", "solaris": "Solaris", "hpux": "HP-UX", "windows": "Windows",
}  # fmt: skip


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


@rule(
    id="cpu.threads",
    title="Keep threading on",
    sources=("chew", "pohl2007"),
    settings=((SAS_CONFIG, "THREADS"),),
)
def threads(inv: Inventory, out: Emitter) -> None:
    """THREADS, written out explicitly so CPUCOUNT is the one knob that limits threading.

    Every OS the contract names supports threads, so THREADS is always set; it is a flag
    option, emitted with an empty value (the config line is `-THREADS`).
    """
    out.set(
        SAS_CONFIG,
        "THREADS",
        "",
        rationale=(
            f"{OS_LABELS[inv.server.os]} supports threads, so SAS 9 turns THREADS on by "
            "default; it is written out so that CPUCOUNT, not NOTHREADS, limits threading."
        ),
        evidence="chew: THREADS and CPUCOUNT global options; pohl2007: THREADS in all runs",
        effect="pohl2007 Table 3: threaded PROC TABULATE at 87.2 % of the 1-CPU run time",
    )


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


def _rationale(inv: Inventory, value: int) -> str:
    cpus, sessions = inv.server.cpus, inv.workload.concurrent_sessions
    need = workload_need(inv)
    text = f"One job of this mix uses {need_text(inv.workload.mix)} CPUs → {need}"
    if sessions == 1:
        fits = "within" if need <= cpus else "capped at"
        return text + f", {fits} the {cpus} CPUs: 1 session × {value} = {value} threads."
    default = default_cpucount(inv)
    return text + (
        f"; a green run queue (≤ {RUNQ_GREEN_PER_CPU} per CPU) allows {cpus} running + "
        f"{RUNQ_GREEN_PER_CPU * cpus} queued = {green_thread_budget(cpus)} threads / "
        f"{sessions} sessions = {fair_share(inv)} each"
        f"{', at least 1' if fair_share(inv) < 1 else ''}. {sessions} sessions × {value} = "
        f"{sessions * value} threads on {cpus} CPUs, against {sessions} × {default} = "
        f"{sessions * default} at the SAS default; users can override with OPTIONS CPUCOUNT=n."
    )


def _warn_overload(inv: Inventory, value: int, out: Emitter) -> None:
    cpus, sessions = inv.server.cpus, inv.workload.concurrent_sessions
    threads = sessions * value
    runq = runq_per_cpu(threads, cpus)
    if runq <= RUNQ_AMBER_PER_CPU:
        return
    out.warn(
        f"{sessions} sessions × CPUCOUNT {value} = {threads} threads on {cpus} CPUs: a run "
        f"queue of {runq:.1f} per CPU when all are busy, red above {RUNQ_AMBER_PER_CPU} "
        "(chew, Cockcroft's thresholds). Run times stretch linearly with the load (chew: "
        "63 CPUCOUNT=8 jobs on 8 CPUs finished at the predicted 3 h 09 min).",
        action=(
            f"Add CPUs (about {math.ceil(threads / (1 + RUNQ_GREEN_PER_CPU))} in all keep this "
            "load green), cap concurrent sessions, or enforce shares with a resource manager "
            "(AIX WLM, Solaris Resource Manager)."
        ),
        severity="medium",
        sources=("chew",),
    )


@rule(
    id="cpu.cpucount_cap",
    title="Cap CPUCOUNT to what the workload uses and the box can share",
    sources=("chew", "pohl2007", "bartucca2005", "bogacz2012", "sas94-config"),
    settings=((SAS_CONFIG, "CPUCOUNT"),),
)
def cpucount_cap(inv: Inventory, out: Emitter) -> None:
    """CPUCOUNT from the mix's measured scaling, capped so sessions × CPUCOUNT stays green."""
    value = cpucount(inv)
    out.set(
        SAS_CONFIG,
        "CPUCOUNT",
        str(value),
        rationale=_rationale(inv, value),
        evidence=(
            "chew: 'Attention Systems Managers' box (25 × 48 = 1200 LWPs, cap at 4 or 6), "
            "LOESS scaling table, RunQ thresholds; pohl2007 Table 3; bartucca2005 first run"
        ),
        effect=(
            "pohl2007 Table 3: PROC TABULATE 87.2 % of the 1-CPU time at 2 CPUs, 85.5 % at 8; "
            "chew: LOESS 21:31 at 1 CPU → 4:04 at 8"
        ),
    )
    _warn_overload(inv, value, out)


RULES: tuple[Rule, ...] = (threads, cpucount_cap)
