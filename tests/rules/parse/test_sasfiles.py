"""SAS configuration, spdsserv.parm and libnames.parm as the collector reads them."""

from __future__ import annotations

import pytest

from rules.parse import parse_text
from rules.parse.registry import Garbled, Section
from rules.parse.sasfiles import sas_config, spds_libnames, spds_parm
from tests.rules.parse.fixtures import section


def test_an_installed_sasv9_local_cfg_with_multi_line_lists() -> None:
    found = sas_config(section("sas/sasv9_local_statcan.txt"))
    assert found.path == "/usr/local/SASHome/SASFoundation/9.4/sasv9_local.cfg"
    assert found.options["MEMSIZE"] == "2G"
    assert found.options["SORTSIZE"] == "1G"
    assert found.options["WORK"] == "/tmp"
    assert found.options["SASHELP"] == "( '!SASROOT/nls/en/sascfg' '!SASROOT/sashelp' )"
    assert found.options["JREOPTIONS"].startswith("( -DPFS_TEMPLATE=")
    assert "SET" not in found.options  # environment plumbing, not an option


def test_bogacz2012s_spdsserv_parm_with_a_missing_semicolon() -> None:
    found = spds_parm(section("sas/spdsserv_bogacz2012.txt"))
    assert found.parameters["MINPARTSIZE"] == "1024M"
    assert found.parameters["MAXWHTHREADS"] == "8"
    assert found.parameters["WHERECOSTING"] == ""  # written without its ';'
    assert found.parameters["NOCOREFILE"] == ""
    assert found.parameters["SQLOPTS"] == '"reset plljoin"'
    assert len(found.parameters) == 17


def test_libnames_parm_domains_and_paths() -> None:
    lines = (
        "LIBNAME=spdsdata PATHNAME=/spdsmeta/spdsdata "
        """ROPTIONS="DATAPATH=('/spds01/d' '/spds02/d') INDEXPATH=('/spdsidx/i')";""",
        "LIBNAME=TMP PATHNAME=/spdswork01/tmp;",
    )
    domains = spds_libnames(
        Section("cat /spds/libnames.parm", ("cat", "/spds/libnames.parm"), lines, 1)
    )
    assert [d.name for d in domains] == ["SPDSDATA", "TMP"]
    assert domains[0].datapath == ("/spds01/d", "/spds02/d")
    assert domains[0].indexpath == ("/spdsidx/i",)


def test_a_line_that_is_no_option_is_a_problem_with_its_line_number() -> None:
    text = "$ cat /opt/sas/9.4/sasv9_local.cfg\n-MEMSIZE 2G\nrm -rf /\n"
    parsed = parse_text(text)
    assert [(p.line, p.message[:20]) for p in parsed.problems] == [(3, "not a SAS option lin")]
    with pytest.raises(Garbled):
        spds_parm(Section("cat /x/spdsserv.parm", ("cat", "/x/spdsserv.parm"), ("=oops",), 1))
