"""Assessments keep the version their result was stored in, and its counts as columns:
warnings by severity and recommendations by status. Every stored result is read once here
(rules.result_read reads each shape stored so far) to count it."""

from __future__ import annotations

from typing import Any

import orjson
from django.db import migrations, models

from rules.result_read import ResultError, read_result, stored_version

BATCH = 500
SEVERITIES = {"high": "high_warnings", "medium": "medium_warnings", "low": "low_warnings"}
STATUSES = {
    "change": "change_count", "unknown": "unknown_count", "keep": "keep_count",
    "check": "check_count", "advice": "advice_count",
}  # fmt: skip


def _counted(row: Any) -> Any:
    document = orjson.loads(row.result_json)
    try:
        result = read_result(document)
    except ResultError:  # no result the product wrote: left uncounted rather than lost
        return row
    row.result_version = stored_version(document)
    for key, value in result.severity_counts().items():
        setattr(row, SEVERITIES[key], value)
    for key, value in result.status_counts().items():
        setattr(row, STATUSES[key], value)
    return row


def count_stored(apps: Any, schema_editor: Any) -> None:
    Assessment = apps.get_model("advisor", "Assessment")
    columns = ["result_version", *SEVERITIES.values(), *STATUSES.values()]
    rows = Assessment.objects.only("pk", "result_json").order_by("pk")
    batch = []
    for row in rows.iterator(chunk_size=BATCH):
        batch.append(_counted(row))
        if len(batch) == BATCH:
            Assessment.objects.bulk_update(batch, columns)
            batch = []
    if batch:
        Assessment.objects.bulk_update(batch, columns)


def _count() -> models.PositiveIntegerField:
    return models.PositiveIntegerField(default=0)


class Migration(migrations.Migration):
    dependencies = [("advisor", "0016_worker_requeues_and_delivery_lifecycle")]

    operations = [
        migrations.AddField(
            "assessment", "result_version", models.PositiveSmallIntegerField(default=1)
        ),
        *[
            migrations.AddField("assessment", name, _count())
            for name in (*SEVERITIES.values(), *STATUSES.values())
        ],
        migrations.RunPython(count_stored, migrations.RunPython.noop),
    ]
