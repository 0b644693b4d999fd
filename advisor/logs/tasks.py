"""Celery tasks for SAS logs: thin wrappers that take ids and call the log's worker
service (advisor/logs/analysing.py). How a run that stops is retried or failed is the base
task's (advisor/core/worker.py), shared with reports; what is added here is that a log
that ends, done or failed, loses its stored upload."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from celery import shared_task

from advisor.core import lifecycle
from advisor.core.worker import BuildTask, SweepTask

# A log's analysis grows with its size: the worst shape allowed (64 MiB of 30-second
# steps) takes 7 s on 2 idle CPUs and 30-42 s on busy ones, past the 60 s the other jobs
# have. Its own limit stays below the broker's visibility timeout.
LOG_SOFT_LIMIT_S, LOG_HARD_LIMIT_S = lifecycle.limits("LOG_WORKER_SOFT_LIMIT_S", 100)
LOG_STALLED_AFTER_S = LOG_HARD_LIMIT_S + 30


class LogTask(BuildTask):
    built, id_arg = "advisor.JobLog", "log_id"
    soft_time_limit, time_limit = LOG_SOFT_LIMIT_S, LOG_HARD_LIMIT_S

    def enqueue(self, pk: int) -> None:
        from advisor.logs.services import enqueue

        enqueue(pk)

    def run_build(self, pk: int, build: Callable[[], Any]) -> Any:
        try:
            return super().run_build(pk, build)
        finally:
            _discard(pk)

    def stopped(self, exc: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # The hard time limit and transient retries run out end here, in the worker's main
        # process: the log may have failed for good.
        super().stopped(exc, args, kwargs)
        pk = self.row_id(args, kwargs)
        if pk is not None:
            _discard(pk)


def _discard(pk: int) -> None:
    from advisor.logs.analysing import discard_upload

    discard_upload(pk)


@shared_task(name="advisor.logs.analyse_log", base=LogTask, bind=True)
def analyse_log(self: LogTask, log_id: int) -> str | None:
    """Diagnose one large log: transient errors retry with backoff, a time limit or a lost
    worker queues it again (bounded), any other error fails it with the reason."""
    from advisor.logs.analysing import log_analyse

    return self.run_build(log_id, lambda: log_analyse(log_id=log_id).status)  # type: ignore[no-any-return]


@shared_task(name="advisor.logs.sweep_logs", base=SweepTask, ignore_result=True)
def sweep_logs() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the logs whose worker died or whose
    message was lost, fail those out of attempts, delete the uploads of logs that ended."""
    from advisor.logs.analysing import requeue_stuck

    return requeue_stuck()
