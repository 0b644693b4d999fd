"""The errors a later attempt can get past, and how long a worker task retries them
(worker.WorkerTask, the base of every task, retries them so)."""

from __future__ import annotations

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
