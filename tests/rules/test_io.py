"""io rules against bartucca2005's lemans runs: BUFSIZE/PAGESIZE 256K, BUFNO 16, direct I/O."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from tests.rules.conftest import lemans, recs


def advise(doc: dict[str, Any]) -> dict[str, Any]:
    return rules.advise(doc)


def test_lemans_bufsize_matches_the_256k_max_transfer_per_job() -> None:
    # bartucca2005 set BUFSIZE=256K on the output data set (l.486) and -bufsize 256K on the
    # sort job's command line (l.495): per job, so the advice is per job, not site-wide.
    rec = recs(advise(lemans()), "io.bufsize")["BUFSIZE"]
    assert (rec["target"], rec["value"], rec["kind"]) == ("program", "256K", "advice")
    assert "raid5lv01 256 KB" in rec["rationale"]
    assert "per job" in rec["rationale"] and "not site-wide" in rec["rationale"]
    assert "sas -bufsize 256K" in rec["extra"]["example"]
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
    # Per job, beside the per-program direct I/O (bartucca2005 l.647: -bufno 16 on the sort
    # job's command line), never site-wide (issue 24).
    assert recs(result, "io.bufno")["BUFNO"]["target"] == "program"


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
    assert rec["value"] == "256K"
    assert "the LUNs differ, so the largest (512 KB) is used" in rec["rationale"]
    assert "capped to 256K, the one page size bartucca2005 measured" in rec["rationale"]


@pytest.mark.parametrize(
    ("transfer_kb", "page", "note"),
    [(16384, "256K", "capped to 256K"), (512, "256K", "capped to 256K"),
     (100, "96K", "rounded down to 96K"), (4, "64K", "raised to 64K"), (64, "64K", ""),
     (128, "128K", "")],
)  # fmt: skip
def test_page_sizes_are_8k_multiples_between_64k_and_the_measured_256k(
    transfer_kb: int, page: str, note: str
) -> None:
    # bartucca2005 measured one page size, 256K (l.495, l.543); SAS's own pages are 8K
    # multiples up to 64K (BUFSIZE= data set option, SAS 9.2 Companion for UNIX).
    doc = lemans()
    for s in doc["storage"]:
        s["max_transfer_kb"] = transfer_kb
    result = advise(doc)
    rec = recs(result, "io.bufsize")["BUFSIZE"]
    assert rec["value"] == page
    assert note in rec["rationale"]
    assert recs(result, "io.utility_pagesize")["PROC SORT PAGESIZE"]["value"] == page
    assert f"16 × {page}" in recs(result, "io.bufno")["BUFNO"]["rationale"]


def test_partly_missing_max_transfer_names_the_gap() -> None:
    doc = lemans()
    doc["storage"].append({**doc["storage"][1], "name": "raid5lv02", "mount": "/raid5b"})
    del doc["storage"][2]["max_transfer_kb"]
    rec = recs(advise(doc), "io.bufsize")["BUFSIZE"]
    assert rec["value"] == "256K"
    assert "storage[2].max_transfer_kb not given" in rec["rationale"]
