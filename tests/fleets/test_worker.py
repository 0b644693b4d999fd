"""Fleets on real Celery workers over Redis, against the real PostgreSQL test database: a
fleet with bad documents mixed in, and a worker killed mid-fleet and replaced, after
which every server is stored exactly once."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from http.server import HTTPServer
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from advisor.fleets.reading import read_fleet
from advisor.fleets.services import CHUNK, fleet_create
from advisor.models import Assessment, Fleet, FleetItem
from tests.fleets.conftest import fleet, ndjson
from tests.reports.test_worker import WAIT_S, Worker, stop

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


def wait_for(fleet_row: Fleet, until: Callable[[Fleet], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        fleet_row.refresh_from_db()
        if until(fleet_row):
            return
        time.sleep(0.2)
    raise AssertionError(f"fleet {fleet_row.pk} stuck at {fleet_row.status}")


def done_count(fleet_row: Fleet) -> int:
    return FleetItem.objects.filter(fleet=fleet_row, status="done").count()


def test_a_worker_assesses_a_fleet_with_bad_documents(
    start_worker: Worker,
    user: User,
) -> None:
    body = ndjson(fleet(10)) + b"{broken\n" + b'"text"\n'
    start_worker("fleet")
    created, _ = fleet_create(user=user, entries=read_fleet(body, "application/x-ndjson"))
    wait_for(created, lambda f: f.status == "done")
    assert done_count(created) == 10
    assert FleetItem.objects.filter(fleet=created, status="failed").count() == 2
    assert Assessment.objects.filter(fleet_item__fleet=created).count() == 10


def test_a_worker_killed_mid_fleet_is_replaced_and_nothing_is_stored_twice(
    start_worker: Worker,
    user: User,
    outsider_api: Any,
) -> None:
    total = 4 * CHUNK
    body = ndjson(fleet(total))
    doomed = start_worker("doomed", item_s=0.03)  # 100 servers a chunk: 3 s each
    created, _ = fleet_create(user=user, entries=read_fleet(body, "application/x-ndjson"))
    wait_for(created, lambda f: done_count(f) >= CHUNK)
    stop(doomed, signal.SIGKILL)
    assert doomed.returncode == -signal.SIGKILL
    halfway = done_count(created)
    assert CHUNK <= halfway < total
    start_worker("rescuer")
    wait_for(created, lambda f: f.status == "done")
    items = FleetItem.objects.filter(fleet=created)
    assert items.filter(status="done").count() == total
    assert Assessment.objects.count() == total  # none stored twice, none lost
    linked = set(items.values_list("assessment_id", flat=True))
    assert len(linked) == total and None not in linked
    assert outsider_api.get(f"/api/v1/fleets/{created.pk}/").status_code == 404


def test_the_fleet_report_is_built_by_a_worker(start_worker: Worker, user: User, api: Any) -> None:
    from advisor.fleets.reporting import fleet_report_request

    start_worker("report")
    created, _ = fleet_create(
        user=user, entries=read_fleet(ndjson(fleet(5)), "application/x-ndjson")
    )
    wait_for(created, lambda f: f.status == "done")
    report = fleet_report_request(fleet=created, user=user)
    deadline = time.monotonic() + WAIT_S
    while report.status not in ("done", "failed") and time.monotonic() < deadline:
        time.sleep(0.2)
        report.refresh_from_db()
    assert report.status == "done", report.error
    assert bytes(report.pdf).startswith(b"%PDF")
    assert api.get(f"/api/v1/fleets/{created.pk}/reports/{report.pk}/pdf").status_code == 200


def test_reevaluation_on_bumped_rules_shows_the_changed_settings(
    start_worker: Worker, user: User, api: Any
) -> None:
    start_worker("reevaluate")
    first, _ = fleet_create(user=user, entries=read_fleet(ndjson(fleet(4)), "application/x-ndjson"))
    wait_for(first, lambda f: f.status == "done")
    # As the older rules 2026.01.0 had advised: MEMSIZE 1G on sas0001.
    item = FleetItem.objects.get(fleet=first, host="sas0001")
    item.settings = {**item.settings, "MEMSIZE": "1G"}
    item.save()
    Fleet.objects.filter(pk=first.pk).update(rules_version="2026.01.0")
    answer = api.post(f"/api/v1/fleets/{first.pk}/reevaluate").json()
    second = Fleet.objects.get(pk=answer["id"])
    wait_for(second, lambda f: f.status == "done")
    drift = api.get(answer["url"]).json()["drift"]
    assert drift["rules_versions"] == ["2026.01.0", second.rules_version]
    (host,) = drift["hosts"]
    assert host["host"] == "sas0001"
    assert host["changes"] == [
        {"setting": "MEMSIZE", "old": "1G", "new": item_now(second, "sas0001")["MEMSIZE"]}
    ]


def item_now(run: Fleet, host: str) -> dict[str, Any]:
    settings: dict[str, Any] = FleetItem.objects.get(fleet=run, host=host).settings
    return settings


def test_a_worker_delivers_signed_webhooks(
    start_worker: Worker, user: User, api: Any, monkeypatch: Any
) -> None:
    from standardwebhooks.webhooks import Webhook as Verifier

    from tests.fleets.test_webhooks import Receiver, register

    monkeypatch.setenv("WEBHOOK_ALLOW_PRIVATE", "1")
    Receiver.received, Receiver.answer = [], 204
    server = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with override_settings(WEBHOOK_ALLOW_PRIVATE=True):
            hook = register(api, f"http://127.0.0.1:{server.server_port}/h", ["fleet.completed"])
        start_worker("hooks")
        created, _ = fleet_create(
            user=user, entries=read_fleet(ndjson(fleet(3)), "application/x-ndjson")
        )
        wait_for(created, lambda f: f.status == "done")
        deadline = time.monotonic() + WAIT_S
        while not Receiver.received and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        server.shutdown()
    ((headers, body),) = Receiver.received
    event = Verifier(hook["secret"]).verify(body, headers)
    assert event["type"] == "fleet.completed" and event["data"]["fleet_id"] == created.pk
    assert event["data"]["done"] == 3
