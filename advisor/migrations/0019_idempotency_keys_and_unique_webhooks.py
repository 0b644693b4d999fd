"""Safe retries: an idempotency key and the request's hash on logs, reports, fleet reports
and webhooks (as assessments and fleets have), each key unique in its scope; and one
webhook per organisation, URL and event set.

Endpoints registered twice before this are merged first: the oldest of each set is kept,
the others' deliveries are moved to it (the delivery log stays whole) and they are
removed. Going back leaves the merged endpoints merged.
"""

from django.db import migrations, models


def merge_duplicate_webhooks(apps, schema_editor):  # type: ignore[no-untyped-def]
    webhook = apps.get_model("advisor", "Webhook")
    delivery = apps.get_model("advisor", "WebhookDelivery")
    kept: dict[tuple[int, str, str], int] = {}
    for hook in webhook.objects.order_by("created_at", "id"):
        events = ",".join(sorted(set(hook.events or [])))
        first = kept.setdefault((hook.organisation_id, hook.url, events), hook.pk)
        if first != hook.pk:
            delivery.objects.filter(webhook_id=hook.pk).update(webhook_id=first)
            hook.delete()
        elif hook.events != sorted(set(hook.events or [])):
            hook.events = sorted(set(hook.events or []))
            hook.save(update_fields=["events"])
    if schema_editor.connection.vendor == "postgresql":
        # The moved deliveries' foreign keys are checked now, not at the commit: an ALTER
        # TABLE in the same transaction is refused while such checks are pending.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def keyed(model: str, scope: str, name: str) -> list[migrations.operations.base.Operation]:
    return [
        migrations.AddField(
            model_name=model,
            name="idempotency_key",
            field=models.CharField(blank=True, max_length=255, null=True),
        ),
        migrations.AddField(
            model_name=model,
            name="request_hash",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddConstraint(
            model_name=model,
            constraint=models.UniqueConstraint(
                condition=models.Q(idempotency_key__isnull=False),
                fields=(scope, "idempotency_key"),
                name=name,
            ),
        ),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0018_assessment_result_counts"),
    ]

    operations = [
        migrations.RunPython(merge_duplicate_webhooks, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="webhook",
            constraint=models.UniqueConstraint(
                fields=("organisation", "url", "events"), name="webhook_url_events_per_org"
            ),
        ),
        *keyed("webhook", "organisation", "webhook_idempotency_key_per_org"),
        *keyed("joblog", "organisation", "joblog_idempotency_key_per_org"),
        *keyed("report", "assessment", "report_idempotency_key_per_assessment"),
        *keyed("fleetreport", "fleet", "fleetreport_idempotency_key_per_fleet"),
    ]
