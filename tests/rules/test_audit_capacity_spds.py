"""Audit fixes: CPUCOUNT, the memory budget and the SPD Server rules checked against the
papers' own lines and the SPD Server documentation."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Result, advise_inventory
from rules.derive import memory
from rules.model import PROGRAM, SAS_CONFIG, SPDSSERV
from rules.units import parse_size_mb
from rules.validate import parse
from tests.conftest import example
from tests.rules.fitting import fit_total


def advise(name: str = "prime-spds-aix", **changes: Any) -> Result:
    """An example with `section__field=value` changes."""
    doc = example(name)
    for key, value in changes.items():
        section, field = key.split("__")
        doc[section][field] = value
    return advise_inventory(parse(fit_total(doc)))


def values(result: Result, target: str, setting: str) -> list[str]:
    """Values of a setting for a target (SAS_CONFIG: the rules in memory.* and cpu.*)."""
    if target == SAS_CONFIG:
        return [
            r.value
            for r in result.recommendations
            if r.setting == setting and r.rule.startswith(("memory.", "cpu."))
        ]
    return [r.value for r in result.recommendations if r.target == target and r.setting == setting]


def test_partsize_never_below_minpartsize() -> None:
    # SPD Server 5.3 User's Guide, PARTSIZE= table option: "the value of PARTSIZE= must be
    # greater than the value of MINPARTSIZE= to have any effect"; bogacz2012 l.226-232
    # raised the partition size to get fewer DPFs. 64 CPUs → 128 paths × 17 = 2176 DPFs,
    # so a 2000 GB table at 1024M (2000 DPFs) would have been told PARTSIZE=942.
    result = advise(server__cpus=64, workload__largest_table_gb=2000)
    assert values(result, SPDSSERV, "MINPARTSIZE") == ["1024M"]
    assert values(result, PROGRAM, "PARTSIZE") == []
    [warning] = [w for w in result.warnings if w.rule == "spds.partsize"]
    assert "PARTSIZE=942" in warning.message


def test_partsize_above_minpartsize_when_given() -> None:
    # bogacz2012 l.237: partsize=5820 for a big table, above its MINPARTSIZE 1024M (l.198).
    result = advise(workload__largest_table_gb=20000)
    [part] = values(result, PROGRAM, "PARTSIZE")
    assert int(part) > 1024


def memory_budget_mb(result: Result) -> float:
    """SAS sessions × MEMSIZE + SPD Server sessions × SORTSIZE + the OS reserve."""
    inv = result.inventory
    sessions = inv.workload.concurrent_sessions
    memsize = parse_size_mb(values(result, SAS_CONFIG, "MEMSIZE")[0])
    spds = values(result, SPDSSERV, "SORTSIZE")
    spds_mb = parse_size_mb(spds[0]) if spds else 0
    return sessions * (memsize + spds_mb) + memory.os_reserve_mb(inv)


@settings(max_examples=150, deadline=None)
@given(
    ram_gb=st.floats(0.5, 65536),
    sessions=st.integers(1, 5000),
    spds=st.booleans(),
)
def test_memory_budget_fits_ram_or_is_warned(ram_gb: float, sessions: int, spds: bool) -> None:
    # bogacz2012 l.211 gave SPD Server 50 × 1024M of 64 GB; bartucca2005 l.269 gave SAS half
    # of the rest. The whole budget must fit in RAM or carry a warning.
    doc = example("prime-spds-aix")
    doc["server"]["ram_gb"] = ram_gb
    doc["workload"]["concurrent_sessions"] = sessions
    if not spds:
        doc["sas"]["spds"] = None
    result = advise_inventory(parse(doc))
    over = memory_budget_mb(result) > result.inventory.server.ram_mb
    warned = [w for w in result.warnings if "Memory budget over RAM" in w.message]
    assert bool(warned) == over


def test_sortsize_is_bounded_on_a_16_tb_single_session_box() -> None:
    # The audit's case: 16 TB, one session gave -SORTSIZE 4096G. bartucca2005 l.269 ran 4G;
    # chew l.63-69: bigger bins help only while RAM lasts, smaller can even sort faster.
    result = advise("lemans-aix53-etl", server__ram_gb=16384)
    assert values(result, SAS_CONFIG, "SORTSIZE") == ["4G"]
    assert values(result, SAS_CONFIG, "MEMSIZE") == ["8192G"]


def test_work_smaller_than_the_largest_table_is_warned() -> None:
    # bartucca2005 l.269 and l.305-316: the 60 GB sort moved 120,804 MB through one utility
    # file (966,434 writes and reads of 64 KB) on /raid0, the WORK/UTILLOC file system.
    result = advise("lemans-aix53-etl", workload__largest_table_gb=1200)
    [warning] = [w for w in result.warnings if w.rule == "memory.sortsize"]
    assert "WORK and UTILLOC hold 998.5 GB (/raid0)" in warning.message
    assert "largest table (1200 GB)" in warning.message
    assert [w for w in advise("lemans-aix53-etl").warnings if w.rule == "memory.sortsize"] == []


def layout_warnings(result: Result) -> list[str]:
    return [w.message + " | " + w.action for w in result.warnings if w.rule == "spds.layout"]


def test_no_planned_size_when_there_is_no_data() -> None:
    # bogacz2012 l.22: 2.88 TB was its own estimate; with no data there is nothing to scale.
    result = advise(workload__total_data_gb=0, workload__growth_gb_per_week=0)
    doc = example("prime-spds-aix")
    doc["storage"] = [s for s in doc["storage"] if s["role"] != "spds_index"]
    doc["workload"].update(total_data_gb=0, growth_gb_per_week=0)
    (text,) = layout_warnings(advise_inventory(parse(doc)))
    assert "2880 GB planned" not in text and "unscaled" in text
    assert not [t for t in layout_warnings(result) if "planned" in t]


def test_data_paths_smaller_than_the_data_are_warned() -> None:
    # prime lists 4 × 180 GB = 720 GB of spds_data for 2880 GB of data.
    (text,) = layout_warnings(advise(workload__growth_gb_per_week=0))
    assert text.startswith("The spds_data file systems hold 720 GB: today's 2880 GB")


def test_data_paths_that_fill_with_growth_say_when() -> None:
    # 720 GB holds 500 GB today; 10 GB/week fills the other 220 GB in 22 weeks.
    result = advise(workload__total_data_gb=500, workload__growth_gb_per_week=10)
    (text,) = layout_warnings(result)
    assert "full in 22 weeks" in text


def test_spds_work_smaller_than_the_largest_table_is_warned() -> None:
    # bartucca2005 l.305-316: a sort spills about its input's size; bogacz2012 l.24 sized
    # /spdswork01-02 (2 × 177 GB) for all concurrent temp files.
    result = advise(workload__largest_table_gb=400, workload__total_data_gb=700)
    (text,) = [t for t in layout_warnings(result) if "spds_work" in t]
    assert "hold 354 GB, less than the largest table (400 GB)" in text


def test_layout_text_says_the_papers_figure_included_growth() -> None:
    [warning] = [w for w in advise().warnings if w.rule == "spds.data_paths"]
    assert "plus three years of weekly growth came to 2.88 TB" in warning.action


def test_maxmemorysize_is_advice_on_5x_only() -> None:
    # SPD Server 5.3 Administrator's Guide, MAXMEMORYSIZE=: caps each SPDSBASE process,
    # default unlimited; bogacz2012 l.211: users override above 2 GB per job.
    five = advise(sas__spds={"version": "5.3"})
    [rec] = [r for r in five.recommendations if r.setting == "MAXMEMORYSIZE"]
    assert rec.kind == "advice" and "l.211" in rec.rationale
    assert "MAXMEMORYSIZE" not in five.artifacts["spdsserv.parm"]
    assert values(advise(), SPDSSERV, "MAXMEMORYSIZE") == []


def test_concurrency_test_scales_bogacz_steps_to_the_peak() -> None:
    # bogacz2012 l.250-252: 10 and 20 jobs before and after, 30 after.
    [rec] = [r for r in advise().recommendations if r.rule == "spds.concurrency_test"]
    assert (rec.value, rec.kind) == ("10, 20, 30, 50", "check")
    [small] = [
        r
        for r in advise(workload__concurrent_sessions=12).recommendations
        if r.rule == "spds.concurrency_test"
    ]
    assert small.value == "10, 12"


def test_index_and_metadata_sized_by_bogacz_ratio() -> None:
    # bogacz2012 l.22-24: index 325 GB, metadata 30 GB, work 2 × 177 GB next to 2.88 TB.
    exact = [w for w in advise(workload__growth_gb_per_week=0).warnings if w.severity == "low"]
    assert [w for w in exact if w.rule == "spds.layout"] == []
    grown = advise(workload__total_data_gb=5760, workload__growth_gb_per_week=0)
    texts = [w.message for w in grown.warnings if w.rule == "spds.layout" and w.severity == "low"]
    assert any(t.startswith("The SPD Server index file system(s) hold 325 GB") for t in texts)
    assert any("metadata 30 GB next to 2880 GB of data, 60 GB at the 5760 GB" in t for t in texts)
    assert any("work 2 × 177 GB next to" in t for t in texts)


def test_shared_box_rationale_names_the_resource_manager_and_no_false_session_cut() -> None:
    # chew l.665: a resource manager, not CPUCOUNT, holds a group to its share of the box.
    result = advise()
    [cpucount] = [r for r in result.recommendations if r.setting == "CPUCOUNT"]
    assert "AIX WLM" in cpucount.rationale and "chew l.665" in cpucount.rationale
    # With SPD Server its share moves with the session count: no session figure is promised.
    [budget] = [w for w in result.warnings if w.rule == "memory.memsize"]
    assert "cut peak sessions" not in budget.action
