"""Celery tasks for fleets: thin wrappers that take ids and call a service. Their time
limits, retries, and what happens when a run stops, are the base task's
(advisor/core/worker.py), shared with reports, logs and webhook deliveries."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from advisor.core.retrying import TRANSIENT_ERRORS
from advisor.core.worker import BuildTask, SweepTask, WorkerTask


class ChunkTask(WorkerTask):
    def stopped(self, exc: BaseException, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # The hard time limit, or the retries for a transient error ran out (any other
        # error is handled in the task). Its servers' attempts bound the runs.
        from advisor.fleets.chunks import chunk_stopped

        chunk_stopped(error=self.describe(exc), **kwargs)


@shared_task(name="advisor.fleets.advise_chunk", base=ChunkTask, bind=True)
def advise_chunk(
    self: ChunkTask, *, fleet_id: int, start: int, stop: int, runs: int = 0,
    pending: int | None = None,
) -> int:  # fmt: skip
    """Advise one chunk. Any error but a transient one (retried with backoff) queues it
    again, bounded (chunks.chunk_stopped); none leaves a server pending for good."""
    from advisor.fleets import chunks

    try:
        return chunks.advise_chunk(fleet_id=fleet_id, start=start, stop=stop)
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:  # the soft time limit outside a server's advice too
        chunks.chunk_stopped(
            fleet_id=fleet_id, start=start, stop=stop, error=self.describe(exc),
            runs=runs, pending=pending,
        )  # fmt: skip
        return 0


class FleetReportTask(BuildTask):
    built, id_arg = "advisor.FleetReport", "report_id"

    def enqueue(self, pk: int) -> None:
        from advisor.fleets.reporting import enqueue

        enqueue(pk)


@shared_task(name="advisor.fleets.build_fleet_report", base=FleetReportTask, bind=True)
def build_fleet_report(self: FleetReportTask, *, report_id: int) -> int | None:
    """Build one fleet report: transient errors retry with backoff, a time limit or a lost
    worker queues it again (bounded), any other error fails it."""
    from advisor.fleets.reporting import fleet_report_build

    return self.run_build(report_id, lambda: fleet_report_build(report_id=report_id).pk)  # type: ignore[no-any-return]


@shared_task(name="advisor.fleets.sweep_fleets", base=SweepTask, ignore_result=True)
def sweep_fleets() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the fleets whose chunk messages never
    reached a worker, or whose chunks stalled while running, without waiting for someone
    to look at their progress; a fleet stalled too often gives up on what is pending."""
    from advisor.fleets import services

    return services.requeue_all_stalled()
