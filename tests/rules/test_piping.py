"""piping.mp_connect against pohl2007 Table 3."""

from __future__ import annotations

from typing import Any

import pytest

from rules import Result
from rules.catalog import piping
from rules.model import Recommendation
from tests.conftest import example
from tests.rules.conftest import advise


def box(
    summary: float = 1.0, licensed: bool = True, largest_gb: float = 60, cpus: int = 8
) -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"]["cpus"] = cpus
    doc["sas"]["connect_licensed"] = licensed
    doc["workload"]["mix"] = {"summary": summary, "etl": round(1 - summary, 6)}
    doc["workload"]["largest_table_gb"] = largest_gb
    return doc


def piping_recs(result: Result) -> list[Recommendation]:
    return [r for r in result.recommendations if r.rule == "piping.mp_connect"]


def piping_warnings(result: Result) -> list[str]:
    return [w.message for w in result.warnings if w.rule == "piping.mp_connect"]


def test_table3_figures() -> None:
    # pohl2007 Table 3 (Unix): 1-CPU piped 70.4 %, 2-CPU piped 57.6 %; manual 2/4/8-way.
    assert (piping.PIPED_1CPU_PCT, piping.PIPED_2CPU_PCT) == (70.4, 57.6)
    assert piping.MANUAL_UNPIPED_PCT == (90.2, 89.7, 91.7)
    assert piping.MANUAL_PIPED_PCT == (58.9, 62.8, 66.5)
    # Manual partitioning, piped, gets worse as the ways grow.
    assert list(piping.MANUAL_PIPED_PCT) == sorted(piping.MANUAL_PIPED_PCT)


def test_summary_heavy_large_data_with_connect_gets_piping_advice() -> None:
    (rec,) = piping_recs(advise(box()))
    assert (rec.target, rec.setting, rec.kind) == ("program", "SASESOCK piping", "advice")
    assert "run time to 58–70 %" in rec.effect
    assert "70.4 %" in rec.effect and "57.6 %" in rec.effect
    assert "100% of the work" in rec.rationale and "60 GB" in rec.rationale
    example_code = rec.payload.code.lower()
    for needed in ("sasesock", "signon", "rsubmit", "endrsubmit", "-cpucount 2 -threads"):
        assert needed in example_code
    assert "89.7–91.7 %" in rec.payload.avoid
    assert "58.9–66.5 %" in rec.payload.avoid
    assert piping_warnings(advise(box())) == []


def test_without_connect_licence_says_what_it_would_buy() -> None:
    result = advise(box(licensed=False))
    assert piping_recs(result) == []
    (message,) = piping_warnings(result)
    assert "SAS/CONNECT is not licensed" in message
    assert "run time to 58–70 %" in message
    (warning,) = [w for w in result.warnings if w.rule == "piping.mp_connect"]
    assert warning.severity == "low"
    assert "Do not split the job by hand" in warning.action


@pytest.mark.parametrize(
    "doc",
    [
        box(summary=0.2),  # not summary-heavy
        box(largest_gb=1.0),  # below pohl2007's smallest table, 1.2 GB
        box(cpus=1),  # writer and reader would share one CPU
        example("lemans-aix53-etl"),  # ETL only
        example("prime-spds-aix"),
    ],
)
def test_no_advice_where_the_paper_did_not_measure_it(doc: dict[str, Any]) -> None:
    result = advise(doc)
    assert piping_recs(result) == []
    assert piping_warnings(result) == []


def test_threshold_edges_are_inclusive() -> None:
    assert len(piping_recs(advise(box(summary=0.25, largest_gb=1.2, cpus=2)))) == 1


def test_nothing_is_skipped() -> None:
    assert [s for s in advise(box()).skipped if s.rule.startswith("piping.")] == []


def test_short_work_adds_the_disk_space_saving() -> None:
    # pohl2007 l.20: piping "reduces the demand for disk space": said where WORK (here
    # 100 GB) cannot hold the largest table (200 GB), and not where it can (998.5 GB).
    doc = box(largest_gb=200)
    doc["storage"][0]["size_gb"] = 100
    (rec,) = piping_recs(advise(doc))
    assert "WORK is short too (100 GB for a 200 GB table)" in rec.rationale
    assert "pohl2007 (l.20)" in rec.rationale
    doc["sas"]["connect_licensed"] = False
    (warning,) = [w for w in advise(doc).warnings if w.rule == "piping.mp_connect"]
    assert "never lands in WORK" in warning.action
    (rec,) = piping_recs(advise(box()))
    assert "WORK is short" not in rec.rationale
