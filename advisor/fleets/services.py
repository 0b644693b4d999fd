"""Fleet writes: store an upload as pending items and queue its chunks (chunks.py advises
one on a worker); advise one server; queue again a fleet whose chunks were lost or
stalled, and give up on its servers after MAX_REQUEUES stalls; finish the fleet once,
storing its counts and summary and telling webhooks; re-run a fleet on the current rules.

A fleet always reaches done: a server that cannot be advised fails with its reason,
whether its document is bad, advising it raised, or the worker's time ran out on it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django.db.models import F, Q
from django.utils import timezone

import rules
from advisor.assessments.services import NoOrganisation, assessment_from_result, document_hash
from advisor.audit.services import record
from advisor.core import lifecycle, results
from advisor.core.idempotency import stored_under_key
from advisor.core.selectors import organisation_for_user
from advisor.core.text import storable
from advisor.fleets import advice, presenting, selectors, storing
from advisor.fleets.reading import Entry
from advisor.models import Assessment, Fleet, FleetItem, FleetSummary, Organisation
from rules.parse import TooLarge

CHUNK = 100  # servers a task advises and stores in one transaction
STALE_QUEUED_S = 120  # queued this long with no chunk started: the messages were lost
# Stalled this many sweeps in a row: its pending servers fail. A sweep counts a stall only
# when a worker took one of its chunks (attempts counted) and nothing came of it for
# STALLED_AFTER_S while no chunk of any other fleet showed life either: a fleet waiting
# behind other work, or whose messages were lost before a worker took them, is queued
# again but never failed for it. Each server whose chunk killed its worker fails after
# lifecycle.MAX_ATTEMPTS, so a stall of its own rarely lasts this long.
MAX_REQUEUES = 3
SWEEP_BATCH = 50  # fleets one sweep looks at; the next sweep, a minute later, the rest
log = logging.getLogger(__name__)


def fleet_create(
    *,
    user: User,
    entries: Sequence[Entry],
    name: str = "",
    idempotency_key: str | None = None,
    digest: str = "",
    previous: Fleet | None = None,
) -> tuple[Fleet, bool]:
    """Store the fleet and its items, queue its chunks after the commit. (fleet, created)."""
    org = organisation_for_user(user)
    if org is None:
        raise NoOrganisation("user belongs to no organisation")
    keyed = Fleet.objects.filter(organisation=org)
    if found := stored_under_key(keyed, idempotency_key, digest):
        return found, False
    try:
        with transaction.atomic():
            fleet = Fleet.objects.create(
                organisation=org, created_by=user, name=storable(name)[:200], total=len(entries),
                rules_version=rules.RULES_VERSION, previous=previous,
                idempotency_key=idempotency_key or None, request_hash=digest,
            )  # fmt: skip
            _insert_items(fleet, entries)
            action = "fleet.reevaluate" if previous else "fleet.create"
            changes = {"from": (previous.pk, None)} if previous else {}
            record(actor=user, organisation=org, action=action,
                   target=f"fleet {fleet.pk} ({fleet.name or 'unnamed'}, {len(entries)} servers)",
                   changes=changes)  # fmt: skip
    except IntegrityError:
        found = stored_under_key(keyed, idempotency_key, digest)
        if found is None:
            raise
        return found, False
    # robust: a broker that is down must not fail the upload; requeue_stalled queues it later.
    transaction.on_commit(lambda: queue_chunks(fleet), robust=True)
    return fleet, True


def _insert_items(fleet: Fleet, entries: Sequence[Entry]) -> None:
    items = []
    for position, entry in enumerate(entries):
        failed = entry.problem or not isinstance(entry.document, dict)
        problem = entry.problem or "not a JSON object: an inventory is {…}"
        items.append(
            FleetItem(
                fleet=fleet, position=position, label=entry.label[:255],
                host=advice.host(entry.document), document=entry.document if not failed else None,
                status=FleetItem.Status.FAILED if failed else FleetItem.Status.PENDING,
                problems=[f"servers[{position}]: {problem}"] if failed else [],
            )
        )  # fmt: skip
    storing.insert_items(items)


def queue_chunks(fleet: Fleet, starts: Iterable[int] | None = None) -> None:
    """Queue the chunks that start at `starts` (all of them by default); a fleet with
    nothing pending is finished instead."""
    from advisor.fleets.tasks import advise_chunk

    for start in range(0, fleet.total, CHUNK) if starts is None else starts:
        advise_chunk.delay(fleet_id=fleet.pk, start=start, stop=start + CHUNK)
    if fleet.total == 0 or not _pending(fleet.pk).exists():
        fleet_finish(fleet_id=fleet.pk)


def _pending(fleet_id: int) -> models.QuerySet[FleetItem]:
    return FleetItem.objects.filter(fleet_id=fleet_id, status=FleetItem.Status.PENDING)


def requeue_stalled(fleet: Fleet, *, now: datetime | None = None) -> bool:
    """Queue a fleet's chunks again when none has started STALE_QUEUED_S after the upload
    (its messages never reached the broker). Chunks skip what is done, so a second copy
    of one is harmless; its queue time moves so one poll, not every poll, queues it."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=STALE_QUEUED_S)
    if fleet.status != Fleet.Status.QUEUED or fleet.queued_at >= cutoff:
        return False  # the common case, read on every poll: no write
    stale = Fleet.objects.filter(
        pk=fleet.pk,
        status=Fleet.Status.QUEUED,
        queued_at__lt=cutoff,
    ).update(queued_at=now)
    if stale:
        log.warning("fleet %s: no chunk started; queued again", fleet.pk)
        queue_chunks(fleet)
    return bool(stale)


