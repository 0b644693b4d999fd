"""Throughput estimate: disks × assumed MB/s against 100 MB/s per core."""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example
from tests.rules.conftest import recs


def warnings(result: dict[str, Any]) -> list[str]:
    return [w["message"] for w in result["warnings"] if w["rule"] == "throughput.estimate"]


def test_lemans_work_shortfall_is_spelled_out() -> None:
    found = warnings(rules.advise(example("lemans-aix53-etl")))
    assert len(found) == 2
    work, data = found
    assert (
        "2 disks × 20 MB/s = 40 MB/s for WORK vs 8 logical CPUs × 100 MB/s = 800 MB/s needed"
        in work
    )
    assert "5% of the need" in work
    assert "assumptions" in work
    # RAID 5 over 5 disks: one disk's worth is parity.
    assert "4 disks × 20 MB/s = 80 MB/s for data" in data


def test_target_is_an_advice_with_both_estimates() -> None:
    result = rules.advise(example("lemans-aix53-etl"))
    (rec,) = [r for r in result["recommendations"] if r["rule"] == "throughput.estimate"]
    assert (rec["target"], rec["setting"], rec["value"]) == (
        "system",
        "I/O throughput target",
        "800 MB/s",
    )
    assert rec["kind"] == "advice"
    assert "40 MB/s for WORK" in rec["rationale"]
    assert "80 MB/s for data" in rec["rationale"]


def test_fast_nvme_work_does_not_warn() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0].update(media="nvme", disks=2)
    found = warnings(rules.advise(doc))
    assert [m for m in found if "for WORK" in m] == []


def test_mirrors_count_half_and_severity_follows_the_gap() -> None:
    doc = example("lemans-aix53-etl")
    doc["server"]["cpus"] = 2
    doc["storage"][0].update(raid="10", disks=8)
    doc["storage"][1].update(media="ssd")
    result = rules.advise(doc)
    (warning,) = [w for w in result["warnings"] if w["rule"] == "throughput.estimate"]
    assert (
        "4 disks × 20 MB/s = 80 MB/s for WORK vs 2 logical CPUs × 100 MB/s = 200 MB/s"
        in (warning["message"])
    )
    assert warning["severity"] == "high"  # 80 < half of 200


def test_no_storage_is_skipped() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"] = []
    result = rules.advise(doc)
    assert {"rule": "throughput.estimate", "field": "storage"} in [
        {"rule": s["rule"], "field": s["field"]} for s in result["skipped"]
    ]


def test_physical_cores_set_the_need_where_they_are_known() -> None:
    doc = example("lemans-aix53-etl")
    doc["server"] |= {"cpus": 32, "cores": 4}  # POWER with SMT8: 4 cores, 32 logical CPUs
    target = recs(rules.advise(doc), "throughput.estimate")["I/O throughput target"]
    assert target["value"] == "400 MB/s"
    assert "4 cores × 100 MB/s = 400 MB/s needed" in target["rationale"]


def test_logical_cpus_stand_in_for_unknown_cores_and_it_is_said() -> None:
    target = recs(rules.advise(example("lemans-aix53-etl")), "throughput.estimate")
    rationale = target["I/O throughput target"]["rationale"]
    assert "8 logical CPUs × 100 MB/s = 800 MB/s needed" in rationale
    assert "server.cores does not give" in rationale
