"""Safe retries: every create takes an Idempotency-Key. The same key and the same request
again answers 200 with what the first stored (nothing stored twice); the same key with
another request is 409 in the error envelope, naming the header. A report request that
differs from the report in progress is refused naming each option that differs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from advisor.core.idempotency import HashedChunks
from advisor.logs import api_views
from advisor.models import Assessment, Fleet, FleetReport, JobLog, Organisation, Report, Webhook
from tests.api.conftest import ASSESSMENTS
from tests.api.test_logs import SORT
from tests.conftest import example

KEY = "retry-4711"
LEMANS, PRIME = example("lemans-aix53-etl"), example("prime-spds-aix")


def _json(url: str, body: Any) -> Callable[[APIClient, str], Any]:
    def post(api: APIClient, key: str) -> Any:
        return api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    return post


def _raw(url: str, body: bytes, content_type: str) -> Callable[[APIClient, str], Any]:
    def post(api: APIClient, key: str) -> Any:
        return api.post(url, body, content_type=content_type, HTTP_IDEMPOTENCY_KEY=key)

    return post


def _ndjson(document: dict[str, Any]) -> bytes:
    return (json.dumps(document) + "\n").encode()


OTHER_LOG = SORT.replace("52:32.08", "12:32.08")
HOOKS = "/api/v1/webhooks/"
EVENTS = ["fleet.completed"]
# Each create: (the model, its first request, another request, the first answer's status).
CREATES = {
    "assessment": (Assessment, _json(ASSESSMENTS, LEMANS), _json(ASSESSMENTS, PRIME), 201),
    "fleet": (Fleet, _raw("/api/v1/fleets/", _ndjson(LEMANS), "application/x-ndjson"),
              _raw("/api/v1/fleets/", _ndjson(PRIME), "application/x-ndjson"), 202),
    "fleet (another name)": (Fleet, _raw("/api/v1/fleets/?name=a", _ndjson(LEMANS),
                                         "application/x-ndjson"),
                             _raw("/api/v1/fleets/?name=b", _ndjson(LEMANS),
                                  "application/x-ndjson"), 202),
    "log": (JobLog, _raw("/api/v1/logs/?name=a.log", SORT.encode(), "text/plain"),
            _raw("/api/v1/logs/?name=a.log", OTHER_LOG.encode(), "text/plain"), 201),
    "log (another name)": (JobLog, _raw("/api/v1/logs/?name=a.log", SORT.encode(), "text/plain"),
                           _raw("/api/v1/logs/?name=b.log", SORT.encode(), "text/plain"), 201),
    "webhook": (Webhook, _json(HOOKS, {"url": "https://a.example/h", "events": EVENTS}),
                _json(HOOKS, {"url": "https://b.example/h", "events": EVENTS}), 201),
}  # fmt: skip


@pytest.mark.parametrize("which", CREATES)
def test_a_retry_is_answered_with_what_the_first_stored(api: APIClient, which: str) -> None:
    model, first, other, code = CREATES[which]
    created = first(api, KEY)
    assert created.status_code == code, created.content
    replay = first(api, KEY)
    assert replay.status_code == 200, replay.content
    assert replay.json()["id"] == created.json()["id"]
    assert model.objects.count() == 1

    conflict = other(api, KEY)
    assert conflict.status_code == 409, conflict.content
    body = conflict.json()
    assert body["code"] == "conflict" and list(body["errors"]) == ["Idempotency-Key"]
    assert body["errors"]["Idempotency-Key"][0].startswith("was used before with another request")
    assert model.objects.count() == 1
    assert other(api, "another-key").status_code == code  # a new key: a new request


@pytest.mark.parametrize("which", CREATES)
def test_a_malformed_key_is_refused_naming_the_header(api: APIClient, which: str) -> None:
    model, first, _, _ = CREATES[which]
    refused = first(api, "two words")
    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == ["Idempotency-Key"]
    assert model.objects.count() == 0


def test_keys_are_kept_apart_by_organisation(api: APIClient, outsider_api: APIClient) -> None:
    _, first, _, code = CREATES["log"]
    assert first(api, KEY).status_code == code
    assert first(outsider_api, KEY).status_code == code
    assert JobLog.objects.count() == 2


@pytest.fixture
def assessment(api: APIClient) -> int:
    answer = api.post(ASSESSMENTS, LEMANS, format="json")
    assert answer.status_code == 201
    created: int = answer.json()["id"]
    return created


def test_a_report_request_is_replayed_and_its_key_conflicts(
    api: APIClient, assessment: int
) -> None:
    url = f"{ASSESSMENTS}{assessment}/reports/"
    first = api.post(url, {"client_name": "Acme"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 202, first.content
    Report.objects.update(status="done")  # built since: a retry still finds it
    replay = api.post(url, {"client_name": "Acme"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (replay.status_code, replay.json()["id"]) == (200, first.json()["id"])
    assert replay.json()["status"] == "done"
    other = api.post(url, {"client_name": "Globex"}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert other.status_code == 409 and list(other.json()["errors"]) == ["Idempotency-Key"]
    assert Report.objects.count() == 1


def test_a_report_request_with_other_options_is_refused_naming_them(
    api: APIClient, assessment: int
) -> None:
    url = f"{ASSESSMENTS}{assessment}/reports/"
    first = api.post(url, {"client_name": "Acme"}, format="json")
    assert first.status_code == 202
    joined = api.post(url, {"client_name": "Acme"}, format="json")
    assert (joined.status_code, joined.json()["id"]) == (202, first.json()["id"])

    other = api.post(url, {"client_name": "Globex", "include_scripts": False}, format="json")

    assert other.status_code == 409
    body = other.json()
    assert body["code"] == "conflict" and set(body["errors"]) == {"client_name", "include_scripts"}
    report = first.json()["id"]
    assert body["errors"]["client_name"] == [
        f'report {report}, queued or being built, has "Acme"; ask again once it is done'
    ]
    assert Report.objects.count() == 1
    Report.objects.update(status="done")
    assert api.post(url, {"client_name": "Globex"}, format="json").status_code == 202
    assert Report.objects.count() == 2


def test_a_joined_report_keeps_the_key_of_the_request_that_joined_it(
    api: APIClient, assessment: int
) -> None:
    url = f"{ASSESSMENTS}{assessment}/reports/"
    first = api.post(url, {}, format="json").json()
    joined = api.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (joined.status_code, joined.json()["id"]) == (202, first["id"])
    Report.objects.update(status="done")
    again = api.post(url, {}, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert (again.status_code, again.json()["id"]) == (200, first["id"])


def test_the_pdf_of_a_report_not_built_is_409_in_the_envelope(
    api: APIClient, assessment: int
) -> None:
    report = api.post(f"{ASSESSMENTS}{assessment}/reports/", {}, format="json").json()
    answer = api.get(f"{ASSESSMENTS}{assessment}/reports/{report['id']}/pdf")
    assert answer.status_code == 409
    assert answer.json() == {
        "code": "conflict",
        "detail": "The report is queued, not built yet: poll its status_url.",
        "errors": {"status": ["is queued, not done"]},
    }


def test_a_fleet_report_request_is_replayed(api: APIClient, user: User, org: Organisation) -> None:
    fleet = Fleet.objects.create(organisation=org, total=0, rules_version="x", status="done")
    url = f"/api/v1/fleets/{fleet.pk}/reports/"
    first = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 202, first.content
    FleetReport.objects.update(status="done")
    replay = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert (replay.status_code, replay.json()["id"]) == (200, first.json()["id"])
    assert api.post(url).status_code == 202  # no key: a new report once the first is built
    assert FleetReport.objects.count() == 2


def test_a_reevaluation_is_replayed_and_its_key_conflicts(
    api: APIClient, assessment: int, prime: dict[str, Any]
) -> None:
    url = f"{ASSESSMENTS}{assessment}/reevaluate"
    first = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 201, first.content
    replay = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert replay.status_code == 200 and replay.json() == first.json()
    assert Assessment.objects.count() == 2
    other = api.post(ASSESSMENTS, prime, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
    assert other.status_code == 409  # one key space: the organisation's assessments
    second = api.post(ASSESSMENTS, prime, format="json").json()["id"]
    again = api.post(f"{ASSESSMENTS}{second}/reevaluate", HTTP_IDEMPOTENCY_KEY=KEY)
    assert again.status_code == 409 and Assessment.objects.count() == 3


def test_a_fleet_reevaluation_is_replayed(api: APIClient, org: Organisation) -> None:
    fleet = Fleet.objects.create(organisation=org, total=0, rules_version="x", status="done")
    url = f"/api/v1/fleets/{fleet.pk}/reevaluate"
    first = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert first.status_code == 202, first.content
    replay = api.post(url, HTTP_IDEMPOTENCY_KEY=KEY)
    assert (replay.status_code, replay.json()["id"]) == (200, first.json()["id"])
    assert Fleet.objects.count() == 2
    uploaded = CREATES["fleet"][1](api, KEY)
    assert uploaded.status_code == 409 and Fleet.objects.count() == 2


def test_a_log_upload_that_loses_the_race_answers_as_the_retry_would(
    api: APIClient, org: Organisation, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another upload with the key is stored between this one's look-up and its insert."""
    same = HashedChunks([SORT.encode()], "a.log", "None")
    same.drain()
    insert_once = api_views.insert_once

    def store_first(*args: Any) -> Any:
        JobLog.objects.create(organisation=org, name="a.log", size_bytes=1, status="done",
                              idempotency_key=KEY, request_hash=same.hexdigest())  # fmt: skip
        return insert_once(*args)

    monkeypatch.setattr(api_views, "insert_once", store_first)
    answer = CREATES["log"][1](api, KEY)
    assert answer.status_code == 200, answer.content
    assert answer.json()["id"] == JobLog.objects.get().pk
