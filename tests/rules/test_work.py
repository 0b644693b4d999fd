"""WORK/UTILLOC placement and the xu warnings (single spindle, RAID 5, shared storage)."""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example
from tests.rules.conftest import recs, warnings

XU_NUMBERS = ("2.5–2.8", "251–283", "1.2–1.5", "118–151")


def work_entry(**fields: Any) -> dict[str, Any]:
    entry = {
        "name": "work1", "mount": "/saswork", "role": "work", "raid": "0", "disks": 4,
        "size_gb": 500, "media": "hdd", "filesystem": "jfs2",
    }  # fmt: skip
    entry.update(fields)
    return entry


def test_lemans_work_and_utilloc_on_raid0() -> None:
    result = rules.advise(example("lemans-aix53-etl"))
    out = recs(result, "work.placement")
    assert out["WORK"]["value"] == "/raid0"
    assert out["UTILLOC"]["value"] == "/raid0"
    assert out["WORK"]["target"] == "sasv9_append.cfg"
    assert "apart from permanent data on /raid5" in out["WORK"]["rationale"]
    for figure in XU_NUMBERS:
        assert figure in out["WORK"]["rationale"]


def test_solid_state_work_wins_over_a_stripe() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"].append(work_entry(name="ssd1", mount="/ssdwork", disks=2, media="ssd"))
    assert recs(rules.advise(doc), "work.placement")["WORK"]["value"] == "/ssdwork"


def test_several_utilloc_paths_rotate_in_parentheses() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"] += [
        work_entry(name="util1", mount="/util1", role="utilloc"),
        work_entry(name="util2", mount="/util2", role="utilloc"),
    ]
    out = recs(rules.advise(doc), "work.placement")
    assert out["UTILLOC"]["value"] == "(/util1 /util2)"
    assert "rotates" in out["UTILLOC"]["rationale"]
    assert out["WORK"]["value"] == "/raid0"


def test_work_on_a_single_hdd_warns_with_xus_figures() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0].update(raid="jbod", disks=1)
    found = warnings(rules.advise(doc), "work.single_spindle")
    assert len(found) == 1
    assert found[0]["severity"] == "high"
    assert "single hard disk" in found[0]["message"]
    for figure in XU_NUMBERS:
        assert figure in found[0]["message"]


def test_single_ssd_does_not_warn() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0].update(raid="jbod", disks=1, media="ssd")
    assert warnings(rules.advise(doc), "work.single_spindle") == []


def test_work_on_raid5_warns_with_the_write_penalty() -> None:
    # xu never discusses parity RAID: the penalty is general storage knowledge (unconfirmed),
    # and bartucca2005 l.245 measured a SAN RAID 5 LUN at 164 MB/s sequential writes.
    found = warnings(rules.advise(example("prime-spds-aix")), "work.raid5")
    assert len(found) == 1
    (w,) = found
    assert "RAID 5" in w["message"] and "4 disk I/Os" in w["message"]
    assert "unconfirmed" in w["message"] and "164 MB/s" in w["message"]
    assert w["severity"] == "low"
    assert set(w["sources"]) == {"raid-small-write", "bartucca2005"}
    assert not any(figure in w["message"] for figure in XU_NUMBERS)


def test_work_on_raid6_counts_six_ios() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0].update(raid="6", disks=6)
    (warning,) = warnings(rules.advise(doc), "work.raid5")
    assert "6 disk I/Os" in warning["message"]


def test_shared_adapters_with_data_warn() -> None:
    (warning,) = warnings(rules.advise(example("lemans-aix53-etl")), "work.shared_disks")
    assert "adapters fscsi0, fscsi1 with raid5lv01" in warning["message"]
    assert warning["severity"] == "low"


def test_one_shared_adapter_is_a_medium_warning() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0]["adapters"] = ["fscsi0"]
    doc["storage"][1]["adapters"] = ["fscsi0"]
    (warning,) = warnings(rules.advise(doc), "work.shared_disks")
    assert "adapters fscsi0 with raid5lv01" in warning["message"]
    assert warning["severity"] == "medium"


def test_separate_adapters_do_not_warn() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"][0]["adapters"] = ["fscsi2"]
    assert warnings(rules.advise(doc), "work.shared_disks") == []


def test_no_work_storage_is_skipped_and_warned() -> None:
    doc = example("lemans-aix53-etl")
    doc["storage"] = [s for s in doc["storage"] if s["role"] != "work"]
    result = rules.advise(doc)
    assert recs(result, "work.placement") == {}
    assert any(s["rule"] == "work.placement" and s["field"] == "storage" for s in result["skipped"])
    (warning,) = warnings(result, "work.placement")
    assert warning["severity"] == "high"


def test_block_size_is_a_check_with_xus_table() -> None:
    # xu l.42 and Table 2 (l.77–88): 8K best on solid state (282 vs 251), 4K on the stripe
    # (151 vs 118 at 32K); HP-UX figures, so a check to test, not a value to set.
    rec = recs(rules.advise(example("lemans-aix53-etl")), "work.block_size")[
        "WORK file system block size"
    ]
    assert (rec["target"], rec["kind"]) == ("system", "check")
    assert "4K 251, 8K 282, 16K 251" in rec["rationale"]
    assert "4K 151, 8K 149, 32K 118" in rec["rationale"]
    assert rec["extra"]["command"] == "lsfs -q /raid0 (agblksize)"


def test_dual_work_when_the_fast_one_is_too_small() -> None:
    # xu l.94–100: solid-state WORK for most programs, a striped WORK for those that need
    # more space than it has.
    doc = example("lemans-aix53-etl")
    doc["storage"][0].update(media="ssd", size_gb=40)
    doc["storage"].append({**doc["storage"][0], "name": "bigwork", "mount": "/bigwork",
                           "media": "hdd", "size_gb": 2000, "disks": 8})  # fmt: skip
    result = rules.advise(doc)
    assert recs(result, "work.placement")["WORK"]["value"] == "/raid0"
    rec = recs(result, "work.dual")["WORK for large jobs"]
    assert (rec["target"], rec["value"], rec["kind"]) == ("program", "-WORK /bigwork", "advice")
    assert "40 GB cannot hold the largest sort (2 × 60 GB = 120 GB" in rec["rationale"]
    assert rec["extra"]["example"] == "sas -work /bigwork big_job.sas"


def test_no_dual_work_for_one_work_file_system() -> None:
    result = rules.advise(example("lemans-aix53-etl"))
    assert recs(result, "work.dual") == {}
    assert any(n["rule"] == "work.dual" for n in result["not_applicable"])
