"""Renderer: libnames.parm, the SPD Server domain declarations.

No comments in any version: the SPD Server guides allow comments in spdsserv.parm from
5.x on but say nothing of libnames.parm, and a file the server cannot parse stops it from
starting. The reasons (and the directories to create first) are in the recommendations.
Each domain is one `LIBNAME=…;` line, written by the spds.libnames rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import LIBNAMES

if TYPE_CHECKING:
    from rules.engine import Result


def render(result: Result) -> str:
    if result.inventory.sas.spds is None:
        return ""
    recs = sorted(
        (r for r in result.recommendations if r.target == LIBNAMES and "line" in r.extra),
        key=lambda r: int(r.extra.get("order", "999")),
    )
    return "".join(f"{r.extra['line']}\n" for r in recs)
