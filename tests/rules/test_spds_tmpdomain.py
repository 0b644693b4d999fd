"""SPD Server's TMPDOMAIN: on a work area, never on the metadata file system.

bogacz2012 l.22 gave the metadata 30 GB beside 2.88 TB of data (and every table's metadata
lives on that file system, PATHNAME=); l.24 gave the temporary files of sorts, index builds
and parallel GROUP BY two work file systems of 177 GB "large enough to accommodate all the
concurrent processes that create temp files"; l.199 ran TMPDOMAIN=TMP. The SPD Server 5.3
guide (spds5-docs): the SQL query rewrite facility keeps its intermediate tables in the
TMPDOMAIN domain, which must be declared in libnames.parm, and the administrator must give
them adequate space.
"""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example

# The finding's server: a 3.5 TB warehouse whose metadata sits on a 50 GB RAID-1.
WAREHOUSE_GB = 3500


def warehouse(*drop_roles: str) -> dict[str, Any]:
    doc = example("power-smt8-spds53")
    doc["workload"]["total_data_gb"] = WAREHOUSE_GB
    doc["workload"]["largest_table_gb"] = 300
    meta = next(s for s in doc["storage"] if s["role"] == "spds_meta")
    meta.update(raid="1", disks=2, size_gb=50)
    doc["storage"] = [s for s in doc["storage"] if s["role"] not in drop_roles]
    return doc


def settings(result: dict[str, Any], target: str) -> dict[str, dict[str, Any]]:
    return {r["setting"]: r for r in result["recommendations"] if r["target"] == target}


def test_tmpdomain_never_lands_on_the_metadata_file_system() -> None:
    """The finding: with no spds_work storage TMPDOMAIN went to /spdsmeta (50 GB RAID-1
    beside 3.5 TB). bogacz2012 l.22 (metadata 30 GB beside 2.88 TB), l.24 (temporary files
    on work file systems of their own); spds5-docs (adequate space for the rewrite tables)."""
    done = rules.advise(warehouse("spds_work"))
    libnames = settings(done, "libnames.parm")
    assert libnames["TMP"]["value"] == "/saswork/tmp"  # SAS WORK, not /spdsmeta/tmp
    assert "/spdsmeta" not in done["artifacts"]["libnames.parm"].split("LIBNAME=TMP")[1]
    parm = settings(done, "spdsserv.parm")
    assert parm["TMPDOMAIN"]["value"] == "TMP"
    warned = [w for w in done["warnings"] if w["rule"] == "spds.tmpdomain"]
    assert len(warned) == 1 and "on SAS WORK (/saswork)" in warned[0]["message"]
    assert "marked SPD Server work" in warned[0]["action"]


def test_tmpdomain_is_left_unset_with_no_work_area_at_all() -> None:
    """Without spds_work or SAS WORK there is no work area: TMPDOMAIN is left out and the
    warning names what to provide, rather than a metadata or data path (bogacz2012 l.22)."""
    done = rules.advise(warehouse("spds_work", "work"))
    assert "TMPDOMAIN" not in settings(done, "spdsserv.parm")
    assert "TMP" not in settings(done, "libnames.parm")
    assert "TMPDOMAIN=" not in done["artifacts"]["spdsserv.parm"]
    assert "LIBNAME=TMP" not in done["artifacts"]["libnames.parm"]
    (warned,) = [w for w in done["warnings"] if w["rule"] == "spds.tmpdomain"]
    assert warned["message"].startswith("TMPDOMAIN is left unset")
    assert "Add a file system marked SPD Server work (spds.layout" in warned["action"]
    skipped = {s["rule"]: s for s in done["skipped"]}
    assert skipped["spds.tmpdomain"]["field"] == "storage"


def test_tmpdomain_stays_on_the_first_spds_work_file_system() -> None:
    """The paper's own layout: WORKPATH and the TMP domain on the SPD work file systems."""
    done = rules.advise(warehouse())
    assert settings(done, "libnames.parm")["TMP"]["value"] == "/spdswork1/tmp"
    assert not [w for w in done["warnings"] if w["rule"] == "spds.tmpdomain"]
