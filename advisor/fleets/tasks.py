"""Celery tasks for fleets: thin wrappers that take ids and call a service. Their time
limits, and what happens when a run stops, are advisor/core/lifecycle.py's."""

from __future__ import annotations

from typing import Any

from billiard.einfo import ExceptionInfo
from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded

from advisor.core import lifecycle
from advisor.core.retrying import TRANSIENT_ERRORS

# Kept under these names for the modules that read them; the values are the lifecycle's.
CHUNK_SOFT_LIMIT_S = lifecycle.SOFT_LIMIT_S  # a chunk of 100 servers: well under a second
CHUNK_HARD_LIMIT_S = lifecycle.HARD_LIMIT_S
WORKER_TASK = lifecycle.task_options()


class ChunkTask(Task[Any, Any]):
    def on_failure(
        self, exc: BaseException, task_id: str, args: tuple[Any, ...], kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:  # fmt: skip
        # Reached (in the worker's main process) when the hard time limit stopped the run,
        # and when the retries for a transient error ran out. A lost worker's message is
        # delivered again instead, and its servers' attempts bound that.
        from advisor.fleets.chunks import chunk_stopped

        if isinstance(exc, (TimeLimitExceeded, *TRANSIENT_ERRORS)):
            chunk_stopped(error=lifecycle.describe(exc), **kwargs)


@shared_task(name="advisor.fleets.advise_chunk", base=ChunkTask, **WORKER_TASK)
def advise_chunk(
    *, fleet_id: int, start: int, stop: int, runs: int = 0, pending: int | None = None
) -> int:
    """Advise one chunk. Any error but a transient one (retried with backoff) queues it
    again, bounded (chunks.chunk_stopped); none leaves a server pending for good."""
    from advisor.fleets import chunks

    try:
        return chunks.advise_chunk(fleet_id=fleet_id, start=start, stop=stop)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:  # the soft time limit outside a server's advice too
        chunks.chunk_stopped(
            fleet_id=fleet_id, start=start, stop=stop, error=lifecycle.describe(exc),
            runs=runs, pending=pending,
        )  # fmt: skip
        return 0


class FleetReportTask(lifecycle.BuildTask):
    built = "advisor.FleetReport"

    def enqueue(self, pk: int) -> None:
        from advisor.fleets.reporting import enqueue

        enqueue(pk)


@shared_task(
    name="advisor.fleets.build_fleet_report", base=FleetReportTask, bind=True, **WORKER_TASK
)
def build_fleet_report(self: FleetReportTask, *, report_id: int) -> int | None:
    """Build one fleet report: transient errors retry with backoff, a time limit or a lost
    worker queues it again (bounded), any other error fails it."""
    from advisor.fleets.reporting import fleet_report_build

    return self.run_build(report_id, lambda: fleet_report_build(report_id=report_id).pk)  # type: ignore[no-any-return]


@shared_task(name="advisor.fleets.sweep_fleets", ignore_result=True)
def sweep_fleets() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the fleets whose chunk messages never
    reached a worker, or whose chunks stalled while running, without waiting for someone
    to look at their progress; a fleet stalled too often gives up on what is pending."""
    from advisor.fleets import services

    return services.requeue_all_stalled()
