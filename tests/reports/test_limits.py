"""Report work bounded and self-healing: a second request joins the report already
waiting, an organisation's reports waiting are capped (429 with Retry-After), the sweeps
run on the workers' beat, and retries outlast a database outage of a minute."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from advisor.core import retrying
from advisor.fleets import tasks as fleet_tasks
from advisor.logs import tasks as log_tasks
from advisor.models import Assessment, Fleet, FleetReport, Report, Webhook, WebhookDelivery
from advisor.reports import services, tasks
from advisor.webhooks import services as webhooks
from advisor.webhooks import tasks as webhook_tasks


def _waiting(assessment: Assessment, count: int) -> None:
    """Reports queued on other assessments of the organisation, as a busy queue leaves them."""
    for n in range(count):
        other = Assessment.objects.get(pk=assessment.pk)
        other.pk, other.hostname = None, f"other{n}"
        other.save(force_insert=True)
        Report.objects.create(assessment=other, status=Report.Status.QUEUED)


def test_a_second_request_joins_the_report_waiting(assessment: Assessment, user: User) -> None:
    waiting = Report.objects.create(assessment=assessment, status=Report.Status.RUNNING)

    joined = services.report_request(assessment=assessment, user=user)

    assert joined.pk == waiting.pk
    assert Report.objects.count() == 1


@override_settings(REPORTS_OPEN_PER_ORGANISATION=3)
def test_the_api_refuses_past_the_organisations_limit(
    assessment: Assessment, user: User, api: APIClient
) -> None:
    _waiting(assessment, 3)

    response = api.post(f"/api/v1/assessments/{assessment.pk}/reports/")

    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    body = response.json()
    assert body["code"] == "throttled" and body["retry_after"] == 30
    assert "3 reports of this organisation" in body["detail"]
    assert not Report.objects.filter(assessment=assessment).exists()


@override_settings(REPORTS_OPEN_PER_ORGANISATION=2)
def test_the_page_says_so_in_the_report_panel(assessment: Assessment, client_in: Client) -> None:
    _waiting(assessment, 2)

    response = client_in.post(f"/assessments/{assessment.pk}/report/", HTTP_HX_REQUEST="true")

    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert "2 reports of this organisation are queued" in response.content.decode()
    assert 'id="report-status"' in response.content.decode()


@override_settings(REPORTS_OPEN_PER_ORGANISATION=1)
def test_fleet_reports_count_toward_the_limit(assessment: Assessment, user: User) -> None:
    fleet = Fleet.objects.create(organisation=assessment.organisation, total=0)
    FleetReport.objects.create(fleet=fleet, status=FleetReport.Status.QUEUED)

    with pytest.raises(services.TooManyReports):
        services.report_request(assessment=assessment, user=user)


@override_settings(REPORTS_OPEN_PER_ORGANISATION=1)
def test_the_fleet_page_refuses_past_the_limit(assessment: Assessment, client_in: Client) -> None:
    fleet = Fleet.objects.create(organisation=assessment.organisation, total=0)
    Report.objects.create(assessment=assessment, status=Report.Status.QUEUED)

    response = client_in.post(f"/fleets/{fleet.pk}/report")

    assert response.status_code == 429 and response["Retry-After"] == "30"
    assert "1 reports of this organisation are queued" in response.content.decode()
    assert not FleetReport.objects.exists()


def test_the_sweeps_run_on_the_workers_beat(settings: Any) -> None:
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}

    sweeps = (tasks.sweep_reports, fleet_tasks.sweep_fleets, webhook_tasks.sweep_deliveries,
              log_tasks.sweep_logs)  # fmt: skip
    assert scheduled == {sweep.name for sweep in sweeps}
    assert all(e["schedule"] <= 60 for e in settings.CELERY_BEAT_SCHEDULE.values())
    # One no worker took within its minute is dropped: the next does its work.
    assert all(
        e["options"]["expires"] < e["schedule"] for e in settings.CELERY_BEAT_SCHEDULE.values()
    )


def test_the_report_sweep_queues_a_report_whose_message_was_lost(
    assessment: Assessment,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    lost = Report.objects.create(assessment=assessment)
    Report.objects.filter(pk=lost.pk).update(
        queued_at=timezone.now() - timedelta(seconds=services.STALE_QUEUED_S + 1)
    )
    built: list[int] = []
    monkeypatch.setattr(tasks.build_report, "delay", built.append)

    with django_capture_on_commit_callbacks(execute=True):
        queued_again = tasks.sweep_reports.apply().get()

    assert queued_again == [lost.pk]
    assert built == [lost.pk]
    again = Report.objects.get(pk=lost.pk)
    assert again.created_at == lost.created_at  # only its queue time moved
    assert again.queued_at > lost.created_at


def test_the_webhook_sweep_sends_what_was_never_sent(
    assessment: Assessment, monkeypatch: pytest.MonkeyPatch
) -> None:
    org, url = assessment.organisation, "https://example.com/hook"
    hook = Webhook.objects.create(organisation=org, url=url, secret="s", events=["x"])
    unsent = WebhookDelivery.objects.create(webhook=hook, event="x", message_id="m1", payload={})
    lost = timezone.now() - timedelta(seconds=webhooks.UNSENT_AFTER_S + 1)
    WebhookDelivery.objects.filter(pk=unsent.pk).update(created_at=lost, queued_at=lost)
    sent: list[Any] = []
    monkeypatch.setattr(webhook_tasks.deliver, "delay", lambda **kw: sent.append(kw))

    assert webhook_tasks.sweep_deliveries.apply().get() == [unsent.pk]
    assert sent == [{"delivery_id": unsent.pk}]


@pytest.mark.parametrize(
    "task", [tasks.build_report, fleet_tasks.advise_chunk, fleet_tasks.build_fleet_report]
)
def test_retries_outlast_a_database_outage_of_two_minutes(task: Any) -> None:
    waits = [retrying.backoff(n) for n in range(task.max_retries)]

    assert task.retry_jitter is False  # a jittered wait may be 0 s, every time
    assert sum(waits) >= retrying.OUTLAST_S >= 60
    assert waits[:4] == [1, 2, 4, 8] and max(waits) == retrying.RETRY_BACKOFF_MAX_S
