"""Solaris: chew's TLB-miss check and large pages (l.439-568), and UFS forcedirectio for
SAS 9.1.3, each with its undo."""

from __future__ import annotations

from typing import Any

import rules
from tests.conftest import example


def solaris(version: str = "10", **mix: float) -> dict[str, Any]:
    doc = example("lemans-aix53-etl")  # SAS 9.1.3, tables larger than RAM, sort-heavy ETL
    doc["server"] = {**doc["server"], "os": "solaris", "os_version": version}
    for entry in doc["storage"]:
        entry["filesystem"] = "ufs"
        entry.pop("adapters", None)
    doc["workload"]["mix"] = mix
    return doc


def recs(doc: dict[str, Any]) -> dict[str, Any]:
    result = rules.advise_inventory(rules.inventory_from(doc))
    return {r.setting: r for r in result.recommendations}


def test_large_pages_are_checked_first_and_advised_with_chews_conditions() -> None:
    # Solaris 9, chew's release: the mpss.so.1 preload is advised there only (on 10 and
    # later the kernel picks large pages itself: test_estate_solaris_aix).
    found = recs(solaris("9", etl=0.7, analytics=0.3))
    check, advice = found["check:trapstat -t"], found["MPSS for SAS"]
    assert check.kind == "check" and check.value == "trapstat -t 5 3"
    assert "above 5-10 %" in check.rationale and "chew l.482" in check.rationale
    assert advice.value == "LD_PRELOAD_64=/usr/lib/64/mpss.so.1 MPSSHEAP=4M"
    assert "without the two variables" in advice.rationale  # the undo
    assert advice.gain_pct == 45.7  # chew l.557-559: IML ~70 → ~38 min


def test_no_large_page_advice_without_cpu_bound_work() -> None:
    result = rules.advise_inventory(rules.inventory_from(solaris(etl=1.0)))
    skipped = {s.rule: s.field for s in result.skipped}
    assert skipped["solaris.large_pages"] == "workload.mix.analytics"


def test_sas_913_on_ufs_gets_forcedirectio_with_its_undo() -> None:
    found = recs(solaris(etl=0.9, analytics=0.1))
    advice = found["forcedirectio mount"]
    assert advice.value.startswith("mount -F ufs -o remount,forcedirectio /")
    assert "remount,noforcedirectio" in advice.rationale
    assert "Upgrade" not in " ".join(r.rationale for r in found.values())
