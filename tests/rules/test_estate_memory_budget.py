"""The memory over-commit the property tests found (issue 24 item 5): the GPFS pagepool and,
on Linux, the ZFS ARC's bound were in no memory budget. IBM Spectrum Scale "Pinned memory"
(ibm-scale-pinned): the pagepool cannot be swapped out, so GPFS always takes at least the
pagepool; OpenZFS zfs_arc_max (openzfs-arc-max, unconfirmed that the ARC keeps it beside
applications on Linux). Both now come off the RAM before bartucca2005's half for SAS (l.269)."""

from __future__ import annotations

import copy
from typing import Any

import rules
from rules.sources import SOURCES
from tests.rules.test_properties_estate import PAGEPOOL_OVER_RAM, check_memory


def memory(doc: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    result = rules.advise(doc)
    recs = {r["setting"]: r for r in result["recommendations"] if r["rule"].startswith("memory")}
    warnings = [w for w in result["warnings"] if w["rule"] == "memory.memsize"]
    return recs, warnings


def test_gpfs_pagepool_comes_off_the_memory_budget() -> None:
    """64 GB, pagepool 48 GB, one session: MEMSIZE was 32G (80 GB committed, no warning);
    the pagepool is the file cache of every SAS file system here, so the account is one
    (issue 24, S8): 64 − 48 − the OS reserve 6.4 GB = 9.6 GB → 9G, no second half kept for a
    page cache; the rationale names the pinned pagepool."""
    recs, warnings = memory(PAGEPOOL_OVER_RAM)
    assert recs["MEMSIZE"]["value"] == "9G"
    assert "GPFS pagepool (pinned) 48 GB" in recs["MEMSIZE"]["rationale"]
    assert "ibm-scale-pinned" in recs["MEMSIZE"]["sources"]
    assert recs["SORTSIZE"]["value"] == "4G"
    assert not warnings
    check_memory(PAGEPOOL_OVER_RAM)


def test_pagepool_near_the_ram_warns_of_over_commit() -> None:
    """A pagepool of 62 GB of 64 with 8 sessions: 8 × 512M (the floor) + 62 GB passes the
    RAM, and the memory warning says so and names the pagepool to shrink."""
    doc = copy.deepcopy(PAGEPOOL_OVER_RAM)
    doc["server"]["gpfs_pagepool_gb"] = 62
    doc["workload"]["concurrent_sessions"] = 8
    _, (warning,) = memory(doc)
    assert "GPFS pagepool (pinned) 62 GB" in warning["message"]
    assert "pagepool" in warning["action"] and "ibm-scale-pinned" in warning["sources"]


def test_linux_zfs_arc_bound_comes_off_the_memory_budget() -> None:
    """Linux with zfs_arc_max 32 GB of 64: SAS's half is of the 32 GB left (16G), and the
    source is marked unconfirmed."""
    doc = copy.deepcopy(PAGEPOOL_OVER_RAM)
    del doc["server"]["gpfs_pagepool_gb"]
    doc["server"]["zfs_arc_max_gb"] = 32
    recs, warnings = memory(doc)
    assert recs["MEMSIZE"]["value"] == "16G"
    assert "ZFS ARC bound 32 GB" in recs["MEMSIZE"]["rationale"]
    assert "openzfs-arc-max" in recs["MEMSIZE"]["sources"]
    assert not SOURCES["openzfs-arc-max"].confirmed
    assert not warnings


def test_budget_without_caches_is_unchanged() -> None:
    """Without a pagepool or ARC bound the budget is bartucca2005's: half of 64 GB."""
    doc = copy.deepcopy(PAGEPOOL_OVER_RAM)
    del doc["server"]["gpfs_pagepool_gb"]
    recs, _ = memory(doc)
    assert recs["MEMSIZE"]["value"] == "32G"
    assert recs["MEMSIZE"]["sources"] == [
        "bartucca2005",
        "chew",
        "sas94-config",
        "sas-memsize-defaults",
    ]
