"""An endpoint is registered once per URL and event set (a second registration answers
with the first, without its secret; a retry with the same Idempotency-Key with it), and
is changed in place with PATCH, each field checked as at registration."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from advisor.models import Webhook

HOOKS = "/api/v1/webhooks/"
URL = "https://hooks.example.com/advisor"


def register(api: APIClient, body: dict[str, Any], **headers: str) -> Any:
    return api.post(HOOKS, body, format="json", **headers)


def test_the_same_endpoint_and_events_twice_is_one_endpoint(api: APIClient) -> None:
    first = register(api, {"url": URL, "events": ["fleet.completed", "assessment.created"]})
    assert first.status_code == 201 and first.json()["secret"].startswith("whsec_")
    again = register(api, {"url": URL, "events": ["assessment.created", "fleet.completed",
                                                   "fleet.completed"]})  # fmt: skip
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and "secret" not in again.json()
    assert Webhook.objects.count() == 1
    other_events = register(api, {"url": URL, "events": ["fleet.completed"]})
    assert other_events.status_code == 201  # another event set: another endpoint
    assert Webhook.objects.count() == 2


def test_a_retry_with_its_key_gets_the_secret_again(api: APIClient) -> None:
    body = {"url": URL, "events": ["fleet.completed"]}
    first = register(api, body, HTTP_IDEMPOTENCY_KEY="hook-1")
    replay = register(api, body, HTTP_IDEMPOTENCY_KEY="hook-1")
    assert replay.status_code == 200
    assert replay.json()["secret"] == first.json()["secret"]
    other = register(api, {**body, "url": URL + "/2"}, HTTP_IDEMPOTENCY_KEY="hook-1")
    assert other.status_code == 409 and list(other.json()["errors"]) == ["Idempotency-Key"]
    plain = register(api, body)  # the same endpoint, another request: no secret
    assert plain.status_code == 200 and "secret" not in plain.json()


def test_a_body_with_a_field_it_does_not_take_is_refused_naming_it(api: APIClient) -> None:
    answer = register(api, {"url": URL, "events": ["fleet.completed"], "secret": "mine"})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"secret": ["unknown field"]}
    wrong = register(api, {"url": URL, "events": ["fleet.done"]})
    assert wrong.json()["errors"] == {
        "events[0]": ["must be one of: fleet.completed, assessment.created"]
    }
    assert Webhook.objects.count() == 0


def test_an_endpoint_is_changed_in_place(api: APIClient) -> None:
    hook = register(api, {"url": URL, "events": ["fleet.completed"]}).json()
    url = f"{HOOKS}{hook['id']}/"

    changed = api.patch(url, {"events": ["assessment.created", "fleet.completed"]}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["events"] == ["assessment.created", "fleet.completed"]
    paused = api.patch(url, {"active": False, "url": URL + "/v2"}, format="json").json()
    assert (paused["active"], paused["url"], paused["id"]) == (False, URL + "/v2", hook["id"])
    assert "secret" not in paused
    stored = Webhook.objects.get()
    assert stored.secret == hook["secret"] and stored.url == URL + "/v2"


def test_a_change_is_checked_as_a_registration_is(api: APIClient) -> None:
    hook = register(api, {"url": URL, "events": ["fleet.completed"]}).json()
    url = f"{HOOKS}{hook['id']}/"
    assert list(api.patch(url, {"url": "http://hooks.example.com/"}, format="json")
                .json()["errors"]) == ["url"]  # fmt: skip
    assert list(api.patch(url, {"events": []}, format="json").json()["errors"]) == ["events"]
    assert api.patch(url, {"colour": "red"}, format="json").json()["errors"] == {
        "colour": ["unknown field"]
    }
    assert api.patch(url, {"active": "maybe"}, format="json").status_code == 400
    stored = Webhook.objects.get()
    assert (stored.url, stored.events, stored.active) == (URL, ["fleet.completed"], True)


def test_a_change_onto_another_endpoint_is_409_naming_it(api: APIClient) -> None:
    first = register(api, {"url": URL, "events": ["fleet.completed"]}).json()
    second = register(api, {"url": URL + "/2", "events": ["fleet.completed"]}).json()
    answer = api.patch(f"{HOOKS}{second['id']}/", {"url": URL}, format="json")
    assert answer.status_code == 409
    assert answer.json()["errors"] == {
        "url": [f"webhook {first['id']} has this URL and these events already"]
    }
    assert Webhook.objects.get(pk=second["id"]).url == URL + "/2"


def test_an_outsider_cannot_change_an_endpoint(api: APIClient, outsider_api: APIClient) -> None:
    hook = register(api, {"url": URL, "events": ["fleet.completed"]}).json()
    answer = outsider_api.patch(f"{HOOKS}{hook['id']}/", {"active": False}, format="json")
    assert answer.status_code == 404
    assert outsider_api.get(f"{HOOKS}{hook['id']}/deliveries/").status_code == 404
    assert Webhook.objects.get().active is True


def test_the_page_says_an_endpoint_is_registered_already(client_in: Client) -> None:
    url = reverse("webhooks:list")
    body = {"url": URL, "events": ["fleet.completed"]}
    assert client_in.post(url, body).status_code == 200
    again = client_in.post(url, body)
    assert again.status_code == 400
    assert "URL: is registered already for these events" in again.content.decode()
    assert Webhook.objects.count() == 1


BEFORE = [("advisor", "0018_assessment_result_counts")]
AFTER = [("advisor", "0019_idempotency_keys_and_unique_webhooks")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_merges_endpoints_registered_twice_keeping_their_deliveries() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        org = old.get_model("advisor", "Organisation").objects.create(name="Old")
        hook = old.get_model("advisor", "Webhook")
        delivery = old.get_model("advisor", "WebhookDelivery")
        made = [hook.objects.create(organisation=org, url=URL, secret=f"s{n}", events=events)
                for n, events in enumerate((["fleet.completed", "assessment.created"],
                                            ["assessment.created", "fleet.completed"],
                                            ["fleet.completed"]))]  # fmt: skip
        for n, row in enumerate(made):
            delivery.objects.create(webhook=row, event="fleet.completed", message_id=f"m{n}",
                                    payload={})  # fmt: skip

        MigrationExecutor(connection).migrate(AFTER)

        kept = {h.pk: (h.events, h.secret) for h in Webhook.objects.all()}
        assert kept == {made[0].pk: (["assessment.created", "fleet.completed"], "s0"),
                        made[2].pk: (["fleet.completed"], "s2")}  # fmt: skip
        moved = Webhook.objects.get(pk=made[0].pk).deliveries.values_list("message_id", flat=True)
        assert sorted(moved) == ["m0", "m1"]
    finally:
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())
