"""Test documents changed by hand, kept within the checks across fields
(`rules.inventory_fit`): an AIX example moved to Linux keeps JFS2, which Linux cannot
mount, and a largest table raised past the total data needs a total that holds it."""

from __future__ import annotations

from typing import Any

from rules.inventory_fit import ANY_OS, FILESYSTEMS


def fit_filesystems(doc: dict[str, Any]) -> dict[str, Any]:
    """Each storage entry on a file system the document's OS mounts: one it cannot mount
    becomes one it can (going round that OS's list, so the entries still differ)."""
    mounts = FILESYSTEMS[doc["server"]["os"]]
    for i, entry in enumerate(doc["storage"]):
        if entry["filesystem"] not in mounts + ANY_OS:
            entry["filesystem"] = mounts[i % len(mounts)]
    return doc


def fit_total(doc: dict[str, Any]) -> dict[str, Any]:
    """The total data raised to hold the largest table (a total of 0 stays: unknown)."""
    work = doc["workload"]
    if work["total_data_gb"]:
        work["total_data_gb"] = max(work["total_data_gb"], work["largest_table_gb"])
    return doc
