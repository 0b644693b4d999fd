"""SPD Server rules against bogacz2012's figures (the prime example is the paper's server)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules import Result, advise_inventory
from rules.model import LIBNAMES, PROGRAM, SPDSSERV, SYSTEM, Recommendation
from rules.payloads import Domain
from rules.render.libnames_parm import libname_line
from rules.render.spdsserv_parm import parm_line
from rules.validate import parse
from tests.conftest import example

PARM_REST = ("spds.buffers", "spds.server", "spds.planner", "spds.workpath", "spds.tmpdomain")


def libname(result: Result, domain: str = "SPDSDATA") -> str:
    payload = rec(result, LIBNAMES, domain).payload
    assert isinstance(payload, Domain)
    return libname_line(payload)


Edit = Callable[[dict[str, Any]], None]


def advise(name: str = "prime-spds-aix", edit: Edit | None = None) -> Result:
    doc = example(name)
    if edit is not None:
        edit(doc)
    return advise_inventory(parse(doc))


def rec(result: Result, target: str, setting: str) -> Recommendation:
    found = [r for r in result.recommendations if r.target == target and r.setting == setting]
    assert len(found) == 1, f"{target}:{setting} → {found}"
    return found[0]


def spds_recs(result: Result) -> list[Recommendation]:
    return [r for r in result.recommendations if r.rule.startswith("spds.")]


def set_version(version: str) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        doc["sas"]["spds"] = {"version": version}

    return edit


@pytest.fixture(scope="module")
def prime() -> Result:
    return advise()


def test_prime_warns_for_sixteen_data_paths(prime: Result) -> None:
    [warning] = [w for w in prime.warnings if w.rule == "spds.data_paths"]
    assert warning.severity == "high"
    assert "16 SPD Server data paths" in warning.message
    assert "only 4" in warning.message
    # bogacz2012 l.22: 2.88 TB (three years of growth included) over 16 × 180 GB
    assert "16 data file systems of 180 GB each" in warning.action
    assert "156 weeks" in warning.action
    assert rec(prime, SYSTEM, "SPD Server data paths").value == "16"


def test_size_per_path_follows_total_and_growth() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["workload"]["total_data_gb"] = 1000
        doc["workload"]["growth_gb_per_week"] = 0

    [warning] = [w for w in advise(edit=edit).warnings if w.rule == "spds.data_paths"]
    assert "16 data file systems of 63 GB each" in warning.action  # 1000 / 16 = 62.5


def test_enough_data_paths_gives_no_warning() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["server"]["cpus"] = 2

    result = advise(edit=edit)
    assert [w for w in result.warnings if w.rule == "spds.data_paths"] == []
    assert rec(result, SYSTEM, "SPD Server data paths").kind == "check"


def test_memory_is_1024m_for_all_three_on_prime(prime: Result) -> None:
    for name in ("SORTSIZE", "INDEX_SORTSIZE", "GRPBYROWCACHE"):
        r = rec(prime, SPDSSERV, name)
        assert r.value == "1024M"
        assert "64 GB RAM × 80% = 52,428.8 MB / 50 concurrent sessions = 1,048.6 MB" in (
            r.rationale
        )
        assert parm_line(r) == f"{name}=1024M;"


def test_memory_scales_down_with_more_sessions() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["workload"]["concurrent_sessions"] = 200

    result = advise(edit=edit)
    # 65536 MB × 0.8 / 200 = 262.1 MB → 256M
    assert rec(result, SPDSSERV, "SORTSIZE").value == "256M"
    assert not [w for w in result.warnings if w.rule == "spds.memory"]


def test_memory_below_256m_warns() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["server"]["ram_gb"] = 16

    result = advise(edit=edit)
    # 16384 × 0.8 / 50 = 262.1 MB → 256M: still fine; 8 GB would not be
    assert rec(result, SPDSSERV, "SORTSIZE").value == "256M"

    def small(doc: dict[str, Any]) -> None:
        doc["server"]["ram_gb"] = 8

    result = advise(edit=small)
    assert rec(result, SPDSSERV, "SORTSIZE").value == "128M"
    assert [w.severity for w in result.warnings if w.rule == "spds.memory"] == ["medium"]


def test_maxwhthreads_is_the_cpu_count(prime: Result) -> None:
    r = rec(prime, SPDSSERV, "MAXWHTHREADS")
    assert r.value == "8"
    assert parm_line(r) == "MAXWHTHREADS=8;"
    test = rec(prime, SYSTEM, "MAXWHTHREADS scalability test")
    assert test.value == "1, 2, 4, 6, 8, 16"
    assert test.kind == "check"
    # 4.x has no MAXSORTTHREADS line
    assert not [r for r in prime.recommendations if r.setting == "MAXSORTTHREADS"]


def test_maxwhthreads_capped_at_the_largest_measured() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["server"]["cpus"] = 64

    assert rec(advise(edit=edit), SPDSSERV, "MAXWHTHREADS").value == "16"


def test_5x_splits_sortsize_over_four_sort_threads() -> None:
    result = advise(edit=set_version("5.3"))
    r = rec(result, SPDSSERV, "MAXSORTTHREADS")
    assert r.value == "4"  # 1024M / 256 MB per thread
    assert "128 MB per thread" in r.rationale  # what the default (= MAXWHTHREADS 8) gives
    assert "half the cores" in rec(result, SPDSSERV, "MAXWHTHREADS").rationale


def test_minpartsize_arithmetic_in_the_rationale(prime: Result) -> None:
    r = rec(prime, SPDSSERV, "MINPARTSIZE")
    assert r.value == "1024M"
    assert "280 GB = 286,720 MB / 1024M = 280 DPFs" in r.rationale
    assert "over 16 data paths" in r.rationale
    assert "17.5 per path" in r.rationale
    assert "273" in r.rationale  # the paper's figure and why it differs


def test_minpartsize_drops_for_a_small_largest_table() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["workload"]["largest_table_gb"] = 6

    # 6144 MB: 1024M → 6 DPFs < 16 paths, 512M → 12 < 16, 256M → 24 ≥ 16
    r = rec(advise(edit=edit), SPDSSERV, "MINPARTSIZE")
    assert r.value == "256M"
    assert "24 DPFs" in r.rationale


def test_huge_table_gets_a_per_table_partsize() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["workload"]["largest_table_gb"] = 2000

    result = advise(edit=edit)
    assert rec(result, SPDSSERV, "MINPARTSIZE").value == "1024M"
    part = rec(result, PROGRAM, "PARTSIZE")
    assert part.kind == "advice"
    assert part.value == "7530"  # 2 048 000 MB / (16 paths × 17) rounded up


def test_zero_largest_table_is_skipped() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["workload"]["largest_table_gb"] = 0

    result = advise(edit=edit)
    assert [s.field for s in result.skipped if s.rule == "spds.partsize"] == [
        "workload.largest_table_gb"
    ]


def test_workpath_lists_both_work_file_systems(prime: Result) -> None:
    r = rec(prime, SPDSSERV, "WORKPATH")
    assert r.value == "('/spdswork01' '/spdswork02')"
    assert parm_line(r) == "WORKPATH=\"('/spdswork01' '/spdswork02')\";"


def test_paper_values_for_the_rest(prime: Result) -> None:
    lines = {
        r.setting: parm_line(r)
        for r in prime.recommendations
        if r.rule in PARM_REST and r.kind == "change"
    }
    assert lines["BINBUFSIZE"] == "BINBUFSIZE=32K;"
    assert lines["INDEX_MAXMEMORY"] == "INDEX_MAXMEMORY=30M;"
    assert lines["SEQIOBUFMIN"] == "SEQIOBUFMIN=64K;"
    assert lines["RANIOBUFMIN"] == "RANIOBUFMIN=4K;"
    assert lines["MAXSEGRATIO"] == "MAXSEGRATIO=75;"
    assert lines["WHERECOSTING"] == "WHERECOSTING;"
    assert lines["TMPDOMAIN"] == "TMPDOMAIN=TMP;"
    assert lines["SQLOPTS"] == 'SQLOPTS="reset plljoin";'
    assert "WHEREAUDIT" not in lines
    assert rec(prime, SPDSSERV, "WHEREAUDIT").kind == "advice"


def test_layout_of_prime_is_complete(prime: Result) -> None:
    # Every separate file system is there; only the 4 × 180 GB of data paths (the paper had
    # 16, bogacz2012 l.22) cannot hold the 2880 GB.
    [warning] = [w for w in prime.warnings if w.rule == "spds.layout" and w.severity != "low"]
    assert warning.message.startswith("The spds_data file systems hold 720 GB")
    summary = rec(prime, SYSTEM, "SPD Server file system layout")
    assert "64K × 5 = 320K" in summary.rationale
    assert "work: 2 (/spdswork01, /spdswork02)" in summary.value


def test_layout_warns_and_skips() -> None:
    def edit(doc: dict[str, Any]) -> None:
        storage = doc["storage"]
        doc["storage"] = [s for s in storage if s["role"] not in ("spds_index", "spdswork02")]
        doc["storage"] = [s for s in doc["storage"] if s["name"] != "spdswork02"]
        doc["storage"][0]["stripe_kb"] = 128
        del doc["storage"][1]["stripe_kb"]
        doc["storage"][2].update(raid="1", disks=2)

    result = advise(edit=edit)
    messages = " | ".join(w.message for w in result.warnings if w.rule == "spds.layout")
    assert "1 separate index" in messages
    assert "2 separate work" in messages
    assert "/spds01 128K" in messages
    assert "/spds03 (RAID 1, 2 disk(s))" in messages
    skipped = [s.field for s in result.skipped if s.rule == "spds.layout"]
    assert skipped == ["storage[1].stripe_kb"]


def test_libnames_domain_on_the_metadata_path(prime: Result) -> None:
    line = libname(prime)
    assert line.startswith('LIBNAME=SPDSDATA PATHNAME=/spdsmeta/spdsdata OPTIONS="DATAPATH=(')
    assert "'/spds04/spdsdata')" in line
    assert "INDEXPATH=('/spdsidx/spdsdata')" in line
    assert line.endswith('";')
    assert libname(prime, "TMP") == "LIBNAME=TMP PATHNAME=/spdswork01/tmp;"


@pytest.mark.parametrize(("version", "keyword"), [("4.4", "OPTIONS"), ("4.5", "ROPTIONS")])
def test_libnames_keyword_by_version(version: str, keyword: str) -> None:
    line = libname(advise(edit=set_version(version)))
    assert f' {keyword}="' in line


def test_libnames_uses_roptions_on_53() -> None:
    result = advise(edit=set_version("5.3"))
    assert ' ROPTIONS="DATAPATH=(' in libname(result)


def test_no_spds_output_without_spd_server() -> None:
    result = advise("lemans-aix53-etl")
    assert result.inventory.sas.spds is None
    assert spds_recs(result) == []
    assert [w for w in result.warnings if w.rule.startswith("spds.")] == []
    assert [s for s in result.skipped if s.rule.startswith("spds.")] == []
    assert "spdsserv.parm" not in result.artifacts


def test_no_spd_storage_skips_by_field() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["storage"] = [s for s in doc["storage"] if not s["role"].startswith("spds")]

    result = advise(edit=edit)
    fields = {(s.rule, s.field) for s in result.skipped}
    assert ("spds.workpath", "storage") in fields
    assert ("spds.libnames", "storage") in fields
    assert not [r for r in result.recommendations if r.target == LIBNAMES]


def test_without_metadata_path_the_domain_lives_on_the_first_data_path() -> None:
    def edit(doc: dict[str, Any]) -> None:
        doc["storage"] = [s for s in doc["storage"] if s["role"] != "spds_meta"]
        doc["sas"]["spds"] = {"version": "5.3"}

    result = advise(edit=edit)
    r = rec(result, LIBNAMES, "SPDSDATA")
    assert libname(result).startswith("LIBNAME=SPDSDATA PATHNAME=/spds01/spdsdata ROPTIONS=")
    assert "first data path" in r.rationale
    assert isinstance(r.payload, Domain)
    assert r.payload.directories.count("/spds01/spdsdata") == 1
    assert [w.message for w in result.warnings if "metadata" in w.message] == [
        "SPD Server needs 1 separate metadata file system(s) (spds_meta); storage lists 0."
    ]


def test_smt_threads_are_not_the_papers_cpus() -> None:
    # bogacz2012 l.22: two data paths per CPU, 8 CPUs → 16; l.217 MAXWHTHREADS 8 on 8 CPUs.
    # A POWER box with 8 cores in SMT8 shows 64 logical CPUs; the paper's CPUs ran one
    # thread each, so the rules count the 8 cores.
    def edit(doc: dict[str, Any]) -> None:
        doc["server"] |= {"cpus": 64, "cores": 8}

    result = advise(edit=edit)
    assert rec(result, SYSTEM, "SPD Server data paths").value == "16"
    assert rec(result, SPDSSERV, "MAXWHTHREADS").value == "8"
    assert (
        "8 cores (64 logical CPUs) × 2 data paths per CPU = 16"
        in rec(result, SYSTEM, "SPD Server data paths").rationale
    )
