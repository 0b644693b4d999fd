"""What every worker task shares: the errors a later attempt can get past, and how it
retries them."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

# Errors that a later attempt can get past: the database or broker was briefly away.
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)
RETRY_BACKOFF_MAX_S = 60


def retrying_on_transient_errors(max_retries: int) -> dict[str, Any]:
    """shared_task options: acknowledged after the work, redelivered if the worker dies,
    retried with jittered backoff on a transient error."""
    return {
        "acks_late": True,
        "reject_on_worker_lost": True,
        "autoretry_for": TRANSIENT_ERRORS,
        "retry_backoff": True,
        "retry_backoff_max": RETRY_BACKOFF_MAX_S,
        "retry_jitter": True,
        "max_retries": max_retries,
    }
