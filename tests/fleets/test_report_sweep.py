"""The worker's lifecycle end to end, on one real Celery worker over Redis shared by the
module, against the real PostgreSQL test database: a fleet report whose message was lost
(the broker away when it was requested) is swept and built; one whose build kills its
worker each time fails with the reason after its bounded attempts; a webhook delivery
whose message was lost is swept and delivered."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from http.server import HTTPServer
from typing import Any, TypeVar

import pytest
import redis
from django.contrib.auth.models import User
from django.db import models
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from advisor.core import lifecycle
from advisor.fleets.reporting import fleet_report_request
from advisor.fleets.tasks import build_fleet_report
from advisor.models import Fleet, FleetReport, Organisation, Webhook, WebhookDelivery
from advisor.reports.services import STALE_QUEUED_S
from advisor.reports.tasks import sweep_reports
from advisor.webhooks import services as webhooks
from advisor.webhooks.signing import new_secret
from advisor.webhooks.tasks import sweep_deliveries
from tests.fleets.test_webhooks import Receiver
from tests.reports.test_worker import WAIT_S, Workers, redis_app
from tests.reports.worker_settings import KILLS_ITS_WORKER

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

Row = TypeVar("Row", bound=models.Model)


@pytest.fixture(scope="module")
def worker(django_db_setup: Any) -> Iterator[str]:
    """One worker for the module's tests (each leaves nothing queued); the Redis URL."""
    with redis_app() as url:
        workers = Workers(url)
        workers.start("lifecycle", WEBHOOK_ALLOW_PRIVATE="1")
        yield url
        workers.stop_all()


def wait_for(row: Row, until: Callable[[Row], bool]) -> Row:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        row.refresh_from_db()
        if until(row):
            return row
        time.sleep(0.1)
    raise AssertionError(f"{row} never got there")


def finished(report: FleetReport) -> bool:
    return report.status in (FleetReport.Status.DONE, FleetReport.Status.FAILED)


def queued_messages(url: str) -> int:
    return int(redis.Redis.from_url(url).llen("celery"))


def a_fleet(org: Organisation, user: User, name: str) -> Fleet:
    return Fleet.objects.create(
        organisation=org, created_by=user, name=name, total=0, status=Fleet.Status.DONE
    )


def test_a_fleet_report_whose_message_was_lost_is_swept_and_built(
    worker: str, org: Organisation, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broker_away(**kwargs: Any) -> None:
        raise BrokerError("the broker is away")

    with monkeypatch.context() as away:
        away.setattr(build_fleet_report, "delay", broker_away)
        report = fleet_report_request(fleet=a_fleet(org, user, "lost"), user=user)
    report.refresh_from_db()
    assert report.status == "queued" and queued_messages(worker) == 0  # answered, not sent
    # The next sweep past the time a report waits for a worker finds it.
    FleetReport.objects.filter(pk=report.pk).update(
        queued_at=timezone.now() - timedelta(seconds=STALE_QUEUED_S + 1)
    )
    sweep_reports.delay()
    wait_for(report, finished)
    assert report.status == "done", report.error
    assert (report.attempts, report.requeues, report.error) == (1, 1, "")
    assert report.started_at is not None and report.queued_at <= report.started_at
    assert bytes(report.pdf or b"").startswith(b"%PDF")


def test_a_fleet_report_that_kills_its_worker_fails_after_its_attempts(
    worker: str, org: Organisation, user: User
) -> None:
    report = fleet_report_request(fleet=a_fleet(org, user, KILLS_ITS_WORKER), user=user)
    wait_for(report, finished)
    assert (report.status, report.attempts) == ("failed", lifecycle.MAX_ATTEMPTS)
    assert report.error == (
        f"gave up after {lifecycle.MAX_ATTEMPTS} attempts; the last: the worker stopped "
        "before it finished (time limit or lost)"
    )
    assert report.finished_at is not None and not report.pdf_file
    assert queued_messages(worker) == 0  # not delivered again once failed


@pytest.fixture
def receiver() -> Iterator[str]:
    Receiver.received, Receiver.answer = [], 204
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/hook"
    server.shutdown()


def test_a_delivery_whose_message_was_lost_is_swept_and_delivered_once(
    worker: str, org: Organisation, receiver: str
) -> None:
    hook = Webhook.objects.create(
        organisation=org, url=receiver, secret=new_secret(), events=["fleet.completed"]
    )
    delivery = WebhookDelivery.objects.create(
        webhook=hook, event="fleet.completed", message_id="msg_lost", payload={"data": {}}
    )
    lost = timezone.now() - timedelta(seconds=webhooks.UNSENT_AFTER_S + 1)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(created_at=lost, queued_at=lost)
    sweep_deliveries.delay()
    wait_for(delivery, lambda d: d.status != WebhookDelivery.Status.PENDING)
    assert (delivery.status, delivery.attempts, delivery.response_status) == ("delivered", 1, 204)
    assert delivery.queued_at > lost and delivery.started_at is not None
    assert [headers["webhook-id"] for headers, _ in Receiver.received] == ["msg_lost"]
