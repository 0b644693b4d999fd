"""The lifecycle of work done on a worker, shared by assessment reports, fleet reports,
large SAS logs (a WorkerLifecycle row each), fleet chunks and webhook deliveries: its time
limits, the reasons given when it stops, and for a row queued -> running -> done or
failed, never stuck in between. The tasks that run it share one base (worker.py).

A build can stop four ways. An exception of its own fails it at once, with the message:
running it again would fail the same way. A transient error (the database or broker
briefly away) is retried with backoff (retrying.py). A time limit, soft or hard, and a
worker process lost (killed, out of memory) are retried: the row goes back to queued and
its attempt counts, until MAX_ATTEMPTS, when it fails with the reason. A build whose
message was lost, or whose worker died so hard that nothing reported it, is found by the
sweep (beat, every minute): running past the hard time limit (queued again as above), or
queued too long with no worker taking it (sent again, MAX_REQUEUES times, then failed:
no worker is running, or the broker keeps losing its messages).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from billiard.exceptions import WorkerLostError
from celery.exceptions import SoftTimeLimitExceeded, TimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from advisor.env import env_int

if TYPE_CHECKING:  # the tasks import this module before Django's models are ready
    from advisor.models import WorkerLifecycle

log = logging.getLogger(__name__)

# A chunk of 100 servers advises in well under a second and a report builds in about one
# (benchmarks/report.py): these are for hostile input. Lowered by the worker tests.
SOFT_LIMIT_S = env_int("WORKER_SOFT_LIMIT_S", 60, minimum=1)
# Below the broker's visibility timeout (120 s default), or Redis hands the job to a
# second worker while the first still runs it.
HARD_LIMIT_S = env_int("WORKER_HARD_LIMIT_S", max(90, SOFT_LIMIT_S + 1), minimum=2)
# Running this long with no sign of life: its worker is gone, whatever killed it.
STALLED_AFTER_S = HARD_LIMIT_S + 30
# The broker hands a job still unacknowledged after this to a second worker
# (CELERY_VISIBILITY, read once by the settings): every hard limit stays below it.
VISIBILITY_S: int = settings.CELERY_VISIBILITY_S
MAX_ATTEMPTS = 3  # a first attempt and two retries
# Times a row queued and taken by no worker is sent again before it fails: with a report's
# five minutes between sweeps, half an hour with no worker taking it.
MAX_REQUEUES = 5
ERROR_MAX_CHARS = 2000
SWEEP_BATCH = 50  # rows one sweep looks at; the next sweep, a minute later, takes the rest
INTERRUPTIONS = (SoftTimeLimitExceeded, TimeLimitExceeded, WorkerLostError)
Built = TypeVar("Built", bound="WorkerLifecycle")


def limits(soft_env: str, soft_default: int) -> tuple[int, int]:
    """A job's own (soft, hard) time limits from `soft_env` (its hard limit 10 s later),
    kept below the broker's visibility timeout."""
    soft = min(env_int(soft_env, soft_default, minimum=1), VISIBILITY_S - 11)
    return soft, soft + 10


def describe(exc: BaseException, soft: int = SOFT_LIMIT_S, hard: int = HARD_LIMIT_S) -> str:
    """Why an attempt stopped, in words a user reads on the page."""
    if isinstance(exc, SoftTimeLimitExceeded):
        return f"the worker's time limit of {soft} s was reached"
    if isinstance(exc, TimeLimitExceeded):
        return f"the worker's hard time limit of {hard} s was reached and it was stopped"
    if isinstance(exc, WorkerLostError):
        return "the worker process was lost (killed, or out of memory)"
    return f"{type(exc).__name__}: {exc}"


def start(model: type[Built], pk: int) -> Built | None:
    """Mark the row running and count the attempt. None when there is nothing to build: it
    is done or failed, or it has had MAX_ATTEMPTS already (then it fails with the reason:
    each of them ended with its worker gone, or a redelivery would not be here)."""
    with transaction.atomic():
        job: Built = model._default_manager.select_for_update().get(pk=pk)
        if job.status in (job.Status.DONE, job.Status.FAILED):
            return None
        if job.attempts >= MAX_ATTEMPTS:
            last = job.error or "the worker stopped before it finished (time limit or lost)"
            _fail_locked(job, f"gave up after {job.attempts} attempts; the last: {last}")
            return None
        job.status, job.started_at = job.Status.RUNNING, timezone.now()
        job.attempts += 1
        job.save(update_fields=["status", "started_at", "attempts"])
    return job


