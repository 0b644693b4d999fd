"""The API and fleet uploads refuse the documents the form and the command line refuse, each
problem under the JSON path it names (a fleet's re-rooted at its server); a device name of
another system is a warning in the stored result, not a refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.models import Assessment
from tests.api.conftest import ADVICE, ASSESSMENTS
from tests.rules.refused import REFUSED, WARNED, slipped

pytestmark = pytest.mark.django_db
FLEETS = "/api/v1/fleets/"
NAMES = sorted(REFUSED)


def device_warnings(result: dict[str, Any]) -> list[str]:
    return [w["message"] for w in result["warnings"] if w["rule"] == "storage.device_names"]


@pytest.mark.parametrize("name", NAMES)
def test_the_api_refuses_each_slip_naming_its_field(api: APIClient, name: str) -> None:
    slip = REFUSED[name]
    for url in (ASSESSMENTS, ADVICE):
        response = api.post(url, slipped(slip), format="json")
        assert response.status_code == 400, url
        body = response.json()
        assert (body["code"], body["errors"]) == ("invalid", {slip.path: [slip.says]})
        assert body["detail"] == "The inventory breaks the contract (1 problem)."
    assert Assessment.objects.count() == 0


def test_the_api_stores_a_name_of_another_system_with_a_warning(api: APIClient) -> None:
    response = api.post(ASSESSMENTS, slipped(WARNED), format="json")
    assert response.status_code == 201, response.content
    assert device_warnings(response.json()) == [WARNED.says]


def test_a_fleet_fails_each_slipped_server_alone_naming_its_field(
    api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    documents = [slipped(REFUSED[name], f"slip{i}") for i, name in enumerate(NAMES)]
    documents += [slipped(WARNED, "named"), slipped(REFUSED["stripe"], "fine")]
    documents[-1]["storage"][1]["stripe_kb"] = 64
    body = "".join(json.dumps(d) + "\n" for d in documents).encode()
    with django_capture_on_commit_callbacks(execute=True):
        response = api.generic("POST", FLEETS + "?name=alike", body, "application/x-ndjson")
    assert response.status_code == 202, response.content
    fleet = api.get(response.json()["url"]).json()
    assert (fleet["status"], fleet["done"], fleet["failed"]) == ("done", 2, len(NAMES))
    rows = api.get(f"{FLEETS}{fleet['id']}/servers/?sort=position").json()["results"]
    problems = {row["position"]: row["problems"] for row in rows}
    for position, name in enumerate(NAMES):
        slip = REFUSED[name]
        assert problems[position] == [f"servers[{position}].{slip.path}: {slip.says}"], name
    named = Assessment.objects.get(hostname="named")
    assert device_warnings(named.result) == [WARNED.says]
    assert Assessment.objects.filter(hostname="fine").exists()
