"""A finished fleet's status reads what was stored when it finished: its counts on its row
and its summary beside it, in one query that touches none of its servers; the answer is
the one counting and computing them gives. Its page reads the same. (The rate is
measured by benchmarks/api.py, not here.)"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from advisor.fleets import presenting, selectors
from advisor.models import Fleet, FleetItem, FleetSummary
from tests.api.conftest import BROWSER_ACCEPT
from tests.fleets.conftest import fleet, ndjson

FLEETS = "/api/v1/fleets/"
Capture = Callable[..., Any]


def upload(api: APIClient, documents: list[Any], capture: Capture) -> dict[str, Any]:
    with capture(execute=True):
        response = api.generic("POST", FLEETS, ndjson(documents), "application/x-ndjson")
    assert response.status_code == 202, response.content
    answer: dict[str, Any] = response.json()
    return answer


@pytest.fixture
def rerun(api: APIClient, django_capture_on_commit_callbacks: Capture) -> Fleet:
    """A finished re-run of a fleet (so its drift compares every host), one server bad."""
    first = upload(api, [*fleet(6), "not an inventory"], django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        again = api.post(first["url"] + "reevaluate").json()
    run = Fleet.objects.get(pk=again["id"])
    assert run.status == "done"
    return run


def recounted(run: Fleet) -> dict[str, Any]:
    """The counts and summary as every call computed them before they were stored."""
    counts = selectors.count_servers(run.pk)
    summary = json.loads(json.dumps(presenting.compute_summary(run)))
    return {"done": counts.get("done", 0), "failed": counts.get("failed", 0),
            "pending": counts.get("pending", 0)} | summary  # fmt: skip


def test_counts_are_stored_when_the_fleet_finishes(rerun: Fleet) -> None:
    assert (rerun.done_count, rerun.failed_count) == (6, 1)
    assert selectors.count_servers(rerun.pk) == {"done": 6, "failed": 1}


def test_a_finished_fleets_status_is_one_query_reading_no_server(
    api: APIClient, rerun: Fleet
) -> None:
    url = f"{FLEETS}{rerun.pk}/"
    api.get(url)  # the token is looked up once, then cached
    with CaptureQueriesContext(connection) as queries:
        response = api.get(url)
    assert response.status_code == 200
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "advisor_fleetitem" not in queries[0]["sql"]
    body = response.json()
    expected = recounted(rerun)
    assert {key: body[key] for key in expected} == expected
    assert (body["status"], body["total"], body["percent"]) == ("done", 7, 100)
    assert body["drift"]["compared"] == 6 and body["seconds_left"] == 0


def test_a_fleet_finished_before_its_counts_and_summary_were_stored_is_counted(
    api: APIClient, rerun: Fleet
) -> None:
    expected = recounted(rerun)
    Fleet.objects.filter(pk=rerun.pk).update(done_count=None, failed_count=None)
    FleetSummary.objects.filter(fleet=rerun).delete()
    body = api.get(f"{FLEETS}{rerun.pk}/").json()
    assert {key: body[key] for key in expected} == expected


def test_the_migration_counts_the_fleets_finished_before_it(rerun: Fleet) -> None:
    Fleet.objects.update(done_count=None, failed_count=None)
    migration = importlib.import_module("advisor.migrations.0012_fleet_counts_and_sweep")
    migration.count_finished(apps, None)
    counted = dict(Fleet.objects.values_list("pk", "done_count"))
    assert counted == {f.pk: 6 for f in Fleet.objects.all()}
    assert set(Fleet.objects.values_list("failed_count", flat=True)) == {1}


def test_a_running_fleets_status_counts_its_servers(
    api: APIClient, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        response = api.generic("POST", FLEETS, ndjson(fleet(3)), "application/x-ndjson")
    run_id = response.json()["id"]
    FleetItem.objects.filter(fleet_id=run_id, position=0).update(status="done")
    Fleet.objects.filter(pk=run_id).update(status="running")
    body = api.get(f"{FLEETS}{run_id}/").json()
    assert (body["status"], body["done"], body["pending"]) == ("running", 1, 2)
    assert "groups" not in body


def test_the_status_of_another_organisations_fleet_is_the_404_of_an_absent_one(
    outsider_api: APIClient, rerun: Fleet
) -> None:
    theirs = outsider_api.get(f"{FLEETS}{rerun.pk}/")
    absent = outsider_api.get(f"{FLEETS}{rerun.pk + 1000}/")
    assert theirs.status_code == absent.status_code == 404
    assert theirs.json() == absent.json()
    assert theirs.json()["code"] == "not_found"


def test_a_browser_gets_the_fleet_as_json(api: APIClient, rerun: Fleet) -> None:
    # The API answers JSON only: a browser's Accept gets it, HTML alone a JSON 406.
    response = api.get(f"{FLEETS}{rerun.pk}/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json()["id"] == rerun.pk
    assert api.get(f"{FLEETS}{rerun.pk}/", HTTP_ACCEPT="text/html").status_code == 406


def test_a_finished_fleets_page_reads_the_stored_counts_and_summary(
    client_in: Client, outsider_client: Client, rerun: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    def recounting(*args: Any) -> None:
        raise AssertionError("a finished fleet's counts or summary were computed again")

    monkeypatch.setattr(presenting, "compute_summary", recounting)
    monkeypatch.setattr(selectors, "count_servers", recounting)
    page = client_in.get(f"/fleets/{rerun.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "sas0000" in text
    assert outsider_client.get(f"/fleets/{rerun.pk}/").status_code == 404
