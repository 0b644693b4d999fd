"""No fleet server is left pending: a server whose advice raises, a chunk the worker's
time limit struck, a chunk that kept failing or killing its worker, a fleet whose chunks
stalled while running; each fleet reaches done once, with one fleet.completed, and its
summary stored. The last test runs a real worker over Redis with a lowered time limit."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from advisor.core import lifecycle
from advisor.fleets import chunks, presenting, services, storing
from advisor.fleets.reading import read_fleet
from advisor.models import Fleet, FleetItem, FleetSummary, Organisation, Webhook, WebhookDelivery
from advisor.webhooks import tasks as webhook_tasks
from tests.fleets.conftest import fleet, ndjson
from tests.fleets.test_worker import wait_for
from tests.reports.test_worker import Worker

Capture = Callable[..., Any]


@pytest.fixture
def hooked(org: Organisation, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """A fleet.completed endpoint; deliveries are recorded, never sent."""
    Webhook.objects.create(
        organisation=org, url="https://hooks.invalid/h", secret="s", events=["fleet.completed"]
    )
    sent: list[int] = []
    monkeypatch.setattr(
        webhook_tasks.deliver, "delay", lambda delivery_id: sent.append(delivery_id)
    )
    yield sent


def upload(user: User, count: int, capture: Capture, *, run: bool = True) -> Fleet:
    entries = read_fleet(ndjson(fleet(count)), "application/x-ndjson")
    with capture(execute=run):
        created, _ = services.fleet_create(user=user, entries=entries)
    created.refresh_from_db()
    return created


def statuses(run: Fleet) -> list[str]:
    return list(FleetItem.objects.filter(fleet=run).values_list("status", flat=True))


def problems(run: Fleet, position: int) -> list[str]:
    found: list[str] = FleetItem.objects.get(fleet=run, position=position).problems
    return found


def completed_events(run: Fleet) -> int:
    return WebhookDelivery.objects.filter(
        event="fleet.completed", payload__data__fleet_id=run.pk
    ).count()


def test_a_server_whose_advice_raises_fails_alone(
    user: User, hooked: list[int], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    advise = services._advise

    def flaky(item: FleetItem, *args: Any) -> Any:
        if item.position == 2:
            raise RecursionError("maximum recursion depth exceeded")
        return advise(item, *args)

    monkeypatch.setattr(services, "_advise", flaky)
    run = upload(user, 5, django_capture_on_commit_callbacks)
    assert run.status == "done"
    assert statuses(run) == ["done", "done", "failed", "done", "done"]
    assert problems(run, 2) == [
        "servers[2]: not advised: RecursionError: maximum recursion depth exceeded"
    ]
    assert completed_events(run) == 1 and len(hooked) == 1


def test_the_time_limit_fails_the_server_it_struck_and_the_rest_go_on(
    user: User, hooked: list[int], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    advise, struck = services._advise, []

    def slow_once(item: FleetItem, *args: Any) -> Any:
        if item.position == 1 and not struck:
            struck.append(item.position)
            raise SoftTimeLimitExceeded()
        return advise(item, *args)

    monkeypatch.setattr(services, "_advise", slow_once)
    run = upload(user, 4, django_capture_on_commit_callbacks)
    assert run.status == "done"
    assert statuses(run) == ["done", "failed", "done", "done"]
    (reason,) = problems(run, 1)
    assert reason.startswith(
        f"servers[1]: not advised: the worker's time limit of {lifecycle.SOFT_LIMIT_S} s "
        "was reached while advising this server"
    )
    # The servers after it were never tried: advised together, one attempt each.
    attempts = FleetItem.objects.filter(fleet=run).values_list("attempts", flat=True)
    assert list(attempts) == [1, 1, 1, 1]
    assert completed_events(run) == 1


def test_a_chunk_that_keeps_failing_fails_its_servers_with_the_reason_after_a_retry(
    user: User, hooked: list[int], monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    def broken(*args: Any) -> None:
        raise ValueError("the store is broken")

    monkeypatch.setattr(storing, "store", broken)
    run = upload(user, 3, django_capture_on_commit_callbacks)
    assert run.status == "done"
    assert statuses(run) == ["failed"] * 3
    for position in range(3):
        assert problems(run, position) == [
            f"servers[{position}]: not stored: ValueError: the store is broken"
        ]
    # Tried together once, then each alone once: two attempts, no more.
    attempts = FleetItem.objects.filter(fleet=run).values_list("attempts", flat=True)
    assert list(attempts) == [2, 2, 2]
    assert completed_events(run) == 1 and len(hooked) == 1


def test_a_server_that_killed_its_worker_each_time_fails_and_the_rest_are_advised(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    run = upload(user, 4, django_capture_on_commit_callbacks, run=False)
    # The chunk's worker died under it: once all together, twice more on server 1 alone.
    FleetItem.objects.filter(fleet=run).update(attempts=1)
    FleetItem.objects.filter(fleet=run, position=1).update(attempts=lifecycle.MAX_ATTEMPTS)
    with django_capture_on_commit_callbacks(execute=True):
        stored = chunks.advise_chunk(fleet_id=run.pk, start=0, stop=services.CHUNK)
    run.refresh_from_db()
    assert stored == 3 and run.status == "done"
    assert statuses(run) == ["done", "failed", "done", "done"]
    assert problems(run, 1) == [
        f"servers[1]: not advised: the worker stopped {lifecycle.MAX_ATTEMPTS} times while "
        f"advising it (the hard time limit of {lifecycle.HARD_LIMIT_S} s, or the worker "
        "process was lost)"
    ]


def test_the_hard_time_limit_queues_the_chunk_again_until_its_servers_are_done(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    from advisor.fleets.tasks import advise_chunk

    run = upload(user, 3, django_capture_on_commit_callbacks, run=False)
    Fleet.objects.filter(pk=run.pk).update(status="running")
    FleetItem.objects.filter(fleet=run).update(attempts=1)
    kwargs = {"fleet_id": run.pk, "start": 0, "stop": services.CHUNK}
    with django_capture_on_commit_callbacks(execute=True):
        advise_chunk.on_failure(lifecycle.TimeLimitExceeded(90), "id", (), kwargs, None)  # type: ignore[arg-type]
    run.refresh_from_db()
    assert run.status == "done" and statuses(run) == ["done"] * 3


def stall(run: Fleet, *, requeues: int = 0) -> None:
    long_ago = timezone.now() - timedelta(seconds=lifecycle.STALLED_AFTER_S + 1)
    Fleet.objects.filter(pk=run.pk).update(
        status="running", started_at=long_ago, progressed_at=long_ago, requeues=requeues
    )


def test_a_fleet_stalled_while_running_is_queued_again_by_the_sweep_and_completes(
    user: User, hooked: list[int], django_capture_on_commit_callbacks: Capture
) -> None:
    from advisor.fleets.tasks import sweep_fleets

    run = upload(user, 3, django_capture_on_commit_callbacks, run=False)
    stall(run)
    fresh = upload(user, 2, django_capture_on_commit_callbacks, run=False)
    Fleet.objects.filter(pk=fresh.pk).update(status="running", progressed_at=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_fleets.apply().get() == [run.pk]
    run.refresh_from_db()
    assert run.status == "done" and statuses(run) == ["done"] * 3
    assert Fleet.objects.get(pk=fresh.pk).status == "running"  # alive: left alone
    assert completed_events(run) == 1 and len(hooked) == 1
    # A sweep after it finds nothing; finishing again tells nobody twice.
    assert services.requeue_all_stalled() == []
    assert services.fleet_finish(fleet_id=run.pk) is False
    assert completed_events(run) == 1


def test_a_fleet_stalled_sweep_after_sweep_fails_its_pending_servers_with_the_reason(
    user: User, hooked: list[int], django_capture_on_commit_callbacks: Capture
) -> None:
    run = upload(user, 3, django_capture_on_commit_callbacks, run=False)
    FleetItem.objects.filter(fleet=run, position=0).update(status="done")
    # A worker took the chunk (an attempt counted) and nothing came of it.
    FleetItem.objects.filter(fleet=run).update(attempts=1)
    stall(run, requeues=services.MAX_REQUEUES)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.requeue_all_stalled() == []
    run.refresh_from_db()
    assert run.status == "done" and statuses(run) == ["done", "failed", "failed"]
    assert problems(run, 2) == [
        f"servers[2]: not advised: no worker finished its chunk, queued again "
        f"{services.MAX_REQUEUES} times {lifecycle.STALLED_AFTER_S} s apart"
    ]
    assert completed_events(run) == 1
    event = WebhookDelivery.objects.get(event="fleet.completed").payload["data"]
    assert (event["done"], event["failed"]) == (1, 2)


@pytest.fixture
def sent_chunks(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, int]]:
    """Chunk messages are recorded, never run: they wait in the queue."""
    from advisor.fleets.tasks import advise_chunk

    sent: list[dict[str, int]] = []
    monkeypatch.setattr(advise_chunk, "delay", lambda **kwargs: sent.append(kwargs))
    return sent


def sweeps(count: int) -> Iterator[datetime]:
    """The times of `count` sweeps, each one past the stall window after the one before."""
    start = timezone.now()
    for n in range(count):
        yield start + n * timedelta(seconds=lifecycle.STALLED_AFTER_S + 1)


@pytest.mark.parametrize("taken", [False, True], ids=["never-taken", "taken-then-requeued"])
def test_a_fleet_queued_behind_other_fleets_work_is_queued_again_but_never_failed(
    user: User, django_capture_on_commit_callbacks: Capture, sent_chunks: list[dict[str, int]],
    taken: bool,
) -> None:  # fmt: skip
    # The workers are busy with a large fleet uploaded before it; its chunks wait their
    # turn behind that backlog for many stall windows (the messages are never run here).
    backlog = upload(user, 2, django_capture_on_commit_callbacks, run=False)
    run = upload(user, 3, django_capture_on_commit_callbacks, run=False)
    FleetItem.objects.filter(fleet=run, position=0).update(status="done")
    if taken:  # its chunk ran once, ended by an error, and waits again to be retried
        FleetItem.objects.filter(fleet=run).update(attempts=1)
    stall(run)
    sent_chunks.clear()
    queued: list[int] = []
    for now in sweeps(services.MAX_REQUEUES + 3):
        Fleet.objects.filter(pk=backlog.pk).update(status="running", progressed_at=now)
        queued += services.requeue_all_stalled(now=now)
    run.refresh_from_db()
    # Queued again once a sweep (a lost message is replaced), and never given up on.
    assert queued == [run.pk] * (services.MAX_REQUEUES + 3)
    assert sent_chunks == [{"fleet_id": run.pk, "start": 0, "stop": services.CHUNK}] * len(queued)
    assert run.status == "running" and run.requeues == 0
    assert statuses(run) == ["done", "pending", "pending"]
    # Its turn comes: the chunk runs and the fleet completes.
    with django_capture_on_commit_callbacks(execute=True):
        chunks.advise_chunk(fleet_id=run.pk, start=0, stop=services.CHUNK)
    run.refresh_from_db()
    assert run.status == "done" and statuses(run) == ["done"] * 3


def test_a_fleet_whose_messages_were_lost_is_queued_again_on_idle_workers_not_failed(
    user: User, django_capture_on_commit_callbacks: Capture, sent_chunks: list[dict[str, int]]
) -> None:
    # No worker ever took its chunks and no other fleet is running: the messages were
    # lost. Each sweep queues them again; none fails its servers.
    run = upload(user, 3, django_capture_on_commit_callbacks, run=False)
    stall(run)
    for now in sweeps(services.MAX_REQUEUES + 2):
        assert services.requeue_all_stalled(now=now) == [run.pk]
    run.refresh_from_db()
    assert run.requeues == 0 and statuses(run) == ["pending"] * 3
    assert len(sent_chunks) == services.MAX_REQUEUES + 2


def test_a_chunk_taken_and_lost_on_idle_workers_fails_after_the_stall_sweeps(
    user: User, hooked: list[int], django_capture_on_commit_callbacks: Capture,
    sent_chunks: list[dict[str, int]],
) -> None:  # fmt: skip
    # A worker took the chunk and vanished with it, and nothing else runs: each sweep is
    # a stall; past MAX_REQUEUES the pending servers fail and the fleet is done.
    run = upload(user, 2, django_capture_on_commit_callbacks, run=False)
    FleetItem.objects.filter(fleet=run).update(attempts=1)
    stall(run)
    for now in sweeps(services.MAX_REQUEUES + 1):
        with django_capture_on_commit_callbacks(execute=True):
            services.requeue_all_stalled(now=now)
    run.refresh_from_db()
    assert len(sent_chunks) == services.MAX_REQUEUES  # then it gave up
    assert run.status == "done" and statuses(run) == ["failed", "failed"]
    assert completed_events(run) == 1


def test_a_finished_fleets_summary_is_stored_once_and_read_back(
    user: User, api: APIClient, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    run = upload(user, 8, django_capture_on_commit_callbacks)
    stored = FleetSummary.objects.get(fleet=run).data
    assert stored == json.loads(json.dumps(presenting.compute_summary(run)))
    assert stored["groups"] and sum(g["servers"] for g in stored["groups"]) == 8

    def recomputed(fleet: Fleet) -> None:
        raise AssertionError("a finished fleet's summary was computed again")

    monkeypatch.setattr(presenting, "compute_summary", recomputed)
    body = api.get(f"/api/v1/fleets/{run.pk}/").json()
    assert body["status"] == "done" and body["groups"] == stored["groups"]
    assert body["disagreements"] == stored["disagreements"]


@pytest.mark.celery_worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_worker_whose_time_runs_out_on_a_chunk_still_finishes_the_fleet(
    start_worker: Worker, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each server takes 1.5 s against a 2 s limit: the limit strikes the second server of
    # each run, which fails with the reason; the rest of the chunk is queued anew. The hard
    # limit stays under the tests' 4 s visibility timeout.
    from advisor.fleets.tasks import advise_chunk

    monkeypatch.setenv("WORKER_SOFT_LIMIT_S", "2")  # the worker's lifecycle reads these
    monkeypatch.setenv("WORKER_HARD_LIMIT_S", "3")
    # A message carries its sender's limits: this process sends the first chunks.
    monkeypatch.setattr(advise_chunk, "soft_time_limit", 2)
    monkeypatch.setattr(advise_chunk, "time_limit", 3)
    # Celery caches a task's send options (limits included) at its first send, which an
    # earlier test may have made: drop the cache so these limits are the ones sent.
    monkeypatch.setattr(advise_chunk, "_exec_options", None)
    start_worker("time-limit", item_s=1.5)
    entries = read_fleet(ndjson(fleet(5)), "application/x-ndjson")
    created, _ = services.fleet_create(user=user, entries=entries)
    wait_for(created, lambda f: f.status == "done")
    items = FleetItem.objects.filter(fleet=created)
    assert not items.filter(status="pending").exists()
    failed = list(items.filter(status="failed").values_list("position", "problems"))
    assert failed and items.filter(status="done").count() == 5 - len(failed)
    for position, (reason,) in failed:
        assert reason.startswith(
            f"servers[{position}]: not advised: the worker's time limit of 2 s was reached"
        )
    assert FleetSummary.objects.filter(fleet=created).exists()
