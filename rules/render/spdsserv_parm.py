"""Renderer: spdsserv.parm, the SPD Server host's parameter file.

Version-aware syntax (spds5-docs; the 4.5 guide): on 4.x keywords are upper case and
comments are not allowed, so the file is the bare `NAME[=value];` lines and every reason
lives in the recommendations (report and JSON). On 5.x comments are allowed: a header
echoes the inputs and each line is preceded by its rule id and rationale. The guide does
not spell out the comment syntax; SAS-style `/* … */` on lines of their own is used —
check it against InstallDir/samples/spdsserv.parm before the first start.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from rules.model import SPDSSERV, Recommendation

if TYPE_CHECKING:
    from rules.engine import Result

COMMENT_WIDTH = 90
# The parm file stays ASCII: nothing says the server's parser reads UTF-8 in comments.
ASCII = str.maketrans({"×": "x", "→": "->", "—": "-", "–": "-", "…": "...", "≤": "<=", "≥": ">="})


def comment(text: str) -> list[str]:
    """Text as `/* … */` lines; a `*/` inside could end a comment early, so it is broken."""
    plain = text.translate(ASCII).encode("ascii", "replace").decode("ascii")
    safe = " ".join(plain.replace("*/", "* /").split())
    return [f"/* {part} */" for part in textwrap.wrap(safe, COMMENT_WIDTH)] or ["/* */"]


def parm_lines(result: Result) -> list[Recommendation]:
    """The file's lines: changes for spdsserv.parm, in the order the rules gave."""
    chosen = [
        r
        for r in result.recommendations
        if r.target == SPDSSERV and r.kind == "change" and "line" in r.extra
    ]
    return sorted(chosen, key=lambda r: int(r.extra.get("order", "999")))


def header(result: Result) -> list[str]:
    inv = result.inventory
    spds = inv.sas.spds.version if inv.sas.spds else "none"
    return [
        *comment(f"spdsserv.parm for {inv.server.hostname} - SAS Tuning Advisor"),
        *comment(f"rules version {result.rules_version}; sources: bogacz2012, spds5-docs"),
        *comment(
            f"inputs: {inv.server.cpus} CPUs, {inv.server.ram_gb:g} GB RAM, "
            f"{inv.workload.concurrent_sessions} concurrent sessions, SPD Server {spds}, "
            f"{inv.server.os} {inv.server.os_version}"
        ),
    ]


def render(result: Result) -> str:
    spds = result.inventory.sas.spds
    if spds is None:
        return ""
    recs = parm_lines(result)
    if spds.major < 5:
        return "".join(f"{r.extra['line']}\n" for r in recs)
    out = header(result)
    for r in recs:
        out += ["", *comment(f"{r.rule}: {r.rationale}"), r.extra["line"]]
    return "\n".join(out) + "\n"
