"""The one base of every task the workers run (advisor/*/tasks.py), and of those that build
a WorkerLifecycle row (reports, fleet reports, large SAS logs).

WorkerTask holds what every task shares: acknowledged once its work is done and delivered
again when its worker dies, a soft and a hard time limit (lifecycle.py), transient errors
retried with backoff for at least retrying.OUTLAST_S, and one place (`stopped`) told when
a run ends for good on the worker's side: the hard time limit, or retries run out. A kind
of task changes what differs as class attributes: webhook deliveries their documented
retry schedule, the periodic sweeps no retries at all.

BuildTask marks its row on top of that: started, done or failed, and queued again after a
time limit or a lost worker, bounded (lifecycle.start, finish, fail, interrupted).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from billiard.einfo import ExceptionInfo
from billiard.exceptions import WorkerLostError
from celery import Task
from celery.exceptions import TimeLimitExceeded
from django.apps import apps

from advisor.core import lifecycle
from advisor.core.retrying import (
    OUTLAST_S,
    RETRY_BACKOFF_MAX_S,
    TRANSIENT_ERRORS,
    retries_to_outlast,
)

if TYPE_CHECKING:  # the tasks import this module before Django's models are ready
    from advisor.models import WorkerLifecycle

Errors = tuple[type[BaseException], ...]


class WorkerTask(Task[Any, Any]):
    """The base of every task a worker runs."""

    acks_late = True
    reject_on_worker_lost = True
    soft_time_limit: int = lifecycle.SOFT_LIMIT_S
    time_limit: int = lifecycle.HARD_LIMIT_S
    # Celery reads these when it registers a task (celery.app.autoretry).
    autoretry_for: Errors = TRANSIENT_ERRORS
    retry_backoff = True
    retry_backoff_max = RETRY_BACKOFF_MAX_S
    retry_jitter = False  # a jittered wait may be 0 s every time: the span is not kept
    max_retries: int | None = retries_to_outlast(OUTLAST_S)

    def describe(self, exc: BaseException) -> str:
        """Why a run stopped, in words a user reads, with this task's own time limits."""
        return lifecycle.describe(exc, self.soft_time_limit, self.time_limit)

    def on_failure(
        self, exc: BaseException, task_id: str, args: tuple[Any, ...], kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:  # fmt: skip
        # Reached in the worker's main process when the hard time limit stopped the run,
        # when the retries for a transient error ran out, and for an error the task let
        # through; not in an in-process (eager) run. A lost worker's message is delivered
        # again instead (reject_on_worker_lost), and its next run counts it.
        if not isinstance(exc, WorkerLostError):
            self.stopped(exc, args, kwargs)

    def stopped(self, exc: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """The run ended for good with `exc`: record it where its kind of task keeps it."""


class SweepTask(WorkerTask):
    """A periodic sweep (CELERY_BEAT_SCHEDULE): neither retried nor delivered again, for
    the next one, a minute later, does its work."""

    acks_late = False
    reject_on_worker_lost = False
    autoretry_for: Errors = ()
    max_retries = 0


class BuildTask(WorkerTask):
    """The base of a task that builds one WorkerLifecycle row, named by its `id_arg`. Its
    subclass names the model (`built`, "app_label.Model") and how to queue it again."""

    built = ""
    id_arg = "report_id"

    def model(self) -> type[WorkerLifecycle]:
        found: type[WorkerLifecycle] = apps.get_model(self.built)
        return found

    def enqueue(self, pk: int) -> None:
        raise NotImplementedError

    def run_build(self, pk: int, build: Callable[[], Any]) -> Any:
        """Run `build` (which marks the row started and done): a transient error is raised
        for Celery to retry, a time limit queues the row again (bounded), any other error
        fails it and is raised."""
        try:
            return build()
        except TRANSIENT_ERRORS:
            raise
        except lifecycle.INTERRUPTIONS as exc:
            lifecycle.interrupted(self.model(), pk, self.describe(exc), self.enqueue)
            return None
        except Exception as exc:
            # Recorded here as well as in stopped: in-process (eager) runs skip on_failure.
            lifecycle.fail(self.model(), pk, self.describe(exc))
            raise

    def stopped(self, exc: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        pk = self.row_id(args, kwargs)
        if pk is None:
            return
        if isinstance(exc, TimeLimitExceeded):
            lifecycle.interrupted(self.model(), pk, self.describe(exc), self.enqueue)
        else:
            lifecycle.fail(self.model(), pk, self.describe(exc))

    def row_id(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int | None:
        """The id of the row a message builds, given by keyword or first in place."""
        pk = kwargs.get(self.id_arg, args[0] if args else None)
        return None if pk is None else int(pk)
