"""A real bundle with a measurement (tests.collector.helpers.measured_bundle: the collector
run on this machine with --measure), its draft and an assessment saved from it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.models import Assessment
from rules.parse import draft
from tests.collector.helpers import measured_bundle as measured_bundle  # re-exported

WORKLOAD = {
    "concurrent_sessions": 4, "mix": {"etl": 1.0}, "largest_table_gb": 50,
    "total_data_gb": 500,
}  # fmt: skip


def measured_document(text: str) -> dict[str, Any]:
    """The bundle's draft with the workload given and every file system a data one."""
    document: dict[str, Any] = draft(text).document
    document["workload"] = dict(WORKLOAD)
    for entry in document["storage"]:
        entry["role"] = "data"
    assert any("measured_mb_s" in e for e in document["storage"]), "nothing was measured"
    return document


def saved(user: User, document: dict[str, Any]) -> Assessment:
    assessment, _ = assessment_create(user=user, document=document)
    return assessment


def remeasured(document: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The measured storage entry of `document`, its measurement replaced by `fields`
    (measured_mb_s=…, measured_by=…): what an earlier reading of it said."""
    entry: dict[str, Any] = next(e for e in document["storage"] if "measured_mb_s" in e)
    for key in [k for k in entry if k.startswith("measured_")]:
        del entry[key]
    entry |= fields
    return entry
