"""A parsed log turned into what a person reads: the job's timeline, its top steps, the
findings, the what-if estimates and the echoed options against the recommended ones.

`analyse` returns plain JSON-ready data; the web page, the API, the CLI and the report
all show this one structure. The timeline keeps at most MAX_TIMELINE bars: a longer job's
consecutive steps are merged so the chart stays readable and the stored result bounded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.logs.findings import XU_SSD_NON_CPU_CUT, Finding, diagnose, fmt
from rules.parse.saslog import SasLog, Step

MAX_TIMELINE = 300
TOP_STEPS = 10
MAX_ECHOED = 200  # options kept from OPTIONS statements (the last ones)
# Options a log can echo that the advisor also recommends for the SAS configuration.
COMPARED: tuple[str, ...] = ("MEMSIZE", "SORTSIZE", "CPUCOUNT", "THREADS", "BUFSIZE", "BUFNO")
COMPARED += ("FULLSTIMER", "UTILLOC", "WORK", "REALMEMSIZE", "SUMSIZE", "COMPRESS")
MODEL = (
    "Each step's saving is estimated on its own and savings are not added twice for one "
    "step (the largest counts). I/O: the time a step waits beyond its CPU time shrinks as "
    "xu measured (about 50 % striped, 90 % solid-state). CPUCOUNT: chew's PROC LOESS "
    "scaling, pohl2007's for TABULATE. Piping: pohl2007's piped DATA step and PROC pair at "
    "67 %. Limits: the papers measured single jobs on otherwise quiet servers; a busy "
    "server, other bottlenecks and data growth move every figure."
)


def _no_fullstimer(log: SasLog) -> Finding:
    return Finding(
        "log.no_fullstimer",
        0,
        "medium",
        "The log has no FULLSTIMER statistics",
        "Without FULLSTIMER a log gives only real and total CPU time: no user/system split, "
        "memory, page faults, context switches or I/O counts, so paging, contention and "
        "threading cannot be told apart. bartucca2005 tuned from FULLSTIMER figures "
        "(l.483, l.682).",
        "-FULLSTIMER in the SAS configuration file",
        ("sas-fullstimer", "bartucca2005"),
    )


def timeline(steps: Sequence[Step]) -> list[dict[str, Any]]:
    """Bars of [start, start + real) in seconds from the job's start, in step order."""
    bars: list[dict[str, Any]] = []
    start = 0.0
    size = max(1, -(-len(steps) // MAX_TIMELINE))
    for at in range(0, len(steps), size):
        group = steps[at : at + size]
        real = sum(step.real or 0.0 for step in group)
        cpu = sum(step.cpu or 0.0 for step in group)
        name = group[0].name if size == 1 else f"steps {group[0].number}-{group[-1].number}"
        bars.append(
            {"step": group[0].number, "name": name, "start": start, "real": real, "cpu": cpu}
        )
        start += real
    return bars


def step_row(step: Step) -> dict[str, Any]:
    return {
        "step": step.number,
        "name": step.name,
        "line": step.line,
        "real": step.real,
        "cpu": step.cpu,
        "user_cpu": step.user_cpu,
        "system_cpu": step.system_cpu,
        "memory_kb": step.memory_kb,
        "os_memory_kb": step.os_memory_kb,
        "timestamp": step.timestamp.isoformat() if step.timestamp else None,
        "page_faults": step.page_faults,
        "involuntary_switches": step.involuntary_switches,
        "voluntary_switches": step.voluntary_switches,
        "block_input": step.block_input,
        "block_output": step.block_output,
        "reads": [list(data) for data in step.reads[:5]],
        "writes": [list(data) for data in step.writes[:5]],
    }


def what_if(steps: Sequence[Step], findings: Sequence[Finding], job: float) -> dict[str, Any]:
    best: dict[int, float] = {}
    by_kind: dict[str, float] = {"io": 0.0, "cpucount": 0.0, "piping": 0.0}
    kinds = {"log.io_bound": "io", "log.sort_spill": "io", "log.would_thread": "cpucount"}
    kinds["log.pipeline"] = "piping"
    for finding in findings:
        if finding.saving <= 0:
            continue
        by_kind[kinds.get(finding.rule, "io")] += finding.saving
        best[finding.step] = max(best.get(finding.step, 0.0), finding.saving)
    io_bound = {f.step for f in findings if f.rule in ("log.io_bound", "log.sort_spill")}
    waiting = sum(max(0.0, (s.real or 0.0) - (s.cpu or 0.0)) for s in steps if s.number in io_bound)
    saving = min(job, sum(best.values()))
    return {
        "job_seconds": job,
        "io_striped_seconds": by_kind["io"],
        "io_solid_state_seconds": waiting * XU_SSD_NON_CPU_CUT,
        "cpucount_seconds": by_kind["cpucount"],
        "piping_seconds": by_kind["piping"],
        "saving_seconds": saving,
        "estimated_job_seconds": job - saving,
        "model": MODEL,
    }


def options(
    echoed_options: Sequence[Sequence[Any]], recommended: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The options the log set that the advisor recommends, side by side (the last value
    an OPTIONS statement gave counts)."""
    echoed: dict[str, tuple[int, str]] = {}
    for line, name, value in echoed_options:
        echoed[name] = (line, value)
    rows = []
    for name in COMPARED:
        if name not in echoed and name not in recommended:
            continue
        line, value = echoed.get(name, (0, ""))
        want = recommended.get(name)
        shown_want = "on" if want == "" else want
        same = want is None or name not in echoed or _same(value, want)
        rows.append(
            {
                "option": name,
                "echoed": value if name in echoed else None,
                "line": line or None,
                "recommended": shown_want,
                "differs": not same,
            }
        )
    return rows


def _same(echoed: str, recommended: str) -> bool:
    if recommended == "":
        return echoed.lower() in ("yes", "")
    return echoed.strip().upper() == recommended.strip().upper()


def analyse(
    log: SasLog, *, cpus: int = 0, recommended: Mapping[str, str] | None = None
) -> dict[str, Any]:
    steps = log.steps
    # A log with session totals alone (the papers' excerpts) is diagnosed as one unit.
    judged = steps or ([log.session] if log.session is not None else [])
    findings = diagnose(judged, cpus)
    if not log.fullstimer:
        findings.insert(0, _no_fullstimer(log))
    summed = sum(step.real or 0.0 for step in steps)
    job = log.session.real if log.session and log.session.real else summed
    top = sorted((s for s in steps if s.real is not None), key=lambda s: -(s.real or 0.0))
    return {
        "header": {
            "release": log.header.release,
            "version": log.header.version,
            "platform": log.header.platform,
            "host": log.header.host,
            "os": log.header.os,
        },
        "lines": log.lines,
        "fullstimer": log.fullstimer,
        "step_count": len(steps),
        "job_seconds": job,
        "job": fmt(job),
        "session": step_row(log.session) if log.session else None,
        "timeline": timeline(steps),
        "top_steps": [step_row(step) for step in top[:TOP_STEPS]],
        "findings": [finding._asdict() for finding in findings],
        "what_if": what_if(steps, findings, job),
        "echoed_options": [list(option) for option in log.options[-MAX_ECHOED:]],
        "options": options(log.options, recommended or {}),
        "problems": [{"line": p.line, "message": p.message} for p in log.problems],
    }
