"""A webhook delivery has the worker's lifecycle in its own words: queued (its queue time
moved by the sweep that sends a lost message again, once per wait), started (each attempt
stamped), failed with the reason (retries run out, the hard time limit, the window past);
a copy of a message whose attempt is logged already sends nothing; its retry schedule is
the one the README gives."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from celery.exceptions import TimeLimitExceeded
from celery.utils.time import get_exponential_backoff_interval
from django.test import override_settings

from advisor.core.worker import WorkerTask
from advisor.models import Organisation, Webhook, WebhookDelivery
from advisor.webhooks import services, tasks
from tests.webhooks.conftest import Receiver


@pytest.fixture
def delivery(org: Organisation, http_port: int) -> Iterator[WebhookDelivery]:
    url = f"http://127.0.0.1:{http_port}/hook"
    hook = Webhook.objects.create(organisation=org, url=url, secret="whsec_" + "A" * 44,
                                  events=["fleet.completed"])  # fmt: skip
    with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
        yield WebhookDelivery.objects.create(
            webhook=hook, event="fleet.completed", message_id="msg_1", payload={"x": 1}
        )


def test_a_copy_of_a_message_whose_attempt_is_logged_sends_nothing(
    delivery: WebhookDelivery,
) -> None:
    Receiver.answer = 503
    assert services.attempt(delivery_id=delivery.pk, retry=0) is False  # attempt 1, failed
    # The same message again (the broker handed a waiting retry out twice, or the sweep
    # sent again one only slow): its attempt is made already.
    assert services.attempt(delivery_id=delivery.pk, retry=0) is True
    assert len(Receiver.received) == 1
    Receiver.answer = 204
    assert services.attempt(delivery_id=delivery.pk, retry=1) is True  # the retry, delivered
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, len(Receiver.received)) == ("delivered", 2, 2)
    assert delivery.started_at is not None and delivery.delivered_at is not None
    assert services.attempt(delivery_id=delivery.pk, retry=2) is True  # no longer pending
    assert len(Receiver.received) == 2


def test_the_sweep_sends_a_lost_message_again_once_per_wait_then_the_window_fails_it(
    delivery: WebhookDelivery, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[int] = []
    monkeypatch.setattr(tasks.deliver, "delay", lambda delivery_id: sent.append(delivery_id))
    start, wait = delivery.created_at, timedelta(seconds=services.UNSENT_AFTER_S + 1)
    assert services.requeue_unsent(now=start + wait) == [delivery.pk]
    # A minute later the message sent again has not waited its time: left be.
    assert services.requeue_unsent(now=start + wait + timedelta(seconds=60)) == []
    assert services.requeue_unsent(now=start + 2 * wait) == [delivery.pk]
    delivery.refresh_from_db()
    assert sent == [delivery.pk] * 2 and delivery.queued_at == start + 2 * wait
    assert delivery.created_at == start  # the event's time stays
    past = start + timedelta(seconds=services.DELIVERY_WINDOW_S + 1)
    assert services.requeue_unsent(now=past) == [] and services.fail_stale(now=past) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == (
        "failed", "no answer within 30 minutes of the event: never sent"
    )  # fmt: skip


def test_the_hard_time_limit_fails_a_delivery_with_the_reason(delivery: WebhookDelivery) -> None:
    kwargs: dict[str, Any] = {"delivery_id": delivery.pk}
    tasks.deliver.on_failure(TimeLimitExceeded(45), "id", (), kwargs, None)  # type: ignore[arg-type]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error) == (
        "failed", "the worker's hard time limit of 45 s was reached and it was stopped"
    )  # fmt: skip


def test_retries_run_out_keeps_the_last_attempts_error(delivery: WebhookDelivery) -> None:
    Receiver.answer = 503
    assert services.attempt(delivery_id=delivery.pk, retry=0) is False
    failed = tasks.DeliveryFailed("not answered 2xx")
    tasks.deliver.on_failure(failed, "id", (), {"delivery_id": delivery.pk}, None)  # type: ignore[arg-type]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.error, delivery.attempts) == ("failed", "HTTP 503", 1)


def test_the_delivery_task_has_the_one_base_and_the_documented_schedule() -> None:
    task = tasks.deliver
    assert isinstance(task, WorkerTask) and task.acks_late and task.reject_on_worker_lost
    assert task.max_retries == 8 and task.retry_jitter is True
    assert tasks.DeliveryFailed in task.autoretry_for
    ceilings = [get_exponential_backoff_interval(1, n, task.retry_backoff_max)
                for n in range(task.max_retries)]  # fmt: skip
    # README: each wait a random time up to 1, 2, 4 … 128 s, at most 255 s in all.
    assert ceilings == [1, 2, 4, 8, 16, 32, 64, 128] and sum(ceilings) == 255
