"""Rules: threading and CPUCOUNT (sources: chew, pohl2007, bartucca2005, bogacz2012).

SAS 9 creates threads in proportion to CPUCOUNT, which defaulted to every CPU in the box
(chew l.86-92; still ACTUAL on Windows, 4 on UNIX boxes with more from 9.2). On a server
with many simultaneous users that multiplies: chew's 25 users on a 48-CPU system could
spawn 25 × 48 = 1200 threads, so the site config caps CPUCOUNT at "some reasonably small
number (ie: 4 or 6)" and users override as needed (l.96). The cap chosen here is the most
CPUs any kind of job in the mix is worth on a shared box: chew's own LOESS table under
chew's own rule (back off when the real time saved is less than the CPU time added, l.662)
gives 4; PROC TABULATE gains nothing past 2 (pohl2007 Table 3); a sort used a little more
than one CPU (bartucca2005 l.412). Sessions that each have at least that many CPUs at peak
(a lone session, or three on 192 cores) share nothing and get their share up to the 8 the
papers measured. Where the cap would still put the peak run queue in the red (chew l.629),
CPUCOUNT backs off, to 1 where the sessions alone fill the CPUs, so the value and the
run-queue warning never disagree. Where SPD Server runs on the box, its own WHERE threads
(MAXWHTHREADS) are counted in the load.
"""

from __future__ import annotations

import math

from rules.derive.cpu import (
    ANALYTICS_USEFUL_CPUS,
    MEASURED_MAX_CPUS,
    RUNQ_AMBER_PER_CPU,
    RUNQ_GREEN_PER_CPU,
    ceiling,
    cpucount,
    dedicated,
    default_cpucount,
    default_text,
    need_text,
    per_session,
    red,
    roomy,
    runq_per_cpu,
    sas_threads,
    shared_need,
    spds_sessions,
    spds_threads,
)
from rules.derive.labels import os_label
from rules.derive.spds import maxwhthreads
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, Rule, rule

# Each OS's way to hold a group of users to a share of the CPUs. chew (l.665) names Solaris
# Resource Manager; the others are their systems' counterparts (general administration
# knowledge, unconfirmed by the papers).
RESOURCE_MANAGERS = {
    "aix": "AIX WLM, the Workload Manager",
    "linux": "cgroups, through a systemd slice with CPUQuota= or AllowedCPUs=",
    "solaris": "projects with resource pools or the fair share scheduler, today's Solaris "
    "Resource Manager",
    "windows": "job objects with a CPU rate limit, or WSRM on older Windows Server",
    "hpux": "HP-UX Process Resource Manager, PRM",
}


def _manager(inv: Inventory) -> str:
    """'cgroups, through a systemd slice …; the counterpart of …, unconfirmed'."""
    found = RESOURCE_MANAGERS[inv.server.os]
    if inv.server.os == "solaris":
        return found
    return f"{found}; the counterpart of the Solaris Resource Manager chew names, unconfirmed"


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


def _load_text(inv: Inventory, value: int) -> str:
    """'15 SAS sessions × 2 + 35 SPD Server queries × MAXWHTHREADS 8 = 310 threads'."""
    sas = inv.workload.concurrent_sessions - spds_sessions(inv)
    text = f"{sas} SAS session{'s' if sas != 1 else ''} × {value}"
    if spds_threads(inv):
        text += (
            f" + {spds_sessions(inv)} SPD Server queries × MAXWHTHREADS {maxwhthreads(inv)} "
            "(bogacz2012 l.217; their SAS sessions wait on the server)"
        )
    return text + f" = {sas_threads(inv, value) + spds_threads(inv)} threads"


def _dedicated_text(inv: Inventory, value: int, load: str) -> str:
    return (
        f"One session on a dedicated box: every CPU up to {MEASURED_MAX_CPUS}, the most the "
        f"papers measured (chew LOESS still gaining at 8, l.582; pohl2007 Table 3 no loss "
        f"at 8) → {value}. chew's cap of 4–6 (l.96) is for many simultaneous users; a job "
        f"that cannot use the threads leaves them idle (bartucca2005 l.412). {load}"
    )


def _roomy_text(inv: Inventory, value: int, load: str) -> str:
    cpus, sessions = inv.server.cpus, inv.workload.concurrent_sessions
    return (
        f"{sessions} sessions on {cpus} CPUs leave each {per_session(inv)} CPUs at peak, at "
        f"least what the mix is worth on a shared box ({need_text(inv.workload.mix)}), so "
        f"each gets its share up to the {MEASURED_MAX_CPUS} the papers measured → {value}. "
        "chew's cap of 4–6 (l.96) is for many simultaneous users on a box they share past "
        "its CPUs; a job gets about its share whatever CPUCOUNT says (chew l.588-601: two "
        "CPUCOUNT=8 jobs on 8 CPUs took 6:47 each, near one job on 4 CPUs, 6:34 at l.580). "
        f"{load}"
    )


def _backoff_text(inv: Inventory, value: int) -> str:
    top = ceiling(inv)
    if value == top:
        return ""
    threads = sas_threads(inv, top) + spds_threads(inv)
    text = (
        f" At CPUCOUNT {top} the peak run queue would be "
        f"{runq_per_cpu(threads, inv.server.cpus):.1f} per CPU, red above "
        f"{RUNQ_AMBER_PER_CPU} (chew l.629), so CPUCOUNT backs off to {value}"
    )
    if red(inv, value):
        text += (
            ": the sessions alone fill the CPUs (see the warning), and threads then buy no "
            "time (chew l.588-601: eight CPUCOUNT=8 jobs on 8 CPUs averaged 23:40 each, about "
            "one job on one CPU, 21:31)"
        )
    return text + "."


