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
