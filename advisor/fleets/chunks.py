"""Advise one chunk of a fleet on a worker, and never leave a server of it pending.

A chunk whose servers were never tried is advised in memory and stored in one
transaction that first locks its items still pending: a worker killed before the commit
stores nothing, one killed after it finds nothing pending and stores nothing twice.

What can stop a chunk, and what becomes of its servers:
- a server whose advice raises fails alone, with the error;
- the soft time limit fails the server being advised when it struck (the one that took
  the time, on hostile input), stores those done before it and queues the rest anew;
- a chunk that died under its worker (hard time limit, process lost) left its servers
  with an attempt counted: the next run advises them one at a time, each stored on its
  own, so the one that kills the worker is found, and a server tried
  lifecycle.MAX_ATTEMPTS times fails with the reason;
- any other error queues the chunk again (chunk_stopped), a bounded number of times
  without progress, then fails what is pending.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from advisor.core import lifecycle
from advisor.core.retrying import TRANSIENT_ERRORS, backoff
from advisor.fleets import services, storing
from advisor.models import Assessment, Fleet, FleetItem

log = logging.getLogger(__name__)
PROBLEM_MAX_CHARS = 500  # an exception's text may quote a hostile document
# Runs of a chunk in a row that failed nothing and stored nothing: then its pending
# servers fail. Each run counts an attempt on a server, so this is a backstop.
MAX_RUNS_WITHOUT_PROGRESS = lifecycle.MAX_ATTEMPTS
Advised = tuple[FleetItem, Assessment | None]


def advise_chunk(*, fleet_id: int, start: int, stop: int) -> int:
    """Advise and store the chunk's pending items; the number stored (0 on a redelivery)."""
    fleet = Fleet.objects.select_related("organisation").filter(pk=fleet_id).first()
    if fleet is None:
        return 0  # deleted since its chunks were queued
    Fleet.objects.filter(pk=fleet_id, status=Fleet.Status.QUEUED).update(
        status=Fleet.Status.RUNNING, started_at=timezone.now()
    )
    _alive(fleet_id)
    chunk = FleetItem.objects.filter(fleet_id=fleet_id, position__gte=start, position__lt=stop)
    pending = chunk.filter(status=FleetItem.Status.PENDING)
    _give_up(pending.filter(attempts__gte=lifecycle.MAX_ATTEMPTS))
    planned = list(pending.order_by("position"))
    if any(item.attempts for item in planned):
        stored = _one_at_a_time(fleet, planned, stop)
    else:
        stored = _together(fleet, planned, stop)
    services.finish_if_advised(fleet_id)
    return stored


def _together(fleet: Fleet, planned: Sequence[FleetItem], stop: int) -> int:
    if not planned:
        return 0
    _count_attempt(planned)
    results: list[Advised] = []
    began = time.monotonic()
    try:
        for item in planned:
            began = time.monotonic()
            results.append((item, _advise_safely(fleet, item)))
    except SoftTimeLimitExceeded:
        current = planned[len(results)]
        _timed_out(current, time.monotonic() - began)
        results.append((current, None))
        rest = planned[len(results) :]
        # Never tried: their next run advises them together again.
        FleetItem.objects.filter(pk__in=[i.pk for i in rest]).update(attempts=F("attempts") - 1)
        stored = _store(fleet.pk, results)
        _queue_rest(fleet.pk, rest, stop)
        return stored
    return _store(fleet.pk, results)


def _one_at_a_time(fleet: Fleet, planned: Sequence[FleetItem], stop: int) -> int:
    stored = 0
    for index, item in enumerate(planned):
        _count_attempt([item])
        _alive(fleet.pk)
        began = time.monotonic()
        try:
            assessment = _advise_safely(fleet, item)
        except SoftTimeLimitExceeded:
            _timed_out(item, time.monotonic() - began)
            _store(fleet.pk, [(item, None)])
            _queue_rest(fleet.pk, planned[index + 1 :], stop)
            return stored
        stored += _store_alone(fleet.pk, item, assessment)
    return stored


def _advise_safely(fleet: Fleet, item: FleetItem) -> Assessment | None:
    """services._advise, with any error of its own failing this server alone."""
    try:
        return services._advise(item, fleet.organisation, fleet.created_by_id)
    except (SoftTimeLimitExceeded, *TRANSIENT_ERRORS):
        raise
    except Exception as exc:
        log.warning("fleet %s: server %s not advised", fleet.pk, item.position, exc_info=True)
        _failed(item, f"not advised: {lifecycle.describe(exc)}")
        return None


