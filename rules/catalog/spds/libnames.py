"""libnames.parm: the warehouse domain on the SPD file systems, and the TMP domain.

Sources: bogacz2012 (the data paths of "two per CPU", the index and metadata file
systems, TMPDOMAIN=TMP); spds5-docs for the syntax —
`LIBNAME=dom PATHNAME=/path ROPTIONS="DATAPATH=(…) INDEXPATH=(…) METAPATH=(…)";`.
PATHNAME is the domain's primary metadata path; METAPATH is overflow space for metadata
only. 4.5 accepts OPTIONS or ROPTIONS, 5.3 requires ROPTIONS. The server validates that
every path exists at start-up and refuses to start otherwise.
"""

from __future__ import annotations

from typing import Literal

from rules.derive.scope import with_spds
from rules.derive.spds import (
    DATA_DOMAIN,
    TMP_DOMAIN,
    domain_dir,
    spds_version,
    tmp_domain_home,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import LIBNAMES, SPDSSERV, Rule, rule
from rules.payloads import Domain

# Reserved options (ROPTIONS) cannot be overridden by a user's LIBNAME statement; the 4.5
# guide documents them beside OPTIONS, 5.3 accepts nothing else. Before 4.5 the advisor
# writes OPTIONS, the keyword the 4.x guide's own examples use.
ROPTIONS_SINCE = (4, 5)


def _keyword(inv: Inventory) -> tuple[Literal["OPTIONS", "ROPTIONS"], str]:
    version = spds_version(inv)
    if version >= ROPTIONS_SINCE:
        why = "ROPTIONS (reserved: users' LIBNAME statements cannot move the paths"
        why += "; 5.3 requires it)" if version[0] >= 5 else "; 4.5 also accepts OPTIONS)"
        return "ROPTIONS", why
    return "OPTIONS", "OPTIONS (the keyword of the 4.x guide's examples; ROPTIONS needs 4.5+)"


def _data_domain_parts(inv: Inventory) -> tuple[str, list[str], list[str], list[str]]:
    data = [domain_dir(s.mount, DATA_DOMAIN) for s in inv.by_role("spds_data")]
    index = [domain_dir(s.mount, DATA_DOMAIN) for s in inv.by_role("spds_index")]
    meta = [domain_dir(s.mount, DATA_DOMAIN) for s in inv.by_role("spds_meta")]
    pathname = meta[0] if meta else data[0]
    return pathname, data, index, meta[1:]


def _data_domain(inv: Inventory, out: Emitter) -> None:
    pathname, data, index, overflow = _data_domain_parts(inv)
    keyword, why = _keyword(inv)
    domain = Domain(DATA_DOMAIN, pathname, keyword, tuple(data), tuple(index), tuple(overflow))
    home = "the metadata file system" if inv.by_role("spds_meta") else "the first data path"
    out.set(
        LIBNAMES,
        DATA_DOMAIN,
        pathname,
        rationale=f"Domain {DATA_DOMAIN} (the advisor's default name; rename freely, at most "
        f"8 characters): PATHNAME on {home}, since it holds every table's metadata; data "
        f"on {len(data)} data path(s), indexes on {len(index)} index path(s); {why}. WORKPATH "
        "stays in spdsserv.parm because a domain's WORKPATH overrides it server-wide. "
        f"Create the directories first: mkdir -p {' '.join(domain.directories)}.",
        evidence="bogacz2012: 16 data paths, one index and one metadata file system",
        payload=domain,
    )


def _tmp_domain(inv: Inventory, out: Emitter) -> None:
    home = tmp_domain_home(inv)
    if out.get(SPDSSERV, "TMPDOMAIN") is None or home is None:
        out.skip("storage", "no TMP domain: no spds_work or work file system to put it on")
        return
    path = domain_dir(home.mount, TMP_DOMAIN)
    out.set(
        LIBNAMES,
        TMP_DOMAIN,
        path,
        rationale=f"TMPDOMAIN={TMP_DOMAIN} in spdsserv.parm needs this domain; it sits on "
        f"{home.role} {home.mount} (the first SPD work file system, else SAS WORK; never "
        f"the metadata file system). Create it first: mkdir -p {path}.",
        evidence="bogacz2012: TMPDOMAIN=TMP",
        payload=Domain(TMP_DOMAIN, path, "OPTIONS"),
    )


@rule(
    id="spds.libnames",
    title="libnames.parm domain on the SPD Server file systems",
    sources=("bogacz2012", "spds5-docs"),
    settings=((LIBNAMES, DATA_DOMAIN), (LIBNAMES, TMP_DOMAIN)),
    applies=with_spds,
    inputs=("storage[].role", "storage[].mount", "sas.spds.version"),
    reads=((SPDSSERV, "TMPDOMAIN"),),
)
def libnames(inv: Inventory, out: Emitter) -> None:
    """LIBNAME=SPDSDATA on the metadata path with DATAPATH/INDEXPATH; LIBNAME=TMP."""
    if not inv.by_role("spds_data"):
        out.skip("storage", "no spds_data file system to declare a domain on")
    else:
        _data_domain(inv, out)
    _tmp_domain(inv, out)


RULES: tuple[Rule, ...] = (libnames,)
