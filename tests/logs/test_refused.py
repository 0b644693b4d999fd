"""A body refused while it streams in leaves nothing behind, whether it was refused before
or after it passed LOG_INLINE_BYTES and started to be written to storage: no row, no
file, no task; and logs stored before workers read them stay as they were."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import override_settings
from rest_framework.test import APIClient

from advisor.logs import services
from advisor.models import JobLog, Organisation
from tests.logs.conftest import INLINE, post_log, sort_log, uploads

BEFORE = [("advisor", "0012_fleet_counts_and_sweep")]
AFTER = [("advisor", "0013_joblog_worker_lifecycle")]


def submit(org: Organisation, chunks: Any) -> JobLog:
    return services.log_submit(organisation=org, user=None, name="night.log", chunks=chunks)


def test_binary_and_empty_bodies_are_400_naming_the_log(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks() as queued:
        binary = post_log(api, b"\x00\x01SAS" + sort_log(4 * INLINE))
        empty = post_log(api, b"")
    assert binary.status_code == empty.status_code == 400
    assert binary.json()["errors"] == {"log": ["is a binary file, not a SAS log"]}
    assert empty.json()["errors"] == {"log": ["is empty"]}
    assert (JobLog.objects.count(), uploads(), queued) == (0, [], [])


def test_over_the_limit_after_spooling_began_deletes_what_was_written(
    org: Organisation, django_capture_on_commit_callbacks: Any
) -> None:
    chunk = sort_log(INLINE)
    written: list[int] = []

    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            written.append(len(uploads()))  # the file exists while the body streams in
            yield chunk

    limit = 10 * len(chunk)
    with (
        override_settings(MAX_LOG_BYTES=limit),
        django_capture_on_commit_callbacks() as queued,
        pytest.raises(services.LogError) as refused,
    ):
        submit(org, chunks())
    assert refused.value.message == f"is larger than {limit:,} bytes"
    assert max(written) == 1
    assert (JobLog.objects.count(), uploads(), queued) == (0, [], [])


def test_a_client_gone_mid_body_leaves_nothing(org: Organisation) -> None:
    def chunks() -> Iterator[bytes]:
        yield sort_log(4 * INLINE)
        raise OSError("connection reset by peer")

    with pytest.raises(OSError, match="reset"):
        submit(org, chunks())
    assert (JobLog.objects.count(), uploads()) == (0, [])


def test_a_row_that_cannot_be_saved_takes_its_file_with_it(
    org: Organisation, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the database refused the row")

    monkeypatch.setattr(JobLog, "save", refuse)
    with pytest.raises(RuntimeError):
        submit(org, [sort_log(4 * INLINE)])
    assert uploads() == []


def test_binary_past_the_sniff_window_is_read_as_text(org: Organisation) -> None:
    # Only the first 8 KB are sniffed, as before the worker: a NUL later is a character.
    body = sort_log(10_000) + b"\x00" + sort_log(INLINE)
    row = submit(org, [body[:5000], body[5000:]])
    assert row.status == "queued" and row.size_bytes == len(body)


@pytest.mark.django_db(transaction=True)
def test_logs_stored_before_the_migration_are_done_and_keep_their_analysis() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        org = old.get_model("advisor", "Organisation").objects.create(name="old")
        analysis = {"step_count": 2, "findings": [], "job": "1 min"}
        old_log = old.get_model("advisor", "JobLog").objects.create(
            organisation_id=org.pk, name="old.log", size_bytes=10, step_count=2,
            job_seconds=60.0, saving_seconds=5.0, findings_count=0, analysis=analysis,
        )  # fmt: skip
        after = MigrationExecutor(connection)
        after.migrate(AFTER)
        # Read as the migration left it: later migrations add columns the model reads.
        row = (
            after.loader.project_state(AFTER)
            .apps.get_model("advisor", "JobLog")
            .objects.get(pk=old_log.pk)
        )
        assert (row.status, row.attempts, row.error, row.upload.name) == ("done", 0, "", "")
        assert (row.analysis, row.saving_seconds, row.step_count) == (analysis, 5.0, 2)
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())
