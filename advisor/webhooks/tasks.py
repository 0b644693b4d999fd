"""Celery task for webhooks: one delivery, retried with backoff until it is answered 2xx
(an address refused as not public fails at once: no retry makes it public)."""

from __future__ import annotations

from typing import Any

from billiard.einfo import ExceptionInfo
from celery import Task, shared_task

# Backoff with full jitter: each wait a random time up to 1, 2, 4 … 256 s, so the eight
# retries end within 8.5 minutes, after about 4 on average.
MAX_RETRIES = 8


class DeliveryFailed(Exception):
    pass


class DeliveryTask(Task[Any, Any]):
    def on_failure(
        self,
        exc: BaseException,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:
        from advisor.webhooks.services import give_up

        if "delivery_id" in kwargs:
            give_up(delivery_id=int(kwargs["delivery_id"]))


@shared_task(
    name="advisor.webhooks.deliver",
    base=DeliveryTask,
    bind=True,
    acks_late=True,
    autoretry_for=(DeliveryFailed,),
    retry_backoff=True,
    retry_backoff_max=300,
    retry_jitter=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=30,
    time_limit=45,
)
def deliver(self: Task[Any, Any], *, delivery_id: int) -> bool:
    from advisor.webhooks.services import attempt, give_up

    if attempt(delivery_id=delivery_id):  # delivered, or refused for good
        return True
    if self.request.is_eager:  # the embedded default: one attempt, logged, no retries
        give_up(delivery_id=delivery_id)
        return False
    raise DeliveryFailed(f"delivery {delivery_id} not answered 2xx")


@shared_task(name="advisor.webhooks.sweep_deliveries", ignore_result=True)
def sweep_deliveries() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): send the deliveries whose message never reached a
    worker (the broker was down when the event happened), and fail those still pending
    past their retry window, so none stays pending for ever."""
    from advisor.webhooks.services import fail_stale, requeue_unsent

    fail_stale()
    return requeue_unsent()
