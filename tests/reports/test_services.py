"""Report services: queued on commit, idempotent builds, failure and the stuck sweep."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.utils import timezone

from advisor.models import Assessment, Report
from advisor.reports import services, tasks

PDF_MAGIC = b"%PDF-"


def test_request_queues_the_build_only_on_commit(
    assessment: Assessment, user: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with mock.patch.object(tasks.build_report, "delay") as delay:
        with django_capture_on_commit_callbacks() as callbacks:
            report = services.report_request(assessment=assessment, user=user)
            delay.assert_not_called()
        assert len(callbacks) == 1
        callbacks[0]()
    delay.assert_called_once_with(report.pk)
    assert report.status == Report.Status.QUEUED and report.created_by == user


@pytest.mark.slow  # builds a PDF
def test_build_goes_running_then_done_and_stores_html_and_pdf(assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment)
    seen: list[str] = []
    real = services.render_report_html

    def spy(a: Assessment, r: Report | None = None) -> str:
        seen.append(Report.objects.get(pk=report.pk).status)
        return real(a, r)

    with mock.patch.object(services, "render_report_html", spy):
        built = services.report_build(report_id=report.pk)
    assert seen == ["running"]
    assert built.status == "done" and built.attempts == 1
    assert bytes(built.pdf).startswith(PDF_MAGIC) and assessment.hostname in built.html
    assert built.started_at is not None and built.finished_at >= built.started_at


@pytest.mark.slow  # builds a PDF
def test_build_is_idempotent_done_is_not_rebuilt(assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment)
    services.report_build(report_id=report.pk)
    with mock.patch.object(services, "html_to_pdf") as pdf:
        again = services.report_build(report_id=report.pk)
    pdf.assert_not_called()
    assert again.status == "done" and again.attempts == 1


@pytest.mark.slow  # builds a PDF
def test_a_report_left_running_by_a_dead_worker_is_finished(assessment: Assessment) -> None:
    report = Report.objects.create(
        assessment=assessment, status="running", attempts=1, started_at=timezone.now()
    )
    finished = services.report_build(report_id=report.pk)
    assert finished.status == "done" and finished.attempts == 2


def test_permanent_error_marks_failed_transient_error_retries(assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment)
    broken = mock.patch.object(services, "html_to_pdf", side_effect=ValueError("bad font"))
    with broken, pytest.raises(ValueError):
        tasks.build_report.apply(args=[report.pk], throw=True)
    report.refresh_from_db()
    assert report.status == "failed" and "bad font" in report.error
    assert OperationalError in tasks.build_report.autoretry_for
    assert tasks.build_report.acks_late and tasks.build_report.reject_on_worker_lost
    assert tasks.build_report.soft_time_limit < tasks.build_report.time_limit


def test_fail_never_overwrites_done(assessment: Assessment) -> None:
    report = Report.objects.create(assessment=assessment, status="done")
    services.report_fail(report_id=report.pk, error="late duplicate")
    report.refresh_from_db()
    assert report.status == "done" and report.error == ""


def test_sweep_requeues_reports_stuck_past_the_hard_limit(assessment: Assessment) -> None:
    now = timezone.now()
    old = now - timedelta(seconds=services.STUCK_AFTER_S + 1)
    stuck = Report.objects.create(assessment=assessment, status="running", started_at=old)
    fresh = Report.objects.create(assessment=assessment, status="running", started_at=now)
    with mock.patch.object(services, "_enqueue") as enqueue:
        assert services.requeue_stuck(now=now) == [stuck.pk]
    enqueue.assert_called_once_with(stuck.pk)
    stuck.refresh_from_db()
    fresh.refresh_from_db()
    assert stuck.status == "queued" and fresh.status == "running"