def _failed(item: FleetItem, reason: str) -> None:
    item.status = FleetItem.Status.FAILED
    item.problems = [f"servers[{item.position}]: {reason}"[:PROBLEM_MAX_CHARS]]


def _timed_out(item: FleetItem, seconds: float) -> None:
    _failed(item, f"not advised: {lifecycle.describe(SoftTimeLimitExceeded())} while "
                  f"advising this server ({seconds:.0f} s on it)")  # fmt: skip


def _store(fleet_id: int, results: Sequence[Advised]) -> int:
    """Store the results of the items still pending, in one transaction; the number of
    assessments stored. Storing is progress: the fleet's stall count starts again."""
    with transaction.atomic():
        ids = [item.pk for item, _ in results]
        pending = set(
            FleetItem.objects.select_for_update()
            .filter(pk__in=ids, status=FleetItem.Status.PENDING)
            .values_list("pk", flat=True)
        )
        kept = [(item, a) for item, a in results if item.pk in pending]
        stored = [a for _, a in kept if a is not None]
        storing.store(stored, [item for item, _ in kept])
        Fleet.objects.filter(pk=fleet_id).update(progressed_at=timezone.now(), requeues=0)
    return len(stored)


def _store_alone(fleet_id: int, item: FleetItem, assessment: Assessment | None) -> int:
    """One server stored; a result that cannot be stored (the database refuses it, or
    anything else) fails that server alone, by a plain update."""
    try:
        return _store(fleet_id, [(item, assessment)])
    except (SoftTimeLimitExceeded, *TRANSIENT_ERRORS):
        raise
    except Exception as exc:
        log.warning("fleet %s: server %s not stored", fleet_id, item.position, exc_info=True)
        _failed(item, f"not stored: {lifecycle.describe(exc)}")
        FleetItem.objects.filter(pk=item.pk, status=FleetItem.Status.PENDING).update(
            status=item.status, problems=item.problems
        )
        return 0


def _count_attempt(items: Sequence[FleetItem]) -> None:
    FleetItem.objects.filter(pk__in=[i.pk for i in items]).update(attempts=F("attempts") + 1)


def _alive(fleet_id: int) -> None:
    Fleet.objects.filter(pk=fleet_id).update(progressed_at=timezone.now())


def _give_up(items: QuerySet[FleetItem]) -> None:
    reason = (f"not advised: the worker stopped {lifecycle.MAX_ATTEMPTS} times while advising "
              f"it (the hard time limit of {lifecycle.HARD_LIMIT_S} s, or the worker process "
              "was lost)")  # fmt: skip
    services.fail_items(items, reason)


def _queue_rest(fleet_id: int, rest: Sequence[FleetItem], stop: int) -> None:
    if not rest:
        return
    from advisor.fleets.tasks import advise_chunk

    # robust: a broker that is down must not undo what was stored; the sweep queues it.
    transaction.on_commit(
        lambda: advise_chunk.delay(fleet_id=fleet_id, start=rest[0].position, stop=stop),
        robust=True,
    )


def chunk_stopped(
    *, fleet_id: int, start: int, stop: int, error: str, runs: int = 0, pending: int | None = None
) -> bool:
    """After a run of the chunk ended by an error (or the hard time limit): its servers
    out of attempts fail with `error`; the rest is queued again (True), unless the chunk
    made no progress MAX_RUNS_WITHOUT_PROGRESS runs in a row: then they fail too."""
    left = FleetItem.objects.filter(
        fleet_id=fleet_id, position__gte=start, position__lt=stop, status=FleetItem.Status.PENDING
    )
    services.fail_items(left.filter(attempts__gte=lifecycle.MAX_ATTEMPTS), f"not advised: {error}")
    count = left.count()
    runs = 0 if pending is None or count < pending else runs + 1
    if count and runs >= MAX_RUNS_WITHOUT_PROGRESS:
        services.fail_items(left, f"not advised: {error} ({runs} runs of its chunk)")
        count = 0
    if not count:
        services.finish_if_advised(fleet_id)
        return False
    from advisor.fleets.tasks import advise_chunk

    log.warning("fleet %s chunk %s-%s: %s; queued again", fleet_id, start, stop, error)
    kwargs = {"fleet_id": fleet_id, "start": start, "stop": stop, "runs": runs, "pending": count}
    transaction.on_commit(
        lambda: advise_chunk.apply_async(kwargs=kwargs, countdown=backoff(runs)), robust=True
    )
    return True
