"""A log's analysis as plain text, for the command line (`python -m rules log FILE`)."""

from __future__ import annotations

from typing import Any

from rules.logs.findings import fmt


def render(analysis: dict[str, Any], name: str) -> str:
    header = analysis["header"]
    out = [
        f"{name}: SAS {header['version'] or 'release unknown'} on "
        f"{header['platform'] or 'an unnamed platform'}, {analysis['step_count']} steps, "
        f"job {analysis['job']}" + ("" if analysis["fullstimer"] else " (no FULLSTIMER)"),
        "",
        "Top steps by real time:",
    ]
    for row in analysis["top_steps"]:
        cpu = "?" if row["cpu"] is None else fmt(row["cpu"])
        out.append(
            f"  {row['step']:>5}  {row['name']:<20} {fmt(row['real']):>9} real"
            f"  {cpu:>9} CPU  (line {row['line']})"
        )
    out += ["", "Findings:"] if analysis["findings"] else ["", "Findings: none"]
    for finding in analysis["findings"]:
        where = f"step {finding['step']}" if finding["step"] else "job"
        out.append(f"  [{finding['severity']}] {where}: {finding['title']}")
        out.append(f"      {finding['detail']}")
        out.append(f"      setting: {finding['setting']}  ({', '.join(finding['sources'])})")
    what = analysis["what_if"]
    out += [
        "",
        f"What if: {fmt(what['job_seconds'])} now, about {fmt(what['estimated_job_seconds'])}"
        f" with every finding addressed (I/O striped {fmt(what['io_striped_seconds'])}, "
        f"solid-state {fmt(what['io_solid_state_seconds'])}, CPUCOUNT "
        f"{fmt(what['cpucount_seconds'])}, piping {fmt(what['piping_seconds'])}).",
        f"  {what['model']}",
    ]
    for problem in analysis["problems"]:
        out.append(f"line {problem['line']}: {problem['message']}")
    return "\n".join(out)
