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

from rules.inventory import Inventory
from rules.model import SPDSSERV, Recommendation
from rules.render.base import Renderer, named

if TYPE_CHECKING:
    from rules.engine import Decisions

COMMENT_WIDTH = 90
# Lines in the order of bogacz2012's listing (MAXSORTTHREADS, 5.x only, after MAXWHTHREADS).
PARM_ORDER: tuple[str, ...] = (
    "SORTSIZE",
    "INDEX_SORTSIZE",
    "GRPBYROWCACHE",
    "BINBUFSIZE",
    "INDEX_MAXMEMORY",
    "WORKPATH",
    "NOCOREFILE",
    "SEQIOBUFMIN",
    "RANIOBUFMIN",
    "MAXWHTHREADS",
    "MAXSORTTHREADS",
    "MAXSEGRATIO",
    "WHERECOSTING",
    "RANDOMPLACEDPF",
    "MINPARTSIZE",
    "TMPDOMAIN",
    "SQLOPTS",
    "WHEREAUDIT",
)
_POSITION = {name: i for i, name in enumerate(PARM_ORDER)}
SWITCH_ON = "on"  # a switch parameter is written as its bare name
# The parm file stays ASCII: nothing says the server's parser reads UTF-8 in comments.
ASCII = str.maketrans({"×": "x", "→": "->", "—": "-", "–": "-", "…": "...", "≤": "<=", "≥": ">="})


def comment(text: str) -> list[str]:
    """Text as `/* … */` lines; a `*/` inside could end a comment early, so it is broken."""
    plain = text.translate(ASCII).encode("ascii", "replace").decode("ascii")
    safe = " ".join(plain.replace("*/", "* /").split())
    return [f"/* {part} */" for part in textwrap.wrap(safe, COMMENT_WIDTH)] or ["/* */"]


def parm_line(rec: Recommendation) -> str:
    """`NAME=value;`, `NAME;` for a switch, `NAME="value";` when the value has spaces or
    quotes (SQLOPTS="reset plljoin"; WORKPATH="('/a' '/b')";)."""
    if rec.value == SWITCH_ON:
        return f"{rec.setting};"
    if any(c in rec.value for c in " '()"):
        return f'{rec.setting}="{rec.value}";'
    return f"{rec.setting}={rec.value};"


def parm_lines(result: Decisions) -> list[Recommendation]:
    """The file's lines: changes for spdsserv.parm, in the paper's order."""
    chosen = [r for r in result.for_target(SPDSSERV) if r.kind == "change"]
    return sorted(chosen, key=lambda r: _POSITION.get(r.setting, len(PARM_ORDER)))


def header(result: Decisions) -> list[str]:
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


def render(result: Decisions) -> str:
    spds = result.inventory.sas.spds
    if spds is None:
        return ""
    recs = parm_lines(result)
    if spds.major < 5:
        return "".join(f"{parm_line(r)}\n" for r in recs)
    out = header(result)
    for r in recs:
        out += ["", *comment(f"{r.rule}: {r.rationale}"), parm_line(r)]
    return "\n".join(out) + "\n"


def applies(inv: Inventory) -> bool:
    return inv.sas.spds is not None


RENDERER = Renderer(SPDSSERV, "SPD Server parameters", named(SPDSSERV), applies, render)
