"""Celery tasks for fleets: thin wrappers that take ids and call a service."""

from __future__ import annotations

from typing import Any

from billiard.einfo import ExceptionInfo
from celery import Task, shared_task
from django.db import InterfaceError, OperationalError
from kombu.exceptions import OperationalError as BrokerError

CHUNK_SOFT_LIMIT_S = 60  # 50 servers advise in well under a second each
CHUNK_HARD_LIMIT_S = 90  # below the broker's visibility timeout (120 s default)
TRANSIENT_ERRORS = (OperationalError, InterfaceError, BrokerError, ConnectionError)


@shared_task(
    name="advisor.fleets.advise_chunk",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=CHUNK_SOFT_LIMIT_S,
    time_limit=CHUNK_HARD_LIMIT_S,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
)
def advise_chunk(*, fleet_id: int, start: int, stop: int) -> int:
    from advisor.fleets import services

    return services.advise_chunk(fleet_id=fleet_id, start=start, stop=stop)


class FleetReportTask(Task[Any, Any]):
    def on_failure(
        self,
        exc: BaseException,
        task_id: str,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        einfo: ExceptionInfo,
    ) -> None:
        from advisor.fleets.reporting import fleet_report_fail

        if "report_id" in kwargs:
            fleet_report_fail(
                report_id=int(kwargs["report_id"]), error=f"{type(exc).__name__}: {exc}"
            )


@shared_task(
    name="advisor.fleets.build_fleet_report",
    base=FleetReportTask,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=CHUNK_SOFT_LIMIT_S,
    time_limit=CHUNK_HARD_LIMIT_S,
    autoretry_for=TRANSIENT_ERRORS,
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
)
def build_fleet_report(*, report_id: int) -> int:
    from advisor.fleets.reporting import fleet_report_build

    return fleet_report_build(report_id=report_id).pk
