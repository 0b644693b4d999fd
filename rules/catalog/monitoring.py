"""Rules: what to measure and where the alarms sit (sources: chew, bartucca2005).

chew's cookbook reads a box with iostat (service time over 50 ms or more than 20 % busy),
the run queue (Cockcroft's green ≤ 2 per CPU, amber ≤ 5, red above), trapstat for TLB
misses (5–10 % of the time or more is a problem) and the FULLSTIMER log (real time far
above CPU time means the job waits on something else). bartucca2005 tuned lemans with
FULLSTIMER, filemon and topas. Each check names the tool for the inventory's OS; on AIX the
paging check follows the release (notes: 6.1+ defaults already protect SAS's memory).
"""

from __future__ import annotations

from rules.derive.cpu import RUNQ_AMBER_PER_CPU, RUNQ_GREEN_PER_CPU
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SAS_CONFIG, SYSTEM, Rule, rule
from rules.payloads import Watch

# chew, "Performance Monitoring Tools": iostat -xtc 5 — watch any disk with a consistent
# service time (svc_t) above 50 ms or more than 20 % busy.
DISK_SERVICE_MS = 50
DISK_BUSY_PCT = 20
# chew, trapstat -t: "anything in the 5–10 % or higher range … is likely to be a problem";
# LOESS showed ~30 %, IML ~20 %, and large pages brought both under 2–3 %.
TLB_MISS_PCT = 5
# chew: real time much larger than user CPU time points at another constraint.
# bartucca2005's second run (direct I/O) was diagnosed as I/O wait at 52:32 real against
# 24:41 user + 8:29 system = 1.58×; its first run sat at 0.87×. The cut between is ours.
IO_BOUND_REAL_OVER_CPU = 1.5

# The papers every check rests on; the AIX 6.1+ paging note adds IBM's documentation.
CHECK_SOURCES = ("chew", "bartucca2005")

DISK = "iostat service time and busy"
RUNQ = "run queue per CPU"
PAGING = "paging"
TLB = "TLB miss time"
REAL_VS_CPU = "FULLSTIMER real vs CPU time"

DISK_TOOLS = {
    "aix": "iostat -D 5 (avgserv, %tm_act); filemon -O lv,pv for per-volume detail",
    "solaris": "iostat -xtc 5 (svc_t, %b)",
    "linux": "iostat -x 5 (await, %util)",
    "hpux": "sar -d 5 (avserv, %busy)",
    "windows": "Performance Monitor: PhysicalDisk Avg. Disk sec/Transfer, % Disk Time",
}
RUNQ_TOOLS = {
    "aix": "vmstat 5 (r column) or topas",
    "solaris": "vmstat 5 (r column), mpstat 5, prstat -L -m",
    "linux": "vmstat 5 (r column) or sar -q",
    "hpux": "sar -q 5",
    "windows": "Performance Monitor: System\\Processor Queue Length",
}
# Only Solaris's tools are chew's; the others are the platforms' equivalents.
TLB_TOOLS = {
    "solaris": "trapstat -t 3 (Solaris 9+), cputrack",
    "aix": "hpmstat (hardware counters; an equivalent, not named by chew)",
    "linux": "perf stat -e dTLB-load-misses,dTLB-loads (an equivalent, not named by chew)",
}
# The remedy when TLB time is high. chew's is Solaris's (l.533–535: ISM MAP, standing in
# for Solaris 9's MPSS); the other platforms' large-page switches are not from chew and
# are unconfirmed here.
LARGE_PAGES = {
    "solaris": "Solaris 9+ MPSS (multiple page size support; ISM MAP on earlier releases)",
    "aix": "AIX large pages (vmo lgpg_regions/lgpg_size, LDR_CNTRL=LARGE_PAGE_DATA=Y; "
    "unconfirmed, not from chew)",
    "linux": "explicit huge pages (unconfirmed, not from chew; SAS profiles usually turn "
    "transparent huge pages off)",
}
PAGING_TOOLS = {
    "solaris": "vmstat -p 5 (executable pages paged out: a serious RAM shortage, chew)",
    "linux": "vmstat 5 (si, so) and sar -B",
    "hpux": "vmstat 5 (pi, po)",
    "windows": "Performance Monitor: Memory\\Pages/sec",
}


@rule(
    id="monitoring.fullstimer",
    title="Log full resource statistics for every step",
    sources=("chew", "bartucca2005"),
    settings=((SAS_CONFIG, "FULLSTIMER"),),
    inputs=(),
)
def fullstimer(inv: Inventory, out: Emitter) -> None:
    """FULLSTIMER, a flag option (empty value): the log lines every later check reads."""
    out.set(
        SAS_CONFIG,
        "FULLSTIMER",
        "",
        rationale=(
            "Every step then logs real, user and system CPU time, memory, page faults and "
            "context switches, the figures chew and bartucca2005 tuned from."
        ),
        evidence=(
            "chew: real 4:14.61 against user 23:36.91 shows a scalable PROC; bartucca2005: "
            "FULLSTIMER logs of all five sort runs"
        ),
        effect="measurement only; neither paper reports a cost",
    )


def _tool(tools: dict[str, str], inv: Inventory, fallback: str) -> str:
    return tools.get(inv.server.os, fallback)


def _aix_61_plus(inv: Inventory) -> bool:
    return inv.server.os_at_least("aix", "6.1")


