"""Renderer: spdsserv.parm, the SPD Server host's parameter file.

Bare `NAME[=value];` lines in every release, and no comments. The 4.5 guide ("Syntax for
the spdsserv.parm Options") forbids comments; the 5.x guides allow them but give their
syntax only by pointing at InstallDir/samples/spdsserv.parm, which is not public, and any
error in the file stops the server at start-up ("Parameter File Validation"). So every
reason lives in the recommendations (report and recommendations.json), as for 4.x.
Keywords stay upper case: 4.x requires it and 5.x is case-insensitive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import SPDSSERV, Recommendation
from rules.render.base import Renderer, named, with_spds

if TYPE_CHECKING:
    from rules.engine import Decisions

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


def render(result: Decisions) -> str:
    if result.inventory.sas.spds is None:
        return ""
    return "".join(f"{parm_line(r)}\n" for r in parm_lines(result))


RENDERER = Renderer(SPDSSERV, "SPD Server parameters", named(SPDSSERV), with_spds, render)
