"""Reports and fleet reports never stay queued or running: a build stopped by a time limit
or a lost worker is queued again a bounded number of times, then fails with the reason;
the sweep finds running builds whose worker is gone as well as lost messages, for fleet
reports as for assessment reports."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from django.contrib.auth.models import User
from django.utils import timezone

from advisor.core import lifecycle
from advisor.fleets import reporting
from advisor.fleets import tasks as fleet_tasks
from advisor.models import Assessment, Fleet, FleetReport, Report
from advisor.reports import services, tasks

Capture = Callable[..., Any]


def test_a_build_that_keeps_timing_out_is_retried_then_fails_with_the_reason(
    assessment: Assessment, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    builds: list[int] = []

    def too_slow(html: str) -> bytes:
        builds.append(1)
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "html_to_pdf", too_slow)
    report = Report.objects.create(assessment=assessment)
    with django_capture_on_commit_callbacks(execute=True):
        tasks.build_report.apply(args=[report.pk])
    report.refresh_from_db()
    assert len(builds) == lifecycle.MAX_ATTEMPTS == report.attempts
    assert report.status == "failed" and report.finished_at is not None
    assert report.error == (
        f"the worker's time limit of {lifecycle.SOFT_LIMIT_S} s was reached "
        f"({lifecycle.MAX_ATTEMPTS} attempts)"
    )


def test_the_hard_time_limit_queues_the_build_again(
    assessment: Assessment, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = Report.objects.create(
        assessment=assessment, status="running", attempts=1, started_at=timezone.now()
    )
    queued: list[int] = []
    monkeypatch.setattr(services, "_enqueue", queued.append)
    tasks.build_report.on_failure(TimeLimitExceeded(90), "id", (report.pk,), {}, None)  # type: ignore[arg-type]
    report.refresh_from_db()
    assert queued == [report.pk]
    assert report.status == "queued" and report.started_at is None
    assert report.error.startswith("the worker's hard time limit of")


def test_a_build_whose_worker_died_each_time_fails_instead_of_starting_again(
    assessment: Assessment,
) -> None:
    report = Report.objects.create(
        assessment=assessment, status="running", attempts=lifecycle.MAX_ATTEMPTS,
        error="no word from its worker for 120 s",
    )  # fmt: skip
    built = services.report_build(report_id=report.pk)
    assert built.status == "failed" and built.attempts == lifecycle.MAX_ATTEMPTS
    assert built.error == (
        f"gave up after {lifecycle.MAX_ATTEMPTS} attempts; the last: no word from its worker "
        "for 120 s"
    )


@pytest.fixture
def fleet_row(assessment: Assessment, user: User) -> Fleet:
    return Fleet.objects.create(
        organisation=assessment.organisation, created_by=user, total=0, status="done"
    )


def test_the_sweep_covers_fleet_reports_running_without_a_worker_and_lost_ones(
    fleet_row: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    gone = now - timedelta(seconds=lifecycle.STALLED_AFTER_S + 1)
    lost = now - timedelta(seconds=services.STALE_QUEUED_S + 1)
    stalled = FleetReport.objects.create(fleet=fleet_row, status="running", started_at=gone,
                                         attempts=1)  # fmt: skip
    spent = FleetReport.objects.create(
        fleet=fleet_row, status="running", started_at=gone, attempts=lifecycle.MAX_ATTEMPTS
    )
    unsent = FleetReport.objects.create(fleet=fleet_row, queued_at=lost)
    busy = FleetReport.objects.create(fleet=fleet_row, status="running", started_at=now)
    queued: list[int] = []
    monkeypatch.setattr(reporting, "enqueue", queued.append)

    assert sorted(reporting.requeue_stuck_reports(now=now)) == sorted([stalled.pk, unsent.pk])
    assert sorted(queued) == sorted([stalled.pk, unsent.pk])
    rows = {r.pk: r for r in FleetReport.objects.all()}
    assert rows[stalled.pk].status == "queued" and rows[unsent.pk].queued_at == now
    assert rows[busy.pk].status == "running"
    assert rows[spent.pk].status == "failed"
    assert rows[spent.pk].error == (
        f"no word from its worker for {lifecycle.STALLED_AFTER_S} s "
        f"({lifecycle.MAX_ATTEMPTS} attempts)"
    )


def test_the_reports_sweep_runs_the_fleet_reports_sweep(
    fleet_row: Fleet, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    lost = timezone.now() - timedelta(seconds=services.STALE_QUEUED_S + 1)
    unsent = FleetReport.objects.create(fleet=fleet_row, queued_at=lost)
    queued: list[int] = []
    build = fleet_tasks.build_fleet_report
    monkeypatch.setattr(build, "delay", lambda report_id: queued.append(report_id))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_reports.apply().get() == []  # the assessment reports' ids
    assert queued == [unsent.pk]


def test_a_fleet_report_that_times_out_is_queued_again(
    fleet_row: Fleet, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def too_slow(html: str) -> bytes:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(reporting, "html_to_pdf", too_slow)
    queued: list[int] = []
    monkeypatch.setattr(reporting, "enqueue", queued.append)
    report = FleetReport.objects.create(fleet=fleet_row, created_by=user)
    fleet_tasks.build_fleet_report.apply(kwargs={"report_id": report.pk})
    report.refresh_from_db()
    assert queued == [report.pk] and report.status == "queued" and report.attempts == 1
    assert report.error == f"the worker's time limit of {lifecycle.SOFT_LIMIT_S} s was reached"


@pytest.mark.parametrize("kind", ["report", "fleet report"])
def test_a_row_no_worker_takes_is_sent_again_a_bounded_number_of_times_then_fails(
    assessment: Assessment, fleet_row: Fleet, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    queued: list[int] = []
    if kind == "report":
        row: Report | FleetReport = Report.objects.create(assessment=assessment)
        monkeypatch.setattr(services, "_enqueue", queued.append)
        sweep = services.requeue_stuck
    else:
        row = FleetReport.objects.create(fleet=fleet_row)
        monkeypatch.setattr(reporting, "enqueue", queued.append)
        sweep = reporting.requeue_stuck_reports
    # Each sweep comes once the message sent before has waited its time, and no worker took
    # it: a broker that loses every message, or no worker running at all.
    now = timezone.now()
    for n in range(1, lifecycle.MAX_REQUEUES + 2):
        now += timedelta(seconds=services.STALE_QUEUED_S + 1)
        assert sweep(now=now) == ([row.pk] if n <= lifecycle.MAX_REQUEUES else [])
        assert sweep(now=now) == []  # the sweep after it, within the wait, leaves it be
    row.refresh_from_db()
    assert queued == [row.pk] * lifecycle.MAX_REQUEUES
    assert (row.status, row.requeues, row.attempts) == ("failed", lifecycle.MAX_REQUEUES, 0)
    assert row.finished_at == now and row.error == (
        f"no worker took it: queued {lifecycle.MAX_REQUEUES + 1} times, "
        f"{services.STALE_QUEUED_S} s each (no worker is running, or the broker lost its "
        "messages)"
    )


def test_a_row_sent_again_and_then_taken_is_built(
    fleet_row: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reporting, "enqueue", lambda pk: None)
    row = FleetReport.objects.create(fleet=fleet_row)
    later = timezone.now() + timedelta(seconds=services.STALE_QUEUED_S + 1)
    assert reporting.requeue_stuck_reports(now=later) == [row.pk]
    monkeypatch.setattr(reporting, "html_to_pdf", lambda html: b"%PDF-1.7 built")
    built = reporting.fleet_report_build(report_id=row.pk)
    assert (built.status, built.attempts, built.requeues, built.error) == ("done", 1, 1, "")
    assert built.queued_at == later and built.started_at is not None


def test_every_task_has_the_one_base_and_the_sweeps_its_no_retry_kind() -> None:
    from advisor.celery import app
    from advisor.core.worker import BuildTask, SweepTask, WorkerTask

    app.loader.import_default_modules()
    ours = {name: task for name, task in app.tasks.items() if name.startswith("advisor.")}
    assert len(ours) == 9
    assert all(isinstance(task, WorkerTask) for task in ours.values())
    sweeps = {name for name, task in ours.items() if isinstance(task, SweepTask)}
    assert sweeps == {"advisor.reports.sweep_reports", "advisor.fleets.sweep_fleets",
                      "advisor.webhooks.sweep_deliveries", "advisor.logs.sweep_logs"}  # fmt: skip
    builds = {task.built for task in ours.values() if isinstance(task, BuildTask)}
    assert builds == {"advisor.Report", "advisor.FleetReport", "advisor.JobLog"}
    for task in ours.values():
        assert task.soft_time_limit < task.time_limit < lifecycle.VISIBILITY_S
        assert task.acks_late is task.reject_on_worker_lost is (task.name not in sweeps)


def test_the_visibility_timeout_is_read_once(settings: Any) -> None:
    from tests.conftest import ROOT

    assert lifecycle.VISIBILITY_S == settings.CELERY_VISIBILITY_S
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == lifecycle.VISIBILITY_S
    readers = [p.relative_to(ROOT).as_posix() for p in (ROOT / "advisor").rglob("*.py")
               if '"CELERY_VISIBILITY"' in p.read_text(encoding="utf-8")]  # fmt: skip
    assert readers == ["advisor/settings.py"]