def _rationale(inv: Inventory, value: int) -> str:
    cpus, sessions = inv.server.cpus, inv.workload.concurrent_sessions
    load = f"At peak: {_load_text(inv, value)} on {cpus} CPUs."
    if dedicated(inv):
        return _dedicated_text(inv, value, load)
    if roomy(inv):
        return _roomy_text(inv, value, load)
    top = ceiling(inv)
    fit = "within" if top == shared_need(inv.workload.mix) else "capped at"
    default = default_cpucount(inv)
    return (
        f"{sessions} simultaneous sessions share {cpus} CPUs, so the site config caps CPUCOUNT "
        f"(chew l.96: 25 × 48 = 1200 LWPs otherwise; 4 or 6). CPUs each kind in the mix is "
        f"worth on a shared box: {need_text(inv.workload.mix)}; the most of them, "
        f"{shared_need(inv.workload.mix)}, {fit} the {cpus} CPUs → {top}. Analytics stops at "
        f"{ANALYTICS_USEFUL_CPUS}: past it chew's LOESS saves less real time than it adds CPU "
        f"time (4→6 CPUs: 88 s saved, 260 s added), the point where chew (l.662) says back "
        f"off.{_backoff_text(inv, value)} {load} At the SAS default ({default_text(inv)}; "
        f"SAS CPUCOUNT= documentation) the SAS sessions alone could start {sessions} × "
        f"{default} = {sessions * default}. Users override "
        "with OPTIONS CPUCOUNT=n and should back off the same way (chew l.662); a group that "
        f"must be held to a share of the box needs a resource manager ({_manager(inv)}), not "
        "CPUCOUNT (chew l.665)."
    )


def _overload_action(inv: Inventory, threads: int) -> str:
    text = (
        "Check the r column of vmstat at peak (chew l.629-645). If it stays red: cap "
        f"concurrent sessions, or enforce shares with a resource manager ({_manager(inv)}; "
        "chew l.665: a department held to 6 of 48 CPUs still uses idle capacity when the box "
        "is quiet)"
    )
    if spds_threads(inv):
        text += ", or lower MAXWHTHREADS after the scalability test (bogacz2012 l.217-219)"
    if inv.workload.mix.analytics >= 0.5:
        need = math.ceil(threads / (1 + RUNQ_GREEN_PER_CPU))
        text += (
            f". For CPU-bound jobs more CPUs buy time predictably (chew l.621-623: pay more to "
            f"wait less): about {need} CPUs keep this load green"
        )
    return text + "."


def _warn_overload(inv: Inventory, value: int, out: Emitter) -> None:
    cpus = inv.server.cpus
    threads = sas_threads(inv, value) + spds_threads(inv)
    runq = runq_per_cpu(threads, cpus)
    if runq <= RUNQ_AMBER_PER_CPU:
        return
    waits = (
        " A ceiling, not a forecast: sessions doing I/O or waiting on SPD Server are not "
        "runnable (bogacz2012: 30 concurrent jobs done in 30-40 min, l.252, and two years "
        "without a performance issue, l.254)."
        if inv.workload.mix.analytics < 0.5
        else " chew (l.607-619): run times stretch linearly with the load (63 CPUCOUNT=8 "
        "jobs on 8 CPUs finished at the predicted 3 h 09 min)."
    )
    out.warn(
        f"{_load_text(inv, value)} on {cpus} CPUs if all are runnable at once: a run queue of "
        f"{runq:.1f} per CPU, red above {RUNQ_AMBER_PER_CPU} (chew l.629, Cockcroft's "
        f"thresholds).{waits}",
        action=_overload_action(inv, threads),
        severity="medium",
        sources=("chew", "bogacz2012") if spds_threads(inv) else ("chew",),
    )


@rule(
    id="cpu.cpucount_cap",
    title="CPUCOUNT: each session's share of the CPUs, chew's shared-box cap for many",
    sources=("chew", "pohl2007", "bartucca2005", "bogacz2012", "sas94-config", "sas94-cpucount"),
    settings=((SAS_CONFIG, "CPUCOUNT"),),
    inputs=(
        "server.cpus",
        "server.os",
        "sas.version",
        "sas.spds",
        "workload.concurrent_sessions",
        "workload.mix",
    ),
)
def cpucount_cap(inv: Inventory, out: Emitter) -> None:
    """CPUCOUNT from the papers' scaling; SPD Server's threads counted in the load."""
    value = cpucount(inv)
    out.set(
        SAS_CONFIG,
        "CPUCOUNT",
        str(value),
        rationale=_rationale(inv, value),
        evidence=(
            "chew l.96: 'Attention Systems Managers' box (25 × 48 = 1200 LWPs, cap at 4 or 6); "
            "chew l.577-582 LOESS table and l.662 back-off rule; pohl2007 Table 3 (l.308-315); "
            "bartucca2005 l.412"
        ),
        effect=(
            "pohl2007 Table 3: PROC TABULATE 87.2 % of the 1-CPU time at 2 CPUs, 85.5 % at 8; "
            "chew: LOESS 21:31 at 1 CPU → 4:04 at 8"
        ),
        gain_pct=POHL_2CPU_GAIN_PCT,
    )
    _warn_overload(inv, value, out)


RULES: tuple[Rule, ...] = (threads, cpucount_cap)
