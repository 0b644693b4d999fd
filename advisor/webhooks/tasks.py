"""Celery task for webhooks: one delivery, retried with backoff until it is answered 2xx
(an address refused as not public fails at once: no retry makes it public). Its base is
every task's (advisor/core/worker.py), with the delivery's own retry schedule."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from advisor.core.retrying import TRANSIENT_ERRORS
from advisor.core.worker import Errors, SweepTask, WorkerTask

MAX_RETRIES = 8


class DeliveryFailed(Exception):
    pass


class DeliveryTask(WorkerTask):
    # Backoff with full jitter: before retry n (0-based) a random wait up to 2**n s, so the
    # eight waits (up to 1, 2, 4 … 128 s) add up to at most 255 s, about 2 minutes on
    # average. An endpoint that times out, the task's own time limit and the database
    # briefly away are each a failed attempt, retried the same way.
    autoretry_for: Errors = (DeliveryFailed, SoftTimeLimitExceeded, *TRANSIENT_ERRORS)
    retry_backoff_max = 300
    retry_jitter = True
    max_retries = MAX_RETRIES
    soft_time_limit, time_limit = 30, 45

    def stopped(self, exc: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # Retries ran out (the last attempt's error stays the reason), or the hard limit.
        from advisor.webhooks.services import give_up

        if "delivery_id" in kwargs:
            reason = "" if isinstance(exc, DeliveryFailed) else self.describe(exc)
            give_up(delivery_id=int(kwargs["delivery_id"]), reason=reason)


@shared_task(name="advisor.webhooks.deliver", base=DeliveryTask, bind=True)
def deliver(self: DeliveryTask, *, delivery_id: int) -> bool:
    from advisor.webhooks.services import attempt, give_up

    # request.retries: the attempt this message stands for, so a copy of it (the broker
    # handing out a waiting retry twice, the sweep sending one only slow) sends nothing.
    if attempt(delivery_id=delivery_id, retry=self.request.retries):
        return True  # delivered, refused for good, or already attempted by a copy
    if self.request.is_eager:  # the embedded default: one attempt, logged, no retries
        give_up(delivery_id=delivery_id)
        return False
    raise DeliveryFailed(f"delivery {delivery_id} not answered 2xx")


@shared_task(name="advisor.webhooks.sweep_deliveries", base=SweepTask, ignore_result=True)
def sweep_deliveries() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): send again the deliveries whose message never
    reached a worker (the broker was down when the event happened), and fail those still
    pending past their retry window, so none stays pending for ever."""
    from advisor.webhooks.services import fail_stale, requeue_unsent

    fail_stale()
    return requeue_unsent()
