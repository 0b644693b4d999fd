"""Celery tasks for fleets: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

CHUNK_SOFT_LIMIT_S = 60  # 50 servers advise in well under a second each
CHUNK_HARD_LIMIT_S = 90  # below the broker's visibility timeout (120 s default)
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)


@shared_task(
    name="advisor.fleets.advise_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=CHUNK_SOFT_LIMIT_S,
    time_limit=CHUNK_HARD_LIMIT_S,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
)
def advise_chunk(*, fleet_id: int, start: int, stop: int) -> int:
    from advisor.fleets import services

    return services.advise_chunk(fleet_id=fleet_id, start=start, stop=stop)
