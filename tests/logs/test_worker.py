"""Large logs on a real Celery worker over Redis, against the real PostgreSQL test database
(the worker fixtures of tests/reports/test_worker.py): one is diagnosed and done, one whose
upload was lost fails with the reason; neither leaves its upload in storage."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from advisor.models import JobLog
from tests.logs.conftest import INLINE, post_log, sort_log, uploads
from tests.reports.test_worker import WAIT_S, Worker

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def wait_ended(pk: int) -> JobLog:
    """The log once done or failed and its upload deleted (just after, on failure)."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        row = JobLog.objects.get(pk=pk)
        if row.status in ("done", "failed") and not row.upload.name:
            return row
        time.sleep(0.2)
    raise AssertionError(f"log {pk} stuck at {row.status}")


def test_a_worker_diagnoses_a_queued_log_and_fails_one_it_cannot_read(
    start_worker: Worker, api: APIClient
) -> None:
    body = sort_log(50 * INLINE)
    good = post_log(api, body, name="good.log")
    lost = post_log(api, sort_log(4 * INLINE), name="lost.log")
    assert (good.status_code, lost.status_code) == (202, 202)
    lost_row = JobLog.objects.get(pk=lost.json()["id"])
    lost_row.upload.storage.delete(lost_row.upload.name)  # before any worker runs

    start_worker("logs")

    done = wait_ended(good.json()["id"])
    assert done.status == "done" and done.attempts == 1, done.error
    assert done.step_count == body.count(b"PROCEDURE SORT") and done.saving_seconds > 0
    detail = api.get(good["Location"]).json()
    assert detail["analysis"]["findings"][0]["rule"] == "log.sort_spill"
    failed = wait_ended(lost_row.pk)
    assert failed.status == "failed"
    assert failed.error == "LogError: lost.log: its upload is no longer stored"
    assert uploads() == []
