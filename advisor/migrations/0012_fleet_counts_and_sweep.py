"""A finished fleet's counts stored on it (read by its status instead of a count over its
servers), and the sweep's own time apart from the workers' sign of life."""

from __future__ import annotations

from typing import Any

from django.db import migrations, models
from django.db.models import Count

BATCH = 1000  # finished fleets counted per query


def count_finished(apps: Any, schema_editor: Any) -> None:
    """Fill the counts of the fleets finished before they were stored."""
    fleet_model = apps.get_model("advisor", "Fleet")
    item_model = apps.get_model("advisor", "FleetItem")
    todo = fleet_model.objects.filter(status="done", done_count__isnull=True)
    while ids := list(todo.values_list("pk", flat=True)[:BATCH]):
        counts: dict[int, dict[str, int]] = {pk: {} for pk in ids}
        rows = (
            item_model.objects.filter(fleet_id__in=ids)
            .values_list("fleet_id", "status")
            .annotate(n=Count("id"))
        )
        for fleet_id, status, n in rows:
            counts[fleet_id][status] = n
        fleets = [
            fleet_model(pk=pk, done_count=c.get("done", 0), failed_count=c.get("failed", 0))
            for pk, c in counts.items()
        ]
        fleet_model.objects.bulk_update(fleets, ["done_count", "failed_count"])


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0011_worker_lifecycle_and_fleet_summary"),
    ]

    operations = [
        migrations.AddField(
            model_name="fleet",
            name="done_count",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="fleet",
            name="failed_count",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="fleet",
            name="swept_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(count_finished, migrations.RunPython.noop, elidable=True),
    ]
