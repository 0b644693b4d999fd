"""The worker's side of a large SAS log: diagnose it from its stored upload, store the
analysis, delete the upload; and the sweep that finds logs whose worker died or whose
message was lost.

`log_analyse` is idempotent, so a redelivered task finishes the job: a log done or failed
is left as it is. How often it is tried, its time limits and the sweep's thresholds are
advisor/core/lifecycle.py's, as for reports. The upload is deleted whenever the log ends,
done or failed, wherever that is decided (here, the task's failure hooks, the sweep).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings

from advisor.core import lifecycle
from advisor.logs import services, spooling
from advisor.logs.tasks import LOG_STALLED_AFTER_S
from advisor.models import Assessment, JobLog
from rules.logs.analysis import options

# Queued this long: the message was lost (e.g. Redis flushed). A duplicate of a message
# that was only slow is harmless: a log done is not read again.
STALE_QUEUED_S = 5 * 60
FINISHED = (JobLog.Status.DONE, JobLog.Status.FAILED)


def log_analyse(*, log_id: int) -> JobLog:
    """Diagnose a queued log from its upload and mark it done; a done or failed log is left
    as it is, and one out of attempts fails (lifecycle.start)."""
    row = lifecycle.start(JobLog, log_id)
    if row is None:
        return JobLog.objects.get(pk=log_id)
    if not row.upload:
        raise services.LogError(row.name, "its upload is no longer stored")
    assessment = _assessment(row.assessment_id)
    try:
        stream = services.Checked(row.name, spooling.read_chunks(row), settings.MAX_LOG_BYTES)
        analysis = services.analysis_of(services.lines(stream), assessment)
    except FileNotFoundError:
        raise services.LogError(row.name, "its upload is no longer stored") from None
    _compare_with_current(log_id, assessment, analysis)
    lifecycle.finish(JobLog, log_id, **services.figures(analysis))
    discard_upload(log_id)
    return JobLog.objects.get(pk=log_id)


def _assessment(pk: int | None) -> Assessment | None:
    return None if pk is None else Assessment.objects.filter(pk=pk).first()


def _compare_with_current(log_id: int, used: Assessment | None, analysis: dict[str, Any]) -> None:
    """The options compared with the assessment the log is tied to now: it may have been
    attached to another while it was read (the findings stay as diagnosed, as on attach)."""
    now = JobLog.objects.filter(pk=log_id).values_list("assessment_id", flat=True).first()
    if now != (used.pk if used else None):
        echoed = analysis.get("echoed_options", [])
        analysis["options"] = options(echoed, services.recommended_options(_assessment(now)))


def discard_upload(log_id: int) -> None:
    """Delete the upload of a log that is done or failed; one still queued or running
    keeps it for its next attempt."""
    row = JobLog.objects.filter(pk=log_id, status__in=FINISHED).exclude(upload="").first()
    if row is not None:
        spooling.discard(row)


def requeue_stuck(*, now: datetime | None = None) -> list[int]:
    """Queue again the logs whose worker died or whose message was lost; one that has had
    its attempts fails with the reason. Then delete the uploads of logs that ended while
    nothing was there to delete them. Run by the workers' periodic sweep
    (advisor.logs.tasks.sweep_logs), not by requests. The ids queued again."""
    # enqueue looked up at each call, so a test can stand in for the broker.
    requeued = lifecycle.sweep(
        JobLog, lambda pk: services.enqueue(pk), stale_queued_s=STALE_QUEUED_S, now=now,
        stalled_after_s=LOG_STALLED_AFTER_S,
    )  # fmt: skip
    ended = JobLog.objects.filter(status__in=FINISHED).exclude(upload="")
    for log_id in ended.values_list("pk", flat=True)[: lifecycle.SWEEP_BATCH]:
        discard_upload(log_id)
    return requeued
