"""A queued log's life on the worker, run in-process: an error of its own fails it with the
reason, a time limit queues it again until its attempts run out, the sweep finds logs
whose worker died or whose message was lost; whenever a log ends, its upload is deleted."""

from __future__ import annotations

import pickle
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone

from advisor.core import lifecycle
from advisor.logs import analysing, services
from advisor.logs.tasks import (
    LOG_HARD_LIMIT_S,
    LOG_SOFT_LIMIT_S,
    LOG_STALLED_AFTER_S,
    analyse_log,
    sweep_logs,
)
from advisor.models import Assessment, JobLog, Organisation
from tests.logs.conftest import INLINE, sort_log, uploads


@pytest.fixture
def queued(org: Organisation, django_capture_on_commit_callbacks: Any) -> JobLog:
    """A log over the threshold, stored queued (its task not run)."""
    with django_capture_on_commit_callbacks():
        return services.log_submit(
            organisation=org, user=None, name="night.log", chunks=[sort_log(4 * INLINE)]
        )


def broken(*args: Any, **kwargs: Any) -> None:
    raise ValueError("the parser met something it cannot read")


def test_an_error_of_its_own_fails_the_log_with_the_reason(
    queued: JobLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services, "analysis_of", broken)
    with pytest.raises(ValueError):
        analyse_log.apply(args=[queued.pk], throw=True)
    row = JobLog.objects.get(pk=queued.pk)
    assert row.status == "failed" and row.attempts == 1
    assert row.error == "ValueError: the parser met something it cannot read"
    assert (row.upload.name, uploads(), row.analysis) == ("", [], {})


