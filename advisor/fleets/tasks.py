"""Celery tasks for fleets: thin wrappers that take ids and call a service."""

from __future__ import annotations

from typing import Any

from billiard.einfo import ExceptionInfo
from celery import Task, shared_task

from advisor.core.retrying import TRANSIENT_ERRORS, retrying_on_transient_errors

CHUNK_SOFT_LIMIT_S = 60  # a chunk of 100 servers advises in well under a second
CHUNK_HARD_LIMIT_S = 90  # below the broker's visibility timeout (120 s default)
WORKER_TASK = {
    "soft_time_limit": CHUNK_SOFT_LIMIT_S,
    "time_limit": CHUNK_HARD_LIMIT_S,
    **retrying_on_transient_errors(),
}


@shared_task(name="advisor.fleets.advise_chunk", **WORKER_TASK)
def advise_chunk(*, fleet_id: int, start: int, stop: int) -> int:
    from advisor.fleets import services

    return services.advise_chunk(fleet_id=fleet_id, start=start, stop=stop)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


class FleetReportTask(Task[Any, Any]):
    def on_failure(
        self,
        exc: BaseException,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:
        # Reached when the retries for a transient error run out.
        from advisor.fleets.reporting import fleet_report_fail

        if "report_id" in kwargs:
            fleet_report_fail(report_id=int(kwargs["report_id"]), error=_describe(exc))


@shared_task(name="advisor.fleets.build_fleet_report", base=FleetReportTask, **WORKER_TASK)
def build_fleet_report(*, report_id: int) -> int:
    """Build one fleet report; transient errors retry with backoff, any other fails it."""
    from advisor.fleets.reporting import fleet_report_build, fleet_report_fail

    try:
        return fleet_report_build(report_id=report_id).pk
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        # Recorded here as well as in on_failure: in-process (eager) runs skip on_failure.
        fleet_report_fail(report_id=report_id, error=_describe(exc))
        raise


@shared_task(name="advisor.fleets.sweep_fleets", ignore_result=True)
def sweep_fleets() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the fleets whose chunk messages never
    reached a worker, without waiting for someone to look at their progress."""
    from advisor.fleets import services

    return services.requeue_all_stalled()
