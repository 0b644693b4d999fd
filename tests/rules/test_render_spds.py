"""spdsserv.parm and libnames.parm as files: valid syntax for the SPD Server release."""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Result, advise_inventory
from rules.render import libnames_parm, spdsserv_parm
from rules.validate import parse
from tests.conftest import example

# bogacz2012's listing, in its order, without WHEREAUDIT (advice only) and with the
# semicolon the paper's WHERECOSTING line lacks.
PAPER_PARM = """\
SORTSIZE=1024M;
INDEX_SORTSIZE=1024M;
GRPBYROWCACHE=1024M;
BINBUFSIZE=32K;
INDEX_MAXMEMORY=30M;
WORKPATH="('/spdswork01' '/spdswork02')";
NOCOREFILE;
SEQIOBUFMIN=64K;
RANIOBUFMIN=4K;
MAXWHTHREADS=8;
MAXSEGRATIO=75;
WHERECOSTING;
RANDOMPLACEDPF;
MINPARTSIZE=1024M;
TMPDOMAIN=TMP;
SQLOPTS="reset plljoin";
"""
PARM_LINE = re.compile(r'^[A-Z_]+(=("[^"]*"|[^;\s]+))?;$')


def advise(version: str | None = "4.4") -> Result:
    doc: dict[str, Any] = example("prime-spds-aix")
    doc["sas"]["spds"] = None if version is None else {"version": version}
    return advise_inventory(parse(doc))


def test_44_parm_is_the_papers_listing() -> None:
    text = spdsserv_parm.render(advise("4.4").decisions)
    assert text == PAPER_PARM
    for line in text.splitlines():
        assert PARM_LINE.match(line), line
        keyword = re.split(r"[=;]", line)[0]
        assert keyword == keyword.upper()
    assert "/*" not in text and "#" not in text


def test_engine_artifact_matches_the_renderer() -> None:
    result = advise("4.4")
    assert result.artifacts["spdsserv.parm"] == PAPER_PARM


def test_53_parm_has_no_comments() -> None:
    # The 5.x guides allow comments but show their syntax only in the unpublished
    # InstallDir/samples/spdsserv.parm, and any error in the file stops the server at
    # start-up (SPD Server 5.3 Administrator's Guide, "Parameter File Validation").
    result = advise("5.3")
    lines = spdsserv_parm.render(result.decisions).splitlines()
    assert lines[0] == "SORTSIZE=1024M;"
    assert "MAXSORTTHREADS=4;" in lines
    for line in lines:
        assert PARM_LINE.match(line), line
    sort = [
        r for r in result.recommendations if r.setting == "SORTSIZE" and r.rule == "spds.memory"
    ]
    assert "64 GB RAM" in sort[0].rationale


def test_libnames_44_uses_options_without_comments() -> None:
    text = libnames_parm.render(advise("4.4").decisions)
    assert text == (
        "LIBNAME=SPDSDATA PATHNAME=/spdsmeta/spdsdata OPTIONS=\"DATAPATH=('/spds01/spdsdata' "
        "'/spds02/spdsdata' '/spds03/spdsdata' '/spds04/spdsdata') "
        "INDEXPATH=('/spdsidx/spdsdata')\";\n"
        "LIBNAME=TMP PATHNAME=/spdswork01/tmp;\n"
    )


def test_libnames_53_uses_roptions() -> None:
    text = libnames_parm.render(advise("5.3").decisions)
    first = text.splitlines()[0]
    assert first.startswith('LIBNAME=SPDSDATA PATHNAME=/spdsmeta/spdsdata ROPTIONS="DATAPATH=(')
    assert "/*" not in text


def test_nothing_rendered_without_spd_server() -> None:
    result = advise(None)
    assert not spdsserv_parm.RENDERER.applies(result.inventory)
    assert not libnames_parm.RENDERER.applies(result.inventory)
    assert not {"spdsserv.parm", "libnames.parm"} & set(result.artifacts)


LIBNAME_LINE = re.compile(r'^LIBNAME=[A-Z]{1,8} PATHNAME=/[A-Za-z0-9/_.-]+( R?OPTIONS="[^"]+")?;$')


@settings(max_examples=60, deadline=None)
@given(
    cpus=st.integers(1, 256),
    ram_gb=st.floats(0.5, 4096),
    sessions=st.integers(1, 2000),
    largest=st.floats(0, 100_000),
    total=st.floats(0, 500_000),
    growth=st.floats(0, 1000),
    version=st.sampled_from(["4.4", "4.5", "5.1", "5.3"]),
    keep=st.lists(st.booleans(), min_size=9, max_size=9),
)
def test_any_inventory_renders_valid_files(
    cpus: int,
    ram_gb: float,
    sessions: int,
    largest: float,
    total: float,
    growth: float,
    version: str,
    keep: list[bool],
) -> None:
    doc: dict[str, Any] = example("prime-spds-aix")
    doc["server"].update(cpus=cpus, ram_gb=ram_gb)
    doc["sas"]["spds"] = {"version": version}
    doc["storage"] = [s for s, k in zip(doc["storage"], keep, strict=True) if k]
    doc["workload"].update(
        concurrent_sessions=sessions,
        largest_table_gb=min(largest, total) if total else largest,
        total_data_gb=total,
        growth_gb_per_week=growth,
    )
    result = advise_inventory(parse(doc))
    parm = result.artifacts["spdsserv.parm"].splitlines()
    keywords = []
    for line in parm:
        assert PARM_LINE.match(line), line
        keywords.append(re.split(r"[=;]", line)[0])
    assert keywords and all(k == k.upper() for k in keywords)
    assert len(keywords) == len(set(keywords))
    for line in result.artifacts["libnames.parm"].splitlines():
        assert LIBNAME_LINE.match(line), line
        if "OPTIONS=" in line:
            assert (' ROPTIONS="' in line) == (version != "4.4")