def test_a_time_limit_queues_it_again_until_the_attempts_run_out(
    queued: JobLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(*args: Any, **kwargs: Any) -> None:
        raise SoftTimeLimitExceeded()

    requeued: list[int] = []
    monkeypatch.setattr(services, "analysis_of", slow)
    monkeypatch.setattr(services, "enqueue", requeued.append)
    for attempt in range(1, lifecycle.MAX_ATTEMPTS):
        analyse_log.apply(args=[queued.pk])
        row = JobLog.objects.get(pk=queued.pk)
        assert (row.status, row.attempts, len(uploads())) == ("queued", attempt, 1)
    analyse_log.apply(args=[queued.pk])
    row = JobLog.objects.get(pk=queued.pk)
    assert row.status == "failed"
    assert f"the worker's time limit of {LOG_SOFT_LIMIT_S} s was reached" in row.error
    assert f"({lifecycle.MAX_ATTEMPTS} attempts)" in row.error
    assert requeued == [queued.pk] * (lifecycle.MAX_ATTEMPTS - 1)
    assert (row.upload.name, uploads()) == ("", [])  # no attempt is left to need it


def test_a_log_has_its_own_time_limits_below_the_brokers_redelivery() -> None:
    # The worst log allowed takes 30-42 s on busy CPUs: more than the other jobs' 60 s
    # leaves, and less than the visibility timeout, past which a second worker takes it.
    assert (analyse_log.soft_time_limit, analyse_log.time_limit) == (
        LOG_SOFT_LIMIT_S, LOG_HARD_LIMIT_S,
    )  # fmt: skip
    assert lifecycle.SOFT_LIMIT_S <= LOG_SOFT_LIMIT_S < LOG_HARD_LIMIT_S < lifecycle.VISIBILITY_S


def test_an_upload_gone_from_storage_fails_with_the_reason(queued: JobLog) -> None:
    queued.upload.storage.delete(queued.upload.name)
    with pytest.raises(services.LogError):
        analyse_log.apply(args=[queued.pk], throw=True)
    row = JobLog.objects.get(pk=queued.pk)
    assert row.status == "failed"
    assert row.error == "LogError: night.log: its upload is no longer stored"


def test_a_done_log_is_not_read_again(queued: JobLog) -> None:
    analyse_log.apply(args=[queued.pk], throw=True)
    done = JobLog.objects.get(pk=queued.pk)
    analyse_log.apply(args=[queued.pk], throw=True)  # a redelivered message
    again = JobLog.objects.get(pk=queued.pk)
    assert (again.status, again.attempts, again.finished_at) == ("done", 1, done.finished_at)


def test_attached_while_being_read_the_options_follow_the_new_assessment(
    queued: JobLog, user: Any, lemans: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(user=user, document=lemans)
    read = services.analysis_of

    def read_then_attach(text: Any, used: Assessment | None) -> dict[str, Any]:
        result = read(text, used)
        JobLog.objects.filter(pk=queued.pk).update(assessment=assessment)
        return result

    monkeypatch.setattr(services, "analysis_of", read_then_attach)
    row = analysing.log_analyse(log_id=queued.pk)
    memsize = {o["option"]: o for o in row.analysis["options"]}["MEMSIZE"]
    assert memsize["echoed"] == "2G"
    assert memsize["recommended"] == services.recommended_options(assessment)["MEMSIZE"]


def test_the_sweep_requeues_stalled_logs_and_fails_those_out_of_attempts(
    queued: JobLog, org: Organisation, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:  # fmt: skip
    with django_capture_on_commit_callbacks():
        spent = services.log_submit(organisation=org, user=None, name="b.log",
                                    chunks=[sort_log(4 * INLINE)])  # fmt: skip
    long_ago = timezone.now() - timedelta(seconds=LOG_STALLED_AFTER_S + 1)
    JobLog.objects.filter(pk=queued.pk).update(status="running", started_at=long_ago, attempts=1)
    JobLog.objects.filter(pk=spent.pk).update(
        status="running", started_at=long_ago, attempts=lifecycle.MAX_ATTEMPTS
    )
    requeued: list[int] = []
    monkeypatch.setattr(services, "enqueue", requeued.append)

    assert sweep_logs.apply().get() == [queued.pk] == requeued

    row, gone = JobLog.objects.get(pk=queued.pk), JobLog.objects.get(pk=spent.pk)
    assert row.status == "queued" and "no word from its worker" in row.error
    assert gone.status == "failed" and f"({lifecycle.MAX_ATTEMPTS} attempts)" in gone.error
    assert (gone.upload.name, [p.name for p in uploads()]) == ("", [row.upload.name.split("/")[-1]])


def test_the_sweep_requeues_a_lost_message_and_leaves_a_fresh_one(
    queued: JobLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    requeued: list[int] = []
    monkeypatch.setattr(services, "enqueue", requeued.append)
    assert analysing.requeue_stuck() == []
    later = timezone.now() + timedelta(seconds=analysing.STALE_QUEUED_S + 1)
    assert analysing.requeue_stuck(now=later) == [queued.pk] == requeued
    assert JobLog.objects.get(pk=queued.pk).status == "queued"


def test_the_sweep_deletes_the_upload_of_a_log_that_ended_without_it(queued: JobLog) -> None:
    # A worker killed between marking the log failed and deleting its upload.
    JobLog.objects.filter(pk=queued.pk).update(status="failed", error="killed")
    analysing.requeue_stuck()
    assert (JobLog.objects.get(pk=queued.pk).upload.name, uploads()) == ("", [])


def test_a_log_error_crosses_from_the_worker_as_itself() -> None:
    # Celery pickles the exception to report it in the worker's main process (on_failure),
    # where it writes the reason again: it must read as the one the log failed with.
    again = pickle.loads(pickle.dumps(services.LogError("night.log", "is empty")))
    assert (type(again), again.name, again.message) == (services.LogError, "night.log", "is empty")


def test_the_sweep_leaves_a_log_running_within_its_own_time_limit(
    queued: JobLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Past the other jobs' stalled time, within the log's: its worker may still be reading.
    started = timezone.now() - timedelta(seconds=LOG_HARD_LIMIT_S)
    JobLog.objects.filter(pk=queued.pk).update(status="running", started_at=started, attempts=1)
    monkeypatch.setattr(services, "enqueue", lambda pk: pytest.fail("queued again"))
    assert sweep_logs.apply().get() == []
    assert JobLog.objects.get(pk=queued.pk).status == "running"
