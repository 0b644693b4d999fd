"""io rules against bartucca2005's lemans runs: BUFSIZE/PAGESIZE 256K, BUFNO 16, direct I/O."""

from __future__ import annotations

from typing import Any

import rules
from tests.rules.conftest import lemans, recs


def advise(doc: dict[str, Any]) -> dict[str, Any]:
    return rules.advise(doc)


def test_lemans_bufsize_matches_the_256k_max_transfer() -> None:
    rec = recs(advise(lemans()), "io.bufsize")["BUFSIZE"]
    assert rec["target"] == "sasv9.cfg"
    assert rec["value"] == "256K"
    assert "raid5lv01 256 KB" in rec["rationale"]
    assert "−25.8 %" in rec["effect"]
    assert "38:59.46" in rec["effect"]


def test_lemans_utility_file_pagesize_is_advice_not_bufsize() -> None:
    rec = recs(advise(lemans()), "io.utility_pagesize")["PROC SORT PAGESIZE"]
    assert (rec["target"], rec["value"], rec["kind"]) == ("program", "256K", "advice")
    assert "BUFSIZE= there is a syntax error" in rec["rationale"]
    assert "−12.8 %" in rec["effect"]
    assert rec["extra"]["example"].endswith("pagesize=256K;")


def test_lemans_bufno_16_with_the_cost_of_64() -> None:
    rec = recs(advise(lemans()), "io.bufno")["BUFNO"]
    assert rec["value"] == "16"
    assert "16 × 256K = 4M" in rec["rationale"]
    assert "48 × 256K = 12M" in rec["rationale"]
    assert "16 s of 31:32" in rec["rationale"]
    assert "−7.2 %" in rec["effect"]
    assert "−11.5 % CPU" in rec["effect"]


def test_lemans_direct_io_is_the_papers_dio_mounts_on_sas_913() -> None:
    out = recs(advise(lemans()), "io.direct_io")
    assert set(out) == {"direct I/O mount"}
    rec = out["direct I/O mount"]
    assert rec["target"] == "system"
    assert rec["value"] == (
        "mkdir /raid0dio /raid5dio; mount -o dio /raid0 /raid0dio; mount -o dio /raid5 /raid5dio"
    )
    assert rec["extra"]["directories"] == "/raid0dio /raid5dio"
    assert "60 GB" in rec["rationale"] and "16 GB" in rec["rationale"]
    assert "56 % slower" in rec["effect"]
    assert "60 % of memory was freed" in rec["effect"]


def test_sas_94_uses_enabledirectio_instead_of_mounts() -> None:
    doc = lemans()
    doc["sas"]["version"] = "9.4"
    result = advise(doc)
    out = recs(result, "io.direct_io")
    assert set(out) == {"ENABLEDIRECTIO/USEDIRECTIO"}
    assert out["ENABLEDIRECTIO/USEDIRECTIO"]["target"] == "program"
    assert "USEDIRECTIO=YES" in out["ENABLEDIRECTIO/USEDIRECTIO"]["value"]
    assert recs(result, "io.bufno")["BUFNO"]["target"] == "sasv9_local.cfg"


def test_no_direct_io_or_bufno_when_tables_fit_in_ram() -> None:
    doc = lemans()
    doc["workload"]["largest_table_gb"] = 12
    result = advise(doc)
    assert recs(result, "io.direct_io") == {}
    assert recs(result, "io.bufno") == {}
    assert recs(result, "io.bufsize")["BUFSIZE"]["value"] == "256K"


def test_no_direct_io_for_a_mostly_analytic_mix() -> None:
    doc = lemans()
    doc["workload"]["mix"] = {"etl": 0.2, "analytics": 0.8}
    assert recs(advise(doc), "io.direct_io") == {}


def test_missing_max_transfer_is_skipped_with_its_field_path() -> None:
    doc = lemans()
    del doc["storage"][1]["max_transfer_kb"]
    result = advise(doc)
    assert recs(result, "io.bufsize") == {}
    skipped = {(s["rule"], s["field"]) for s in result["skipped"]}
    assert ("io.bufsize", "storage[1].max_transfer_kb") in skipped


def test_differing_max_transfers_take_the_largest_and_say_why() -> None:
    doc = lemans()
    doc["storage"].append({**doc["storage"][1], "name": "raid5lv02", "mount": "/raid5b"})
    doc["storage"][2]["max_transfer_kb"] = 512
    rec = recs(advise(doc), "io.bufsize")["BUFSIZE"]
    assert rec["value"] == "512K"
    assert "the LUNs differ, so the largest (512 KB) is used" in rec["rationale"]


def test_huge_max_transfer_is_capped_at_1m() -> None:
    doc = lemans()
    doc["storage"][1]["max_transfer_kb"] = 16384
    rec = recs(advise(doc), "io.bufsize")["BUFSIZE"]
    assert rec["value"] == "1M"
    assert "capped to 1M" in rec["rationale"]


def test_partly_missing_max_transfer_names_the_gap() -> None:
    doc = lemans()
    doc["storage"].append({**doc["storage"][1], "name": "raid5lv02", "mount": "/raid5b"})
    del doc["storage"][2]["max_transfer_kb"]
    rec = recs(advise(doc), "io.bufsize")["BUFSIZE"]
    assert rec["value"] == "256K"
    assert "storage[2].max_transfer_kb not given" in rec["rationale"]
