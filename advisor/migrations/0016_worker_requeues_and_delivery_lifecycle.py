"""One lifecycle for work done on a worker: a report, fleet report or log counts the times
the sweep sent it again with no worker taking it (bounded, then it fails); a webhook
delivery records when it was queued (the sweep moves it) and when its latest attempt
started, deliveries stored before taking their event's time as their queue time; the
sweeps look up the unfinished rows by partial indexes."""

import django.utils.timezone
from django.db import migrations, models

UNFINISHED = models.Q(status__in=["queued", "running"])


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0013_joblog_worker_lifecycle"),
    ]

    operations = [
        *[
            migrations.AddField(
                model_name=model,
                name="requeues",
                field=models.PositiveSmallIntegerField(default=0),
            )
            for model in ("report", "fleetreport", "joblog")
        ],
        *[
            migrations.AddIndex(
                model_name=model,
                index=models.Index(
                    condition=UNFINISHED, fields=["status"], name=f"{model}_unfinished"
                ),
            )
            for model in ("report", "fleetreport")
        ],
        migrations.AddField(
            model_name="webhookdelivery",
            name="queued_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunSQL(
            "UPDATE advisor_webhookdelivery SET queued_at = created_at",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.AddIndex(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(status="pending"), fields=["created_at"], name="delivery_pending"
            ),
        ),
    ]
