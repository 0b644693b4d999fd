"""Fleet writes: store an upload as pending items and queue its chunks; advise one chunk
on a worker; finish the fleet once; re-run a fleet on the current rules.

A chunk is advised in memory, then stored in one transaction that first locks its items
still pending: a worker killed before the commit stores nothing (the redelivered chunk
does it all), one killed after it finds nothing pending and stores nothing twice. A bad
document fails its own item, with its problems re-rooted by position
(`servers[417].storage[1].mount`); the others go on.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

import rules
from advisor.assessments.services import (
    NoOrganisation,
    assessment_from_result,
    document_hash,
    stored_under_key,
)
from advisor.audit.services import record
from advisor.core.selectors import organisation_for_user
from advisor.core.text import storable
from advisor.fleets import storing
from advisor.fleets.reading import BUNDLE_KEY, Entry
from advisor.models import Assessment, Fleet, FleetItem, Organisation
from rules.parse import TooLarge, draft

CHUNK = 100  # servers a task advises and stores in one transaction
STALE_QUEUED_S = 120  # queued this long with no chunk started: the messages were lost
SEVERITIES = ("high", "medium", "low")
log = logging.getLogger(__name__)


def _host(document: Any) -> str:
    server = document.get("server") if isinstance(document, dict) else None
    host = server.get("hostname") if isinstance(server, dict) else None
    return host[:253] if isinstance(host, str) else ""


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
    if idempotency_key and (found := stored_under_key(Fleet, org, idempotency_key, digest)):
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
        found = stored_under_key(Fleet, org, idempotency_key, digest) if idempotency_key else None
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
                host=_host(entry.document), document=entry.document if not failed else None,
                status=FleetItem.Status.FAILED if failed else FleetItem.Status.PENDING,
                problems=[f"servers[{position}]: {problem}"] if failed else [],
            )
        )  # fmt: skip
    storing.insert_items(items)


def queue_chunks(fleet: Fleet) -> None:
    from advisor.fleets.tasks import advise_chunk

    for start in range(0, fleet.total, CHUNK):
        advise_chunk.delay(fleet_id=fleet.pk, start=start, stop=start + CHUNK)
    if (
        fleet.total == 0
        or not FleetItem.objects.filter(fleet=fleet, status=FleetItem.Status.PENDING).exists()
    ):
        fleet_finish(fleet_id=fleet.pk)


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


def requeue_all_stalled(*, now: datetime | None = None) -> list[int]:
    """requeue_stalled for every fleet queued past STALE_QUEUED_S; the ids queued again."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=STALE_QUEUED_S)
    stalled = Fleet.objects.filter(status=Fleet.Status.QUEUED, queued_at__lt=cutoff)
    return [fleet.pk for fleet in stalled[:50] if requeue_stalled(fleet, now=now)]


def _rerooted(position: int, exc: rules.InventoryError) -> list[str]:
    out = []
    for problem in exc.problems:
        path = problem.path
        where = f"servers[{position}]" + ("" if path == "$" else f".{path}".replace(".[", "["))
        out.append(f"{where}: {problem.message}")
    return out


def config_key(text: str) -> str:
    """What makes two configuration files the same file to apply: their option lines. The
    comments (the host name, the derivation) differ from server to server."""
    lines = [line.strip() for line in text.splitlines()]
    options = [line for line in lines if line and not line.startswith(("/*", "*", "#"))]
    return hashlib.sha256("\n".join(options).encode()).hexdigest()


def summarise(item: FleetItem, result: rules.Result, payload: dict[str, Any]) -> None:
    """The columns the fleet view sorts, filters and groups by."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for warning in result.warnings:
        counts[warning.severity] = counts.get(warning.severity, 0) + 1
    item.high, item.medium, item.low = counts["high"], counts["medium"], counts["low"]
    item.host = item.host or result.inventory.server.hostname[:253]
    artifacts = payload.get("artifacts", {})
    config = next((name for name in artifacts if name.endswith(".cfg")), "")
    item.config_name = config
    item.config_key = config_key(artifacts[config]) if config else ""
    item.settings = {
        rec["setting"]: rec["value"]
        for rec in payload.get("recommendations", [])
        if rec.get("target") == config and rec.get("kind") == "change"
    }


def _document(raw: Any) -> Any:
    """The inventory an item holds: itself, or the draft its collector bundle reads into
    with the workload the upload gave."""
    if not (isinstance(raw, dict) and isinstance(raw.get(BUNDLE_KEY), str)):
        return raw
    document = dict(draft(raw[BUNDLE_KEY]).document)
    if raw.get("workload") is not None:
        document["workload"] = raw["workload"]
    return document


def _advise(item: FleetItem, org: Organisation, user_id: int | None) -> Assessment | None:
    try:
        result = rules.advise_inventory(rules.inventory_from(_document(item.document)))
    except rules.InventoryError as exc:
        item.status, item.problems = FleetItem.Status.FAILED, _rerooted(item.position, exc)
        return None
    except TooLarge as exc:
        item.status, item.problems = FleetItem.Status.FAILED, [f"servers[{item.position}]: {exc}"]
        return None
    assessment = assessment_from_result(
        result, organisation=org, created_by_id=user_id, request_hash=""
    )
    summarise(item, result, assessment.result)
    item.status = FleetItem.Status.DONE
    return assessment


def advise_chunk(*, fleet_id: int, start: int, stop: int) -> int:
    """Advise and store the chunk's pending items; the number stored (0 on a redelivery)."""
    fleet = Fleet.objects.select_related("organisation").get(pk=fleet_id)
    Fleet.objects.filter(pk=fleet_id, status=Fleet.Status.QUEUED).update(
        status=Fleet.Status.RUNNING, started_at=timezone.now()
    )
    chunk = FleetItem.objects.filter(fleet_id=fleet_id, position__gte=start, position__lt=stop)
    planned = list(chunk.filter(status=FleetItem.Status.PENDING))
    results = [(item, _advise(item, fleet.organisation, fleet.created_by_id)) for item in planned]
    with transaction.atomic():
        pending = set(
            chunk.select_for_update()
            .filter(status=FleetItem.Status.PENDING)
            .values_list("pk", flat=True)
        )
        results = [(item, a) for item, a in results if item.pk in pending]
        stored = [a for _, a in results if a is not None]
        storing.store(stored, [item for item, _ in results])
    if not FleetItem.objects.filter(fleet_id=fleet_id, status=FleetItem.Status.PENDING).exists():
        fleet_finish(fleet_id=fleet_id)
    return len(stored)


def fleet_finish(*, fleet_id: int) -> bool:
    """Mark the fleet done, once (True for the one call that did it), and tell webhooks."""
    changed = (
        Fleet.objects.filter(pk=fleet_id)
        .exclude(status=Fleet.Status.DONE)
        .update(status=Fleet.Status.DONE, finished_at=timezone.now())
    )
    if changed:
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
