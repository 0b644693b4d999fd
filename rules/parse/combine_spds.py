"""SPD Server's libnames.parm → the role of the file systems its domains live on.

Each `LIBNAME=` domain names where SPD Server keeps it (SPD Server Administrator's Guide,
"LIBNAME parameter file"): PATHNAME= holds the domain's metadata, and its data and
indexes too unless DATAPATH= and INDEXPATH= spread them over other file systems;
METAPATH= adds metadata space. A file system holding a domain's DATAPATH is
`spds_data`, an INDEXPATH `spds_index`, a METAPATH or a PATHNAME beside a DATAPATH
`spds_meta`. The role is read from the server's own configuration and replaces the guess
from the mount point's words; a file system named by several roles takes the first of
ROLES and the note names the others.
"""

from __future__ import annotations

from typing import Any

from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.paths import holder
from rules.parse.wiring import reads

ROLES = ("spds_data", "spds_index", "spds_meta")  # the order a shared file system takes


def _paths(domain: Any) -> list[tuple[str, str, str]]:
    """(role, path, what names it) of one domain."""
    out = [("spds_data", p, "DATAPATH") for p in domain.datapath]
    out += [("spds_index", p, "INDEXPATH") for p in domain.indexpath]
    out += [("spds_meta", p, "METAPATH") for p in domain.metapath]
    own = "spds_meta" if domain.datapath else "spds_data"
    return [*out, (own, domain.pathname, "PATHNAME")]


@reads("spds_libnames")
def spds_roles(parsed: Parsed, b: Builder) -> None:
    """The role of each file system a libnames.parm domain's paths lie on."""
    mounts = [str(e.get("mount", "")) for e in b.doc.get("storage", [])]
    named: dict[int, list[tuple[str, str, Found]]] = {}
    for found in parsed.all("spds_libnames"):
        for domain in found.value:
            for role, path, what in _paths(domain):
                i = holder(path, mounts)
                if i is not None:
                    named.setdefault(i, []).append((role, f"{what} of {domain.name}", found))
    for i, roles in sorted(named.items()):
        role, what, found = min(roles, key=lambda r: ROLES.index(r[0]))
        others = sorted({f"{r} ({w})" for r, w, _ in roles if r != role})
        note = f"libnames.parm: the {what}" + (f"; also {', '.join(others)}" if others else "")
        b.put(f"storage[{i}].role", role, found, note=note)  # names: [A-Za-z0-9_]