def finish(model: type[Built], pk: int, **fields: Any) -> None:
    """Mark the row done with the files it names (stored before: a worker killed in
    between leaves files nobody points at, never a row pointing at nothing)."""
    model._default_manager.filter(pk=pk).update(
        status=model.Status.DONE, finished_at=timezone.now(), error="", **fields
    )


def fail(model: type[Built], pk: int, error: str) -> None:
    """Record a build that will not be retried; one already done stays done."""
    model._default_manager.filter(pk=pk).exclude(status=model.Status.DONE).update(
        status=model.Status.FAILED,
        error=error[:ERROR_MAX_CHARS],
        finished_at=timezone.now(),
    )


def _fail_locked(job: WorkerLifecycle, error: str) -> None:
    job.status, job.error = job.Status.FAILED, error[:ERROR_MAX_CHARS]
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error", "finished_at"])


def interrupted(model: type[Built], pk: int, reason: str, enqueue: Callable[[int], None]) -> bool:
    """After an attempt stopped by a time limit or a lost worker: queued again (True) while
    attempts remain, else failed with the reason. `enqueue` queues after the commit."""
    with transaction.atomic():
        job = model._default_manager.select_for_update().filter(pk=pk).first()
        if job is None or job.status in (model.Status.DONE, model.Status.FAILED):
            return False
        if job.attempts >= MAX_ATTEMPTS:
            _fail_locked(job, f"{reason} ({job.attempts} attempts)")
            return False
        job.status, job.started_at = job.Status.QUEUED, None
        job.queued_at, job.error = timezone.now(), reason[:ERROR_MAX_CHARS]
        job.save(update_fields=["status", "started_at", "queued_at", "error"])
    enqueue(pk)
    log.warning("%s %s: %s; queued again", model.__name__, pk, reason)
    return True


def sweep(
    model: type[Built], enqueue: Callable[[int], None], *, stale_queued_s: float,
    now: datetime | None = None, stalled_after_s: int = STALLED_AFTER_S,
) -> list[int]:  # fmt: skip
    """Queue again the rows whose message was lost (queued past `stale_queued_s`) or whose
    worker is gone (running past `stalled_after_s`); one out of attempts (or sent again
    MAX_REQUEUES times already) fails instead. The ids queued again."""
    now = now or timezone.now()
    stalled = now - timedelta(seconds=stalled_after_s)
    stuck = model._default_manager.filter(
        Q(status=model.Status.RUNNING, started_at__lt=stalled)
        | Q(status=model.Status.QUEUED, queued_at__lt=now - timedelta(seconds=stale_queued_s))
    )  # fmt: skip
    requeued = []
    for pk, status in stuck.values_list("pk", "status")[:SWEEP_BATCH]:
        if status == model.Status.QUEUED:
            if _send_again(model, pk, enqueue, now=now, stale_queued_s=stale_queued_s):
                requeued.append(pk)
        elif interrupted(model, pk, f"no word from its worker for {stalled_after_s} s", enqueue):
            requeued.append(pk)
    if requeued:
        log.warning("%s queued again: %s", model.__name__, requeued)
    return requeued


def _send_again(
    model: type[Built], pk: int, enqueue: Callable[[int], None], *, now: datetime,
    stale_queued_s: float,
) -> bool:  # fmt: skip
    """A row queued `stale_queued_s` with no worker taking it: its message was lost (a
    duplicate of one only slow is harmless: a build skips a row that is done). Sent again
    (True) MAX_REQUEUES times, then failed with the reason."""
    rows = model._default_manager.filter(pk=pk, status=model.Status.QUEUED)
    # Its queue time moves (never its creation time): the next sweep leaves it be.
    if rows.filter(requeues__lt=MAX_REQUEUES).update(queued_at=now, requeues=F("requeues") + 1):
        enqueue(pk)
        return True
    error = (
        f"no worker took it: queued {MAX_REQUEUES + 1} times, {stale_queued_s:.0f} s each "
        "(no worker is running, or the broker lost its messages)"
    )
    if rows.update(status=model.Status.FAILED, error=error, finished_at=now):
        log.warning("%s %s: %s", model.__name__, pk, error)
    return False
