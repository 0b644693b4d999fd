"""Reports' PDFs and HTML move from database rows into Django's default storage.

The new file fields are added, and each stored report is written out to storage and
pointed at; migration 0007 then drops the old columns (in its own transaction, as
PostgreSQL wants data and schema changes of one table apart). Backwards, the files are
read back into the rows."""

from __future__ import annotations

from typing import Any

from django.core.files.base import ContentFile
from django.db import migrations, models

FIELD = models.FileField(blank=True, upload_to="reports/%Y/%m/")


def _out(row: Any, name: str, data: bytes | None, field: str) -> dict[str, str]:
    if not data:
        return {}
    getattr(row, field).save(name, ContentFile(bytes(data)), save=False)
    return {field: getattr(row, field).name}


def to_files(apps: Any, schema_editor: Any) -> None:
    for model, kind in (("Report", "report"), ("FleetReport", "fleet-report")):
        rows = apps.get_model("advisor", model).objects
        for row in rows.exclude(pdf=None).iterator():
            names = _out(row, f"{kind}-{row.pk}.pdf", row.pdf, "pdf_file")
            if model == "Report":
                names |= _out(row, f"{kind}-{row.pk}.html", row.html.encode(), "html_file")
            # Only the file columns: an UPDATE that leaves the foreign keys alone queues
            # no constraint check that would block the ALTER TABLE of the next migration.
            rows.filter(pk=row.pk).update(**names)


def to_rows(apps: Any, schema_editor: Any) -> None:
    for model in ("Report", "FleetReport"):
        for row in apps.get_model("advisor", model).objects.exclude(pdf_file="").iterator():
            with row.pdf_file.open("rb") as handle:
                row.pdf = handle.read()
            if model == "Report" and row.html_file:
                with row.html_file.open("rb") as handle:
                    row.html = handle.read().decode("utf-8")
            row.save()


class Migration(migrations.Migration):
    dependencies = [("advisor", "0005_list_and_search_indexes")]

    operations = [
        migrations.AddField(model_name="fleetreport", name="pdf_file", field=FIELD),
        migrations.AddField(model_name="report", name="html_file", field=FIELD),
        migrations.AddField(model_name="report", name="pdf_file", field=FIELD),
        migrations.RunPython(to_files, to_rows),
    ]
