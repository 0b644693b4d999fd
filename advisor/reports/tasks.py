"""Celery tasks: thin wrappers that take ids and call a service.

The services import this module at their top (to queue the task); the tasks import the
services inside the task function, so neither import waits for the other.
"""

from __future__ import annotations

from typing import Any

from billiard.einfo import ExceptionInfo
from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded

from advisor.core.retrying import TRANSIENT_ERRORS, retrying_on_transient_errors

REPORT_SOFT_LIMIT_S = 60  # a 20-LUN report builds in about a second (benchmarks/report.py)
REPORT_HARD_LIMIT_S = 90  # must stay below the broker visibility timeout (120 s default)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SoftTimeLimitExceeded):
        return f"the build ran past its {REPORT_SOFT_LIMIT_S} s time limit"
    return f"{type(exc).__name__}: {exc}"


class ReportTask(Task[Any, Any]):
    def on_failure(
        self,
        exc: BaseException,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:
        # Reached when the retries for a transient error run out.
        from advisor.reports.services import report_fail

        report_id = kwargs.get("report_id", args[0] if args else None)
        if report_id is not None:
            report_fail(report_id=int(report_id), error=_describe(exc))


@shared_task(
    # The name queued messages carry; kept from before the task moved into reports/, so
    # builds queued by the previous release still run after a deployment.
    name="advisor.tasks.build_report",
    base=ReportTask,
    soft_time_limit=REPORT_SOFT_LIMIT_S,
    time_limit=REPORT_HARD_LIMIT_S,
    **retrying_on_transient_errors(),
)
def build_report(report_id: int) -> str:
    """Build one report; transient errors retry with backoff, any other error fails it."""
    from advisor.reports.services import report_build, report_fail

    try:
        return report_build(report_id=report_id).status
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:
        # Recorded here as well as in on_failure: in-process (eager) runs skip on_failure.
        report_fail(report_id=report_id, error=_describe(exc))
        raise


@shared_task(name="advisor.reports.sweep_reports", ignore_result=True)
def sweep_reports() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the reports whose worker died or whose
    message was lost, so no report waits for a request to notice it."""
    from advisor.reports.services import requeue_stuck

    return requeue_stuck()
