"""Celery tasks: thin wrappers that take ids and call a service.

The services import this module at their top (to queue the task); the tasks import the
services inside the task function, so neither import waits for the other. How a build
that stops is retried or failed is the base task's (advisor/core/worker.py), shared with
fleet reports, logs, fleet chunks and webhook deliveries.
"""

from __future__ import annotations

from celery import shared_task

from advisor.core.worker import BuildTask, SweepTask


class ReportTask(BuildTask):
    built, id_arg = "advisor.Report", "report_id"

    def enqueue(self, pk: int) -> None:
        from advisor.reports.services import _enqueue

        _enqueue(pk)


# The name queued messages carry; kept from before the task moved into reports/, so builds
# queued by the previous release still run after a deployment.
@shared_task(name="advisor.tasks.build_report", base=ReportTask, bind=True)
def build_report(self: ReportTask, report_id: int) -> str | None:
    """Build one report: transient errors retry with backoff, a time limit or a lost
    worker queues it again (bounded), any other error fails it."""
    from advisor.reports.services import report_build

    return self.run_build(report_id, lambda: report_build(report_id=report_id).status)  # type: ignore[no-any-return]


@shared_task(name="advisor.reports.sweep_reports", base=SweepTask, ignore_result=True)
def sweep_reports() -> list[int]:
    """Periodic (CELERY_BEAT_SCHEDULE): queue again the reports whose worker died or whose
    message was lost, so no report waits for a request to notice it; fleet reports too."""
    from advisor.fleets.reporting import requeue_stuck_reports
    from advisor.reports.services import requeue_stuck

    requeue_stuck_reports()
    return requeue_stuck()
