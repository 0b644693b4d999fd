"""Audit fixes in the I/O, WORK and SAS-config advice, each against its paper line or doc page."""

from __future__ import annotations

from typing import Any

import rules
from tests.rules.conftest import lemans, recs


def not_applicable(result: dict[str, Any], rule_id: str) -> str:
    (reason,) = [n["reason"] for n in result["not_applicable"] if n["rule"] == rule_id]
    return reason


def test_proc_sort_pagesize_is_advised_on_913_only() -> None:
    # bartucca2005 l.543 found PAGESIZE= by trial on SAS 9.1.3; the 9.2+ Base SAS Procedures
    # Guide's PROC SORT statement and "SORT Procedure: UNIX" (SORTSIZE=, TAGSORT) do not
    # document it, so no release past 9.1.3 gets it.
    assert recs(rules.advise(lemans()), "io.utility_pagesize")
    for version in ("9.2", "9.3", "9.4"):
        doc = lemans()
        doc["sas"]["version"] = version
        result = rules.advise(doc)
        assert recs(result, "io.utility_pagesize") == {}
        assert "not among the PROC SORT options documented" in not_applicable(
            result, "io.utility_pagesize"
        )


def test_bufno_names_the_direct_io_path_it_compensates_for() -> None:
    # bartucca2005 l.647: BUFNO stands in for the VMM read-ahead that direct I/O loses.
    rec = recs(rules.advise(lemans()), "io.bufno")["BUFNO"]
    assert rec["rationale"].startswith("Direct I/O through a second mount of the file systems")
    doc = lemans()
    doc["sas"]["version"] = "9.4"
    rec = recs(rules.advise(doc), "io.bufno")["BUFNO"]
    assert rec["rationale"].startswith("Direct I/O through LIBNAME ENABLEDIRECTIO")


def test_no_bufno_where_the_warning_says_there_is_no_direct_io_path() -> None:
    # SAS 9.1.3 on Linux: io.direct_io warns that there is no direct I/O path, so BUFNO,
    # measured only under direct I/O (bartucca2005 l.647), must not claim one.
    doc = lemans(os="linux", os_version="7.9")
    result = rules.advise(doc)
    assert any("no direct I/O path" in w["message"] for w in result["warnings"])
    assert recs(result, "io.bufno") == {}
    assert "no direct I/O path" in not_applicable(result, "io.bufno")
