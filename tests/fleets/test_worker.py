"""Fleets on real Celery workers over Redis, against the real PostgreSQL test database: a
fleet with bad documents mixed in, and a worker killed mid-fleet and replaced, after
which every server is stored exactly once."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

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