def _silent(cutoff: datetime) -> Q:
    """Running, with no sign of life from its chunks and not swept since `cutoff`."""
    quiet = Q(progressed_at__lt=cutoff) | Q(progressed_at__isnull=True, started_at__lt=cutoff)
    unswept = Q(swept_at__isnull=True) | Q(swept_at__lt=cutoff)
    return quiet & unswept & Q(status=Fleet.Status.RUNNING)


def _stalled(fleet_id: int, cutoff: datetime) -> bool:
    """A worker took a chunk of this fleet (its pending servers' attempts were counted) and
    nothing came of it, while the workers had room: no chunk of another fleet showed life
    since `cutoff` either. Never-taken servers mean a queue ahead of them, or lost
    messages: waiting, not stalled."""
    taken = _pending(fleet_id).filter(attempts__gt=0).exists()
    busy = Fleet.objects.filter(progressed_at__gte=cutoff).exclude(pk=fleet_id).exists()
    return taken and not busy


def requeue_running(fleet: Fleet, *, now: datetime | None = None) -> bool:
    """Queue again the chunks with pending servers of a running fleet that showed no sign
    of life for STALLED_AFTER_S (their worker hit the hard time limit, was killed, the
    messages were lost, or they wait behind other work: a second copy is harmless); after
    MAX_REQUEUES such sweeps in a row that were stalls (_stalled), fail what is pending."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=lifecycle.STALLED_AFTER_S)
    stall = int(_stalled(fleet.pk, cutoff))
    claimed = Fleet.objects.filter(_silent(cutoff), pk=fleet.pk).update(
        swept_at=now, requeues=F("requeues") + stall
    )
    if not claimed:
        return False
    fleet.refresh_from_db(fields=["requeues", "swept_at"])
    if fleet.requeues > MAX_REQUEUES:
        reason = (f"not advised: no worker finished its chunk, queued again {MAX_REQUEUES} "
                  f"times {lifecycle.STALLED_AFTER_S} s apart")  # fmt: skip
        fail_items(_pending(fleet.pk), reason)
        finish_if_advised(fleet.pk)
        log.error("fleet %s: gave up on its pending servers: %s", fleet.pk, reason)
        return False
    positions = _pending(fleet.pk).values_list("position", flat=True)
    starts = sorted({position // CHUNK * CHUNK for position in positions})
    log.warning("fleet %s: chunks %s stalled; queued again", fleet.pk, starts)
    queue_chunks(fleet, starts)
    return True


def requeue_all_stalled(*, now: datetime | None = None) -> list[int]:
    """The sweep: requeue_stalled for every fleet queued past STALE_QUEUED_S, and
    requeue_running for every one running and silent past STALLED_AFTER_S. The ids of the
    fleets queued again."""
    now = now or timezone.now()
    queued = Fleet.objects.filter(
        status=Fleet.Status.QUEUED, queued_at__lt=now - timedelta(seconds=STALE_QUEUED_S)
    )
    running = Fleet.objects.filter(_silent(now - timedelta(seconds=lifecycle.STALLED_AFTER_S)))
    again = [fleet.pk for fleet in queued[:SWEEP_BATCH] if requeue_stalled(fleet, now=now)]
    return again + [fleet.pk for fleet in running[:SWEEP_BATCH] if requeue_running(fleet, now=now)]


def fail_items(items: models.QuerySet[FleetItem], reason: str) -> int:
    """Fail these servers with `reason`, each problem rooted at its position."""
    failed = list(items.only("pk", "position"))
    for item in failed:
        item.status = FleetItem.Status.FAILED
        item.problems = [f"servers[{item.position}]: {reason}"]
    FleetItem.objects.bulk_update(failed, ["status", "problems"], batch_size=1000)
    return len(failed)


def _advise(item: FleetItem, org: Organisation, user_id: int | None) -> Assessment | None:
    try:
        result = rules.advise_inventory(rules.inventory_from(advice.document(item.document)))
    except rules.InventoryError as exc:
        item.status, item.problems = FleetItem.Status.FAILED, advice.rerooted(item.position, exc)
        return None
    except TooLarge as exc:
        item.status, item.problems = FleetItem.Status.FAILED, [f"servers[{item.position}]: {exc}"]
        return None
    assessment = assessment_from_result(
        result, organisation=org, created_by_id=user_id, request_hash=""
    )
    advice.summarise(item, results.result_of(assessment))
    item.status = FleetItem.Status.DONE
    return assessment


def finish_if_advised(fleet_id: int) -> bool:
    """Finish the fleet once none of its servers is pending."""
    return not _pending(fleet_id).exists() and fleet_finish(fleet_id=fleet_id)


def fleet_finish(*, fleet_id: int) -> bool:
    """Mark the fleet done with its counts and summary stored, once (True for the one call
    that did it), and tell webhooks in the same transaction: exactly one fleet.completed.
    Nothing is pending by then, so the counts are final."""
    fleet = Fleet.objects.filter(pk=fleet_id).exclude(status=Fleet.Status.DONE).first()
    if fleet is None:
        return False
    summary = presenting.compute_summary(fleet)  # outside the lock: it reads every server
    with transaction.atomic():
        counts = selectors.count_servers(fleet_id)
        changed = (
            Fleet.objects.filter(pk=fleet_id)
            .exclude(status=Fleet.Status.DONE)
            .update(status=Fleet.Status.DONE, finished_at=timezone.now(),
                    done_count=counts.get("done", 0), failed_count=counts.get("failed", 0))
        )  # fmt: skip
        if changed:
            FleetSummary.objects.update_or_create(fleet_id=fleet_id, defaults={"data": summary})
            from advisor.webhooks.services import fleet_completed

            fleet_completed(fleet_id=fleet_id)
    return bool(changed)


def fleet_reevaluate(*, user: User, fleet: Fleet) -> Fleet:
    """The same documents as a new fleet on the current rules, linked to this one."""
    items = fleet.items.order_by("position").only("document", "label", "problems")
    entries = [
        Entry(item.document, item.label, "" if item.document is not None else "not JSON")
        for item in items
    ]
    digest = document_hash([entry.document for entry in entries])
    created, _ = fleet_create(
        user=user, entries=entries, name=fleet.name, digest=digest, previous=fleet
    )
    return created
