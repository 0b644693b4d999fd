"""Throughput estimate: disks × assumed MB/s against 100 MB/s per core; SAN LUNs not guessed."""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example
from tests.rules.conftest import recs


def warnings(result: dict[str, Any]) -> list[str]:
    return [w["message"] for w in result["warnings"] if w["rule"] == "throughput.estimate"]


def san(doc: dict[str, Any]) -> dict[str, Any]:
    """The same storage without adapters: the host cannot tell whether it is a SAN LUN."""
    for s in doc["storage"]:
        s["adapters"] = []
    return doc


def test_lemans_san_luns_are_not_estimated_from_disks() -> None:
    # lemans's LUNs sit behind fscsi0/fscsi1; bartucca2005 l.244 measured its two-LUN RAID 0
    # volume at 118.9 MB/s with dd where 2 "disks" × 20 MB/s would say 40: no warning.
    result = rules.advise(example("lemans-aix53-etl"))
    assert warnings(result) == []
    rationale = recs(result, "throughput.estimate")["I/O throughput target"]["rationale"]
    assert "WORK: not estimated, raid0lv01 (fscsi0, fscsi1) are SAN LUNs" in rationale
    assert "118.9 MB/s write" in rationale


def test_local_disk_shortfall_is_at_most_medium_and_says_what_it_assumes() -> None:
    found = [w for w in rules.advise(san(example("lemans-aix53-etl")))["warnings"]
             if w["rule"] == "throughput.estimate"]  # fmt: skip
    assert len(found) == 2
    work, data = found
    assert (
        "2 disks × 20 MB/s (assumed) = 40 MB/s for WORK vs 8 logical CPUs × 100 MB/s = "
        "800 MB/s needed" in work["message"]
    )
    assert "5% of the need" in work["message"]
    assert "an estimate, not a measurement" in work["message"]
    assert work["severity"] == "medium"
    # RAID 5 over 5 disks: one disk's worth is parity.
    assert "4 disks × 20 MB/s (assumed) = 80 MB/s for data" in data["message"]


def test_prime_estimate_is_medium_not_high() -> None:
    # bogacz2012's own warehouse: an estimate from assumed per-disk rates is never "high".
    found = [w for w in rules.advise(example("prime-spds-aix"))["warnings"]
             if w["rule"] == "throughput.estimate"]  # fmt: skip
    assert [w["severity"] for w in found] == ["medium"]


def test_target_is_an_advice_with_both_estimates() -> None:
    result = rules.advise(san(example("lemans-aix53-etl")))
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
    doc = san(example("lemans-aix53-etl"))
    doc["storage"][0].update(media="nvme", disks=2)
    found = warnings(rules.advise(doc))
    assert [m for m in found if "for WORK" in m] == []


def test_mirrors_count_half_and_severity_follows_the_gap() -> None:
    doc = san(example("lemans-aix53-etl"))
    doc["server"]["cpus"] = 2
    doc["storage"][0].update(raid="10", disks=8)
    doc["storage"][1].update(media="ssd")
    result = rules.advise(doc)
    (warning,) = [w for w in result["warnings"] if w["rule"] == "throughput.estimate"]
    assert (
        "4 disks × 20 MB/s (assumed) = 80 MB/s for WORK vs 2 logical CPUs × 100 MB/s = 200 MB/s"
        in (warning["message"])
    )
    assert warning["severity"] == "medium"  # 80 < half of 200; an estimate goes no higher
    doc["storage"][0].update(disks=16)  # 160 of 200: short, but not by half
    (warning,) = [w for w in rules.advise(doc)["warnings"] if w["rule"] == "throughput.estimate"]
    assert warning["severity"] == "low"


def test_no_storage_is_skipped() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"] = []
    result = rules.advise(doc)
    assert {"rule": "throughput.estimate", "field": "storage"} in [
        {"rule": s["rule"], "field": s["field"]} for s in result["skipped"]
    ]


def test_physical_cores_set_the_need_where_they_are_known() -> None:
    doc = san(example("lemans-aix53-etl"))
    doc["server"] |= {"cpus": 32, "cores": 4}  # POWER with SMT8: 4 cores, 32 logical CPUs
    target = recs(rules.advise(doc), "throughput.estimate")["I/O throughput target"]
    assert target["value"] == "400 MB/s"
    assert "4 cores × 100 MB/s = 400 MB/s needed" in target["rationale"]
    doc = example("lemans-aix53-etl")
    doc["server"] |= {"cpus": 32, "cores": 4}
    target = recs(rules.advise(doc), "throughput.estimate")["I/O throughput target"]
    assert "4 cores × 100 MB/s = 400 MB/s" in target["rationale"]


def test_logical_cpus_stand_in_for_unknown_cores_and_it_is_said() -> None:
    target = recs(rules.advise(example("lemans-aix53-etl")), "throughput.estimate")
    rationale = target["I/O throughput target"]["rationale"]
    assert "8 logical CPUs × 100 MB/s = 800 MB/s needed" in rationale
    assert "neither Physical cores nor SMT threads per core gives" in rationale


def test_smt_threads_turn_logical_cpus_into_cores() -> None:
    doc = example("lemans-aix53-etl")
    doc["server"] |= {"cpus": 64, "smt_threads": 8}  # POWER8 with SMT8: 8 cores
    rationale = recs(rules.advise(doc), "throughput.estimate")["I/O throughput target"]["rationale"]
    assert "8 cores × 100 MB/s = 800 MB/s needed" in rationale
    assert "8 cores (64 logical CPUs / SMT8)" in rationale


def test_a_measured_rate_replaces_the_estimate() -> None:
    # A measured figure (dd as bartucca2005 Listing 2, or the collector's --measure): a SAN
    # LUN is judged on it instead of being left unestimated.
    doc = example("lemans-aix53-etl")
    for entry in doc["storage"]:
        entry["measured_mb_s"] = 118.9
    result = rules.advise(doc)
    rationale = recs(result, "throughput.estimate")["I/O throughput target"]["rationale"]
    assert "raid0lv01 measured 118.9 MB/s = 118.9 MB/s for WORK" in rationale
    assert {w["severity"] for w in result["warnings"] if w["rule"] == "throughput.estimate"} == {
        "medium"
    }
