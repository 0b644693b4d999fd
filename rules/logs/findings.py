"""Step diagnosis by the papers' rules: each rule reads one step (or a step and the next)
and says what holds it back, the setting that addresses it, and the time it could save.

Thresholds are named with the paper figure they come from; where no paper gives one the
constant says "assumed" and so does the finding. Times are seconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rules.model import Severity
from rules.parse.saslog import Step

# Steps shorter than this are not worth a finding: the papers tune jobs of minutes.
MIN_STEP_SECONDS = 30.0  # assumed
# Real time this far above CPU time means waiting: bartucca2005's direct-I/O sort ran 52:32
# real against 33:10 CPU (1.58x, l.425-429), "an increase in I/O wait time" (l.468).
IO_BOUND_RATIO = 1.5
# xu Table 1 (l.70-71): non-CPU time fell 90 % on solid-state WORK, about 50 % striped.
XU_SSD_NON_CPU_CUT = 0.90
XU_STRIPED_NON_CPU_CUT = 0.50
# chew l.84 and pohl2007 l.16: the procedures SAS 9 threads.
THREADED_PROCS = frozenset(
    {"SORT", "SQL", "SUMMARY", "MEANS", "REPORT", "TABULATE", "GLM", "REG", "LOESS"}
    | {"DMREG", "IML", "ROBUSTREG"}
)
# chew's PROC LOESS table (l.578-582): 21:31 on 1 CPU, 4:04 on 8, a 5.3x speed-up; under
# Amdahl's law that is a parallel fraction of 0.93.
CHEW_PARALLEL_FRACTION = 0.93
# pohl2007 Table 1 (l.270-271), 322 million rows: TABULATE 1:24:24 on 1 CPU, 1:14:52 on 2,
# no better past 2 CPUs.
POHL_TABULATE_TWO_CPU = 4492 / 5064
# pohl2007 Table 1 (l.270, l.274): the DATA step -> TABULATE job piped through SASESOCK ran
# 56:43 against 1:24:24 on disk, 67 % of the time.
POHL_PIPED_SHARE = 3403 / 5064
# chew l.105-110: user CPU far above real time is a PROC that scales.
SCALES_RATIO = 1.5
# bartucca2005's first run paged (738,014 page faults in 2,015 s, about 366 a second,
# l.290-296) until maxperm was lowered (65 faults, l.505); a rate above this is paging.
PAGE_FAULTS_PER_SECOND = 100.0  # assumed, between the paper's two runs
# Involuntary switches: the OS stopped SAS for other work (sas-fullstimer); a rate this
# high over a long step is CPU contention.
INVOLUNTARY_PER_SECOND = 50.0  # assumed
DEFAULT_CPUCOUNT = 4  # chew l.96: cap CPUCOUNT at 4 or 6 on shared servers


class Finding(NamedTuple):
    rule: str
    step: int  # the step's number; 0 for the whole job
    severity: Severity
    title: str
    detail: str  # the derivation, with the step's own figures
    setting: str  # the configuration setting that addresses it
    sources: tuple[str, ...]
    saving: float = 0.0  # seconds it could save, by the what-if model


def fmt(secs: float) -> str:
    """1:02:03 / 5:00 / 12.3 s, as a person reads a duration."""
    if secs < 60:
        return f"{secs:.1f} s"
    minutes, rest = divmod(round(secs), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes}:{rest:02d}"


def _long(step: Step) -> bool:
    return step.real is not None and step.real >= MIN_STEP_SECONDS and step.cpu is not None


def io_bound(step: Step, cpus: int) -> Finding | None:
    if not _long(step) or step.real is None or step.cpu is None:
        return None
    if step.real <= IO_BOUND_RATIO * max(step.cpu, 0.01) or step.proc == "SORT":
        return None
    waiting = step.real - step.cpu
    switches = ""
    if step.voluntary_switches:
        switches = f"; {step.voluntary_switches:,} voluntary context switches (waits on a "
        switches += "resource such as a disk)"
    return Finding(
        "log.io_bound",
        step.number,
        "high" if waiting >= 0.5 * step.real else "medium",
        f"{step.name} waited {fmt(waiting)} of its {fmt(step.real)}",
        f"Real time {fmt(step.real)} is {step.real / max(step.cpu, 0.01):.1f}x its CPU time "
        f"{fmt(step.cpu)} (above {IO_BOUND_RATIO}x){switches}. The step waits on I/O or on "
        "other work; xu measured non-CPU time cut 90 % on solid-state WORK and about 50 % "
        "on striped disks. Saving assumes striping.",
        "-WORK and -UTILLOC on striped or solid-state storage; BUFSIZE=256K, BUFNO=16",
        ("xu", "sas-di-logs", "bartucca2005"),
        waiting * XU_STRIPED_NON_CPU_CUT,
    )


def sort_spill(step: Step, cpus: int) -> Finding | None:
    if step.proc != "SORT" or not _long(step) or step.real is None or step.cpu is None:
        return None
    spilled = any("utility file" in note.lower() for note in step.notes)
    if not spilled and step.real <= IO_BOUND_RATIO * max(step.cpu, 0.01):
        return None
    waiting = step.real - step.cpu
    why = (
        "its notes name a utility file"
        if spilled
        else (
            f"real time {fmt(step.real)} is {step.real / max(step.cpu, 0.01):.1f}x CPU "
            f"{fmt(step.cpu)}, the sign of an external sort"
        )
    )
    return Finding(
        "log.sort_spill",
        step.number,
        "high",
        f"PROC SORT sorted on disk: {fmt(waiting)} waiting",
        f"The sort spilled to utility files: {why}. chew: a sort that fits SORTSIZE runs in "
        "memory; an external sort gains from larger SORTSIZE bins (l.59-63). bartucca2005 "
        "put UTILLOC on its own striped file system and gave the utility file PAGESIZE=256K "
        "(l.269, l.639).",
        "SORTSIZE up to 4G (not past free RAM); -UTILLOC on a fast file system apart from "
        "the data; PROC SORT PAGESIZE=256K",
        ("chew", "bartucca2005"),
        waiting * XU_STRIPED_NON_CPU_CUT,
    )


def threads(step: Step, cpus: int) -> Finding | None:
    if step.number == 0:
        return None  # session totals mix every step: no one procedure to thread
    if not _long(step) or step.real is None or step.cpu is None or step.user_cpu is None:
        return None
    if step.cpu < 0.8 * step.real:
        return None  # not CPU-bound: more threads would wait too
    if step.user_cpu >= SCALES_RATIO * step.real:
        return _scales(step)
    if step.proc not in THREADED_PROCS:
        return Finding(
            "log.single_threaded",
            step.number,
            "low",
            f"{step.name} is CPU-bound and runs on one CPU",
            f"CPU {fmt(step.cpu)} of {fmt(step.real)} real. {step.name} is not among the "
            "procedures SAS 9 threads (chew l.84), so THREADS and CPUCOUNT do not help it; "
            "splitting the work or piping it to the next step may (pohl2007).",
            "none in the configuration: the program itself",
            ("chew", "pohl2007"),
        )
    return _would_thread(step, cpus)


def _scales(step: Step) -> Finding:
    assert step.real is not None and step.user_cpu is not None
    return Finding(
        "log.scales",
        step.number,
        "low",
        f"{step.name} already runs threaded ({step.user_cpu / step.real:.1f} CPUs busy)",
        f"User CPU {fmt(step.user_cpu)} against {fmt(step.real)} real: chew reads this as a "
        "procedure that scales (l.105-110). On a shared server mind CPUCOUNT: every such "
        "job takes that many CPUs (chew l.96).",
        "CPUCOUNT (a site cap of 4-6 on shared servers)",
        ("chew",),
    )


def _would_thread(step: Step, cpus: int) -> Finding:
    assert step.real is not None and step.cpu is not None
    target = max(2, min(cpus, DEFAULT_CPUCOUNT) if cpus else DEFAULT_CPUCOUNT)
    if step.proc == "TABULATE":
        after = step.real * POHL_TABULATE_TWO_CPU
        model = "pohl2007: PROC TABULATE gains 11 % on 2 CPUs and nothing past 2"
    else:
        p = CHEW_PARALLEL_FRACTION
        after = step.real * ((1 - p) + p / target)
        model = f"chew's PROC LOESS scaling (parallel fraction {p}) on CPUCOUNT={target}"
    return Finding(
        "log.would_thread",
        step.number,
        "medium",
        f"{step.name} ran on one CPU for {fmt(step.real)}",
        f"CPU {fmt(step.cpu)} of {fmt(step.real)} real: CPU-bound, and user CPU is not above "
        f"real time, so it ran single-threaded. {step.proc} is threaded in SAS 9 (chew l.84)."
        f" By {model} it would take about {fmt(after)}.",
        f"THREADS and CPUCOUNT={target} (or PROC {step.proc} THREADS)",
        ("chew", "pohl2007"),
        step.real - after,
    )


def memory(step: Step, cpus: int) -> Finding | None:
    if not _long(step) or step.page_faults is None or step.real is None:
        return None
    rate = step.page_faults / step.real
    if rate < PAGE_FAULTS_PER_SECOND:
        return None
    return Finding(
        "log.paging",
        step.number,
        "high",
        f"{step.name} paged: {step.page_faults:,} page faults ({rate:,.0f}/s)",
        f"{step.page_faults:,} page faults needing I/O in {fmt(step.real)} is {rate:,.0f} a "
        f"second, above {PAGE_FAULTS_PER_SECOND:.0f} (assumed). bartucca2005's first sort "
        "paged at about 366/s until maxperm was lowered with strict_maxperm on; then it "
        "had 65 (l.290-296, l.505). chew: shrink MEMSIZE/SORTSIZE before RAM runs short "
        "(l.63).",
        "MEMSIZE and SORTSIZE within free RAM; on AIX vmo maxperm%/strict_maxperm",
        ("bartucca2005", "chew"),
    )


def contention(step: Step, cpus: int) -> Finding | None:
    if not _long(step) or step.involuntary_switches is None or step.real is None:
        return None
    rate = step.involuntary_switches / step.real
    if rate < INVOLUNTARY_PER_SECOND:
        return None
    return Finding(
        "log.cpu_contention",
        step.number,
        "medium",
        f"{step.name} was pre-empted {step.involuntary_switches:,} times ({rate:,.0f}/s)",
        f"{step.involuntary_switches:,} involuntary context switches in {fmt(step.real)}: "
        "the OS paused SAS for other processes (sas-fullstimer). More runnable threads "
        "than CPUs; chew saw a run queue of 28 from 8 CPUCOUNT=4 jobs on 4 CPUs (l.631). "
        f"Rate threshold {INVOLUNTARY_PER_SECOND:.0f}/s is assumed.",
        "CPUCOUNT capped at 4-6 in the site configuration; fewer concurrent sessions",
        ("chew", "sas-fullstimer"),
    )


StepRule = Callable[[Step, int], "Finding | None"]
STEP_RULES: tuple[StepRule, ...] = (io_bound, sort_spill, threads, memory, contention)


def pipeline(first: Step, second: Step) -> Finding | None:
    """A DATA step whose output the next step reads: pohl2007's piped pair."""
    if first.proc != "DATA" or first.real is None or second.real is None:
        return None
    written = {data.name for data in first.writes}
    shared = sorted(written & {data.name for data in second.reads})
    together = first.real + second.real
    if not shared or together < MIN_STEP_SECONDS:
        return None
    saving = together * (1 - POHL_PIPED_SHARE)
    return Finding(
        "log.pipeline",
        second.number,
        "medium",
        f"{second.name} waits for the DATA step's {shared[0]}",
        f"Step {first.number} writes {shared[0]} and step {second.number} reads it: "
        f"{fmt(together)} together. pohl2007 piped such a pair through SAS/CONNECT "
        f"(SASESOCK) and ran in 67 % of the time (Table 1, l.270, l.274), saving "
        f"about {fmt(saving)} here.",
        "SAS/CONNECT MP CONNECT with a SASESOCK libname between the two steps",
        ("pohl2007",),
        saving,
    )


def pipelines(steps: Sequence[Step]) -> list[Finding]:
    return [f for a, b in itertools.pairwise(steps) if (f := pipeline(a, b)) is not None]


def step_findings(step: Step, previous: Step | None, cpus: int = 0) -> list[Finding]:
    """One step's findings by rule: its own, and the pipe from the step before it."""
    found = [f for rule in STEP_RULES if (f := rule(step, cpus)) is not None]
    if previous is not None and (piped := pipeline(previous, step)) is not None:
        found.append(piped)
    return sorted(found, key=lambda f: f.rule)


def diagnose(steps: Sequence[Step], cpus: int = 0) -> list[Finding]:
    """Every finding of every step, in step order (rules.logs.digest does this for a log
    of any size, keeping the largest of each kind)."""
    found: list[Finding] = []
    for at, step in enumerate(steps):
        found.extend(step_findings(step, steps[at - 1] if at else None, cpus))
    return sorted(found, key=lambda f: (f.step, f.rule))
