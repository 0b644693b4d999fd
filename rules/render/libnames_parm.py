"""Renderer: libnames.parm, the SPD Server domain declarations.

`LIBNAME=dom PATHNAME=/path ROPTIONS="DATAPATH=('/a' '/b') INDEXPATH=(…) METAPATH=(…)";`
(spds5-docs; OPTIONS before 4.5), one line per domain from the rule's `Domain` payload, in
the order the rules declared them. No comments in any version: the SPD Server guides allow
comments in spdsserv.parm from 5.x on but say nothing of libnames.parm, and a file the
server cannot parse stops it from starting. The reasons (and the directories to create
first) are in the recommendations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.model import LIBNAMES
from rules.payloads import Domain
from rules.render.base import Renderer, named, with_spds

if TYPE_CHECKING:
    from rules.engine import Decisions


def path_list(paths: tuple[str, ...]) -> str:
    """SPD Server path list syntax: ('/a' '/b'). Paths are plain tokens (Domain checks it)."""
    return "(" + " ".join(f"'{p}'" for p in paths) + ")"


def libname_line(domain: Domain) -> str:
    options = [
        f"{key}={path_list(paths)}"
        for key, paths in (
            ("DATAPATH", domain.datapath),
            ("INDEXPATH", domain.indexpath),
            ("METAPATH", domain.metapath),
        )
        if paths
    ]
    line = f"LIBNAME={domain.name} PATHNAME={domain.pathname}"
    if options:
        line += f' {domain.keyword}="{" ".join(options)}"'
    return line + ";"


def render(result: Decisions) -> str:
    domains = [r.payload for r in result.for_target(LIBNAMES) if isinstance(r.payload, Domain)]
    return "".join(f"{libname_line(d)}\n" for d in domains)


RENDERER = Renderer(LIBNAMES, "SPD Server domains", named(LIBNAMES), with_spds, render)
