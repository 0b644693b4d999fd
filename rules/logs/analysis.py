"""A parsed log turned into what a person reads: the job's timeline, its top steps, the
findings, the what-if estimates and the echoed options against the recommended ones.

`analyse_lines` reads a log of any size as it streams, `analyse` a log already read;
both return plain JSON-ready data that the web page, the API, the CLI and the report all
show. Its size is bounded whatever the log (rules.logs.digest): at most MAX_TIMELINE
timeline bars (a longer job's consecutive steps share one), TOP_STEPS steps, and
MAX_FINDINGS_PER_RULE findings of each kind, the others counted under
"findings_omitted"; names and values were cut to SAS's lengths as the log was read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.logs.digest import MAX_TIMELINE, TOP_STEPS, Digest
from rules.logs.findings import XU_SSD_NON_CPU_CUT, Finding, fmt
from rules.parse.saslog import LogReader, SasLog, Step, iter_steps

__all__ = ["MAX_TIMELINE", "TOP_STEPS", "analyse", "analyse_lines", "options", "step_row"]
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


def what_if(digest: Digest, job: float) -> dict[str, Any]:
    saving = min(job, digest.best)
    return {
        "job_seconds": job,
        "io_striped_seconds": digest.savings["io"],
        "io_solid_state_seconds": digest.waiting * XU_SSD_NON_CPU_CUT,
        "cpucount_seconds": digest.savings["cpucount"],
        "piping_seconds": digest.savings["piping"],
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
    """The analysis of a log read with its steps in a list."""
    digest = Digest(cpus)
    for step in log.steps:
        digest.add(step)
    return _assemble(log, digest, recommended or {})


def analyse_lines(
    lines: Iterable[str], *, cpus: int = 0, recommended: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """The analysis of a log read line by line, no step kept past its diagnosis: memory
    stays bounded whatever the log's size."""
    reader, digest = LogReader(), Digest(cpus)
    for step in iter_steps(lines, reader):
        digest.add(step)
    return _assemble(reader.log([]), digest, recommended or {})


def _assemble(log: SasLog, digest: Digest, recommended: Mapping[str, str]) -> dict[str, Any]:
    digest.finish(log.session)
    findings: list[Finding] = digest.findings()
    total = digest.findings_total()
    if not log.fullstimer:
        findings.insert(0, _no_fullstimer(log))
        total += 1
    job = log.session.real if log.session and log.session.real else digest.real
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
        "step_count": digest.count,
        "job_seconds": job,
        "job": fmt(job),
        "session": step_row(log.session) if log.session else None,
        "timeline": digest.timeline.rows(),
        "top_steps": [step_row(step) for step in digest.top_steps()],
        "procedures": digest.procedure_rows(),
        "findings": [finding._asdict() for finding in findings],
        "findings_total": total,
        "findings_omitted": digest.omitted(),
        "what_if": what_if(digest, job),
        "echoed_options": [list(option) for option in log.options[-MAX_ECHOED:]],
        "options": options(log.options, recommended),
        "problems": [{"line": p.line, "message": p.message} for p in log.problems],
    }
