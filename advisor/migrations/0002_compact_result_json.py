"""Store results as compact JSON text, compressed with lz4 on PostgreSQL.

Downloads re-indent the compact text (`Assessment.recommendations_json`), so what a
client receives is unchanged. lz4 compresses a 30 kB result in about half the server
time pglz takes; a server built without lz4 keeps its default.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import DatabaseError, migrations, transaction
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

BATCH = 500


def _compact(text: str) -> str:
    value = json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    return value.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _indented(text: str) -> str:
    return json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


def _rewrite(apps: StateApps, convert: Any) -> None:
    assessments = apps.get_model("advisor", "Assessment")
    rows = assessments.objects.only("id", "result_json").order_by("id")
    changed = []
    for row in rows.iterator(chunk_size=BATCH):
        row.result_json = convert(row.result_json)
        changed.append(row)
        if len(changed) == BATCH:
            assessments.objects.bulk_update(changed, ["result_json"])
            changed = []
    assessments.objects.bulk_update(changed, ["result_json"])


def to_compact(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rewrite(apps, _compact)


def to_indented(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _rewrite(apps, _indented)


def _compression(schema_editor: BaseDatabaseSchemaEditor, method: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    sql = f"ALTER TABLE advisor_assessment ALTER COLUMN result_json SET COMPRESSION {method}"
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute(sql)
    except DatabaseError:
        pass  # a server built without lz4: its default compression stays


def use_lz4(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _compression(schema_editor, "lz4")


def use_default(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _compression(schema_editor, "DEFAULT")


class Migration(migrations.Migration):
    dependencies = [("advisor", "0001_initial")]

    operations = [
        migrations.RunPython(use_lz4, use_default, elidable=True),
        migrations.RunPython(to_compact, to_indented, elidable=True),
    ]