def _paging_tool(inv: Inventory) -> str:
    if inv.server.os != "aix":
        return _tool(PAGING_TOOLS, inv, "vmstat 5")
    if _aix_61_plus(inv):
        return "vmstat -v; vmstat 5 (pi, po)"
    return "vmstat -v (numperm% against maxperm%); topas"


def _paging_note(inv: Inventory) -> str:
    """The release-specific half of the paging check (notes: AIX virtual memory)."""
    if inv.server.os != "aix":
        return ""
    if _aix_61_plus(inv):
        return (
            " AIX 6.1+ defaults (minperm 3, maxperm 90, lru_file_repage 0) already protect "
            "SAS's memory: change vmo only on evidence of paging."
        )
    return (
        " On AIX 5.3 the file cache can push SAS out: bartucca2005 saw it until maxperm "
        "80→60 with strict_maxperm=1."
    )


def _check(
    out: Emitter,
    setting: str,
    value: str,
    rationale: str,
    command: str,
    evidence: str,
    sources: tuple[str, ...] = CHECK_SOURCES,
) -> None:
    out.set(
        SYSTEM,
        setting,
        value,
        rationale=rationale,
        sources=sources,
        evidence=evidence,
        kind="check",
        payload=Watch(command),
    )


def _disk_and_runq(inv: Inventory, out: Emitter) -> None:
    cpus = inv.server.cpus
    _check(
        out,
        DISK,
        f"service time ≤ {DISK_SERVICE_MS} ms, busy ≤ {DISK_BUSY_PCT} %",
        f"A disk that stays above {DISK_SERVICE_MS} ms or {DISK_BUSY_PCT} % busy is the "
        "bottleneck; spread or stripe its data before tuning SAS.",
        _tool(DISK_TOOLS, inv, "iostat -x 5"),
        "chew, 'Performance Monitoring Tools': iostat -xtc",
    )
    _check(
        out,
        RUNQ,
        f"green ≤ {RUNQ_GREEN_PER_CPU}, amber ≤ {RUNQ_AMBER_PER_CPU}, red above",
        f"On {cpus} CPUs: green up to {RUNQ_GREEN_PER_CPU * cpus} queued threads, amber up "
        f"to {RUNQ_AMBER_PER_CPU * cpus}; beyond, lower CPUCOUNT or sessions, or add CPUs.",
        _tool(RUNQ_TOOLS, inv, "vmstat 5"),
        "chew: Cockcroft's virtual_adrian thresholds; 8 × CPUCOUNT 4 on 4 CPUs gave RunQ 28",
    )


def _paging_and_tlb(inv: Inventory, out: Emitter) -> None:
    _check(
        out,
        PAGING,
        "no page-outs of SAS",
        "SAS pages being paged out means RAM is short: lower MEMSIZE/SORTSIZE or sessions "
        "before anything else." + _paging_note(inv),
        _paging_tool(inv),
        "chew: vmstat -p; bartucca2005 'Initial adjustments': topas showed SAS paging out",
        (*CHECK_SOURCES, "ibm-aix72-vmm") if _aix_61_plus(inv) else CHECK_SOURCES,
    )
    if inv.workload.mix.analytics <= 0:
        return
    _check(
        out,
        TLB,
        f"< {TLB_MISS_PCT} % of CPU time",
        f"{inv.workload.mix.analytics:.0%} of the work is CPU-bound analytics; above "
        f"{TLB_MISS_PCT}–10 % of time in TLB misses, large pages are the remedy chew found "
        "(l.533–562: LOESS 4.5 h → 1.5 h, IML 70 → 38 min, TLB time under 2–3 %): "
        f"{_tool(LARGE_PAGES, inv, 'the platform large-page support (not from chew)')}. "
        "Only for CPU-bound jobs with large (2–4 MB and up) memory segments (l.564–569), and "
        "with enough free memory: short of it, large pages made things worse (l.562).",
        _tool(TLB_TOOLS, inv, "the platform's hardware performance counters"),
        "chew l.439–571, 'Memory Utilization': trapstat -t and the ISM MAP results table",
    )


def _real_vs_cpu(inv: Inventory, out: Emitter) -> None:
    io_tool = "filemon and topas" if inv.server.os == "aix" else "iostat"
    _check(
        out,
        REAL_VS_CPU,
        f"real ≤ {IO_BOUND_REAL_OVER_CPU:g} × (user + system CPU)",
        f"A step whose FULLSTIMER real time exceeds {IO_BOUND_REAL_OVER_CPU:g}× its CPU time "
        f"waits on I/O or locks; confirm with {io_tool} before adding CPUs.",
        "the step's FULLSTIMER NOTE in the SAS log",
        "chew: real vs user CPU in the SAS log; bartucca2005 second run: 52:32 real, "
        "24:41 user + 8:29 system",
    )


@rule(
    id="monitoring.thresholds",
    title="Watch disks, run queue, paging, TLB misses and FULLSTIMER",
    sources=(*CHECK_SOURCES, "ibm-aix72-vmm"),
    settings=(
        (SYSTEM, DISK),
        (SYSTEM, RUNQ),
        (SYSTEM, PAGING),
        (SYSTEM, TLB),
        (SYSTEM, REAL_VS_CPU),
    ),
    inputs=("server.os", "server.os_version", "server.cpus", "workload.mix"),
)
def thresholds(inv: Inventory, out: Emitter) -> None:
    """One check per metric, each with its alarm value and the command for this OS."""
    _disk_and_runq(inv, out)
    _paging_and_tlb(inv, out)
    _real_vs_cpu(inv, out)


RULES: tuple[Rule, ...] = (fullstimer, thresholds)
