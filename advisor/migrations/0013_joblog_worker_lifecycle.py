"""SAS logs analysed on a worker: a log's status, attempts and error (the worker
lifecycle's fields), its upload while it waits, and figures that are 0 until it is done.
Logs stored before this were analysed in their request: they are done."""

import django.utils.timezone
from django.db import migrations, models

STATUSES = [("queued", "Queued"), ("running", "Running"), ("done", "Done"), ("failed", "Failed")]


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0012_fleet_counts_and_sweep"),
    ]

    operations = [
        # Added as done (every log so far was analysed in its request), then queued becomes
        # the default of new rows, as for reports.
        migrations.AddField(
            model_name="joblog",
            name="status",
            field=models.CharField(choices=STATUSES, default="done", max_length=16),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="status",
            field=models.CharField(choices=STATUSES, default="queued", max_length=16),
        ),
        migrations.AddField(
            model_name="joblog",
            name="queued_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="joblog",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="joblog",
            name="finished_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="joblog",
            name="attempts",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="joblog",
            name="error",
            field=models.TextField(blank=True),
        ),
        migrations.AddField(
            model_name="joblog",
            name="upload",
            field=models.FileField(blank=True, upload_to="logs/uploads/%Y/%m/"),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="analysis",
            field=models.JSONField(default=dict),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="findings_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="job_seconds",
            field=models.FloatField(default=0.0),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="saving_seconds",
            field=models.FloatField(default=0.0),
        ),
        migrations.AlterField(
            model_name="joblog",
            name="step_count",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name="joblog",
            index=models.Index(
                condition=models.Q(status__in=["queued", "running"]) | ~models.Q(upload=""),
                fields=["status"],
                name="joblog_unfinished",
            ),
        ),
    ]
