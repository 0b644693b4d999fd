"""What every worker task shares: the errors a later attempt can get past, and how it
retries them."""

from __future__ import annotations

from typing import Any

from celery.utils.time import get_exponential_backoff_interval
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

# Errors that a later attempt can get past: the database or broker was briefly away.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)
RETRY_BACKOFF_MAX_S = 60
# A task's retries span at least this long: a database restarted or failed over (a minute
# or so) does not fail the work. The backoff is not jittered, so the span is guaranteed:
# Celery's jitter draws each wait anywhere from 0 up, and may draw 0 every time.
OUTLAST_S = 120


def backoff(retry: int) -> int:
    """Seconds before retry number `retry` (0-based): 1, 2, 4 … capped at a minute."""
    return int(get_exponential_backoff_interval(1, retry, RETRY_BACKOFF_MAX_S, full_jitter=False))


def retries_to_outlast(seconds: float) -> int:
    """The fewest retries whose waits add up to at least `seconds`."""
    count, waited = 0, 0
    while waited < seconds:
        waited += backoff(count)
        count += 1
    return count


def retrying_on_transient_errors(outlast_s: float = OUTLAST_S) -> dict[str, Any]:
    """shared_task options: acknowledged after the work, redelivered if the worker dies,
    retried with backoff on a transient error for at least `outlast_s` seconds."""
    return {
        "acks_late": True,
        "reject_on_worker_lost": True,
        "autoretry_for": TRANSIENT_ERRORS,
        "retry_backoff": True,
        "retry_backoff_max": RETRY_BACKOFF_MAX_S,
        "retry_jitter": False,
        "max_retries": retries_to_outlast(outlast_s),
    }
