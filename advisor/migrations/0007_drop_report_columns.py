"""The reports' PDF and HTML columns, emptied into storage by migration 0006."""

from __future__ import annotations

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("advisor", "0006_reports_in_file_storage")]

    operations = [
        migrations.RemoveField(model_name="fleetreport", name="pdf"),
        migrations.RemoveField(model_name="report", name="html"),
        migrations.RemoveField(model_name="report", name="pdf"),
    ]
