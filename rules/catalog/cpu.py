"""Rules: threading and CPUCOUNT (sources: chew, pohl2007, bartucca2005, bogacz2012).

SAS 9 creates threads in proportion to CPUCOUNT, which defaults to every CPU in the box
(chew). On a shared server that multiplies: chew's 25 users on a 48-CPU system could spawn
25 × 48 = 1200 threads. The cap chosen here is what the workload can use (the papers'
scaling measurements, weighted by the inventory's mix) limited to a fair share of the
CPUs, so that sessions × CPUCOUNT stays inside Cockcroft's "green" run queue (chew).
"""

from __future__ import annotations

import math

from rules.derive.cpu import (
    RUNQ_AMBER_PER_CPU,
    RUNQ_GREEN_PER_CPU,
    cpucount,
    default_cpucount,
    fair_share,
    green_thread_budget,
    need_text,
    runq_per_cpu,
    workload_need,
)
from rules.derive.labels import os_label
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, Rule, rule

# pohl2007 Table 3 (Unix): the threaded PROC TABULATE at 87.2 % of the 1-CPU run time.
POHL_2CPU_GAIN_PCT = 12.8


@rule(
    id="cpu.threads",
    title="Keep threading on",
    sources=("chew", "pohl2007"),
    settings=((SAS_CONFIG, "THREADS"),),
    inputs=("server.os",),
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
            f"{os_label(inv.server.os)} supports threads, so SAS 9 turns THREADS on by "
            "default; it is written out so that CPUCOUNT, not NOTHREADS, limits threading."
        ),
        evidence="chew: THREADS and CPUCOUNT global options; pohl2007: THREADS in all runs",
        effect="pohl2007 Table 3: threaded PROC TABULATE at 87.2 % of the 1-CPU run time",
        gain_pct=POHL_2CPU_GAIN_PCT,
    )


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
    inputs=("server.cpus", "sas.version", "workload.concurrent_sessions", "workload.mix"),
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
        gain_pct=POHL_2CPU_GAIN_PCT,
    )
    _warn_overload(inv, value, out)


RULES: tuple[Rule, ...] = (threads, cpucount_cap)
