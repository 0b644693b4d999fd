"""Built reports live in Django's default storage, not in database rows: the build writes
files, downloads stream them with RFC 6266 file names, migrations 0006-0007 move old
rows' PDFs and HTML out (and back), and an S3-compatible bucket is one setting away."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpResponse
from storages.backends.s3 import S3Storage

from advisor.core.downloads import as_attachment
from advisor.core.storage import default_storage
from advisor.models import Assessment, Report
from advisor.reports import services

BEFORE = [("advisor", "0005_list_and_search_indexes")]
AFTER = [("advisor", "0007_drop_report_columns")]


def _columns(table: str) -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, table)
    return {column.name for column in described}


@pytest.mark.slow  # builds a PDF
def test_a_built_report_is_two_files_in_storage(assessment: Assessment) -> None:
    report = services.report_build(report_id=Report.objects.create(assessment=assessment).pk)

    pdf = Path(settings.MEDIA_ROOT) / report.pdf_file.name
    html = Path(settings.MEDIA_ROOT) / report.html_file.name
    assert pdf.read_bytes().startswith(b"%PDF-") and report.pdf == pdf.read_bytes()
    assert assessment.hostname in html.read_text()
    assert {"pdf", "html"}.isdisjoint(_columns("advisor_report"))
    assert "pdf" not in _columns("advisor_fleetreport")


def _checks_now() -> None:
    """As if the test's rows were committed: no constraint check left pending to block an
    ALTER or DROP TABLE of the migrations."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def test_migrations_0006_0007_move_reports_into_files_and_back(assessment: Assessment) -> None:
    _checks_now()
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        report_model = old.get_model("advisor", "Report")
        row = report_model.objects.create(assessment_id=assessment.pk, status="done",
                                          pdf=b"%PDF-1.7 old", html="<p>old</p>")  # fmt: skip
        _checks_now()

        MigrationExecutor(connection).migrate(AFTER)
        # Only the columns 0007 knows: later migrations add more (queued_at).
        moved = Report.objects.only("pdf_file", "html_file").get(pk=row.pk)
        assert moved.pdf == b"%PDF-1.7 old" and moved.html == "<p>old</p>"

        MigrationExecutor(connection).migrate(BEFORE)
        back = report_model.objects.get(pk=row.pk)
        assert bytes(back.pdf) == b"%PDF-1.7 old" and back.html == "<p>old</p>"
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())


def test_the_default_storage_is_a_local_directory_or_a_private_bucket(tmp_path: Path) -> None:
    local = default_storage(tmp_path, None, None)
    bucket = default_storage(tmp_path, "advisor-reports", "https://minio.example.com:9000")

    assert local["OPTIONS"]["location"] == str(tmp_path)
    storage = S3Storage(**bucket["OPTIONS"])  # configured without contacting the server
    assert storage.bucket_name == "advisor-reports"
    assert storage.default_acl == "private" and storage.file_overwrite is False
    assert storage.endpoint_url == "https://minio.example.com:9000"


@pytest.mark.parametrize(
    ("name", "header"),
    [("fleet-3.csv", 'attachment; filename="fleet-3.csv"'),
     ('a"b.pdf', 'attachment; filename="a\\"b.pdf"'),
     ("sas-tuning-hôte.pdf", "attachment; filename*=utf-8''sas-tuning-h%C3%B4te.pdf")],
)  # fmt: skip
def test_download_names_are_encoded_per_rfc_6266(name: str, header: str) -> None:
    assert as_attachment(HttpResponse(b""), name)["Content-Disposition"] == header
