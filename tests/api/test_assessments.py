"""POST/GET /api/v1/assessments/: storage, idempotency, listing, ownership."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import rules
from advisor.api.idempotency import KEY_MESSAGE
from advisor.assessments.services import assessment_from_result
from advisor.models import Assessment, Organisation
from tests.api.conftest import ASSESSMENTS, detail_url
from tests.conftest import make_member


def test_create_answers_the_contract_result_plus_id_and_url(
    api: APIClient, lemans: dict[str, Any], user: User
) -> None:
    response = api.post(ASSESSMENTS, lemans, format="json")

    assert response.status_code == 201
    body = response.json()
    stored = Assessment.objects.get()
    assert body["id"] == stored.pk
    assert body["url"] == f"http://testserver/api/v1/assessments/{stored.pk}/"
    assert response["Location"] == body["url"]
    assert list(body)[:2] == ["id", "url"]
    assert {k: v for k, v in body.items() if k not in ("id", "url")} == rules.advise(lemans)
    assert stored.organisation == user.membership.organisation
    assert stored.created_by == user
    assert stored.hostname == "lemans"
    assert stored.rules_version == rules.RULES_VERSION


def test_retry_with_the_same_key_and_body_returns_the_same_assessment(
    api: APIClient, lemans: dict[str, Any]
) -> None:
    headers = {"HTTP_IDEMPOTENCY_KEY": "build-4711"}
    first = api.post(ASSESSMENTS, lemans, format="json", **headers)
    retry = api.post(ASSESSMENTS, lemans, format="json", **headers)

    assert (first.status_code, retry.status_code) == (201, 200)
    assert retry.json()["id"] == first.json()["id"]
    # Same bytes too: the stored result comes back in the contract's key order.
    assert retry.content == first.content
    assert Assessment.objects.count() == 1


def test_same_key_with_another_body_is_a_conflict(api: APIClient, lemans: dict[str, Any]) -> None:
    headers = {"HTTP_IDEMPOTENCY_KEY": "build-4712"}
    api.post(ASSESSMENTS, lemans, format="json", **headers)
    changed = copy.deepcopy(lemans)
    changed["server"]["cpus"] = 16

    response = api.post(ASSESSMENTS, changed, format="json", **headers)

    assert response.status_code == 409
    assert response.json()["code"] == "conflict"
    assert Assessment.objects.count() == 1


def test_keys_are_per_organisation(
    api: APIClient, outsider_api: APIClient, lemans: dict[str, Any]
) -> None:
    headers = {"HTTP_IDEMPOTENCY_KEY": "shared-key"}
    mine = api.post(ASSESSMENTS, lemans, format="json", **headers)
    theirs = outsider_api.post(ASSESSMENTS, lemans, format="json", **headers)

    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert mine.json()["id"] != theirs.json()["id"]


@pytest.mark.parametrize("key", ["", "x" * 256, "bad key", "naïve"])
def test_a_malformed_idempotency_key_is_refused_by_name(
    api: APIClient, lemans: dict[str, Any], key: str
) -> None:
    response = api.post(ASSESSMENTS, lemans, format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert response.status_code == 400
    assert response.json()["errors"] == {"Idempotency-Key": [KEY_MESSAGE]}
    assert not Assessment.objects.exists()


def test_bad_inventory_is_400_with_every_problem_by_path(
    api: APIClient, lemans: dict[str, Any]
) -> None:
    lemans["storage"][1]["mount"] = "raid5"
    lemans["server"]["cpus"] = 0
    lemans["workload"]["colour"] = "blue"

    response = api.post(ASSESSMENTS, lemans, format="json")

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["detail"] == "The inventory breaks the contract (3 problems)."
    assert body["errors"] == {
        "server.cpus": ["must be between 1 and 4096"],
        "storage[1].mount": [
            "must be an absolute path: /saswork of [A-Za-z0-9/_.-], or for Windows a drive path "
            "(D:\\saswork) or a UNC path (\\\\server\\share) of [A-Za-z0-9_.$-]"
        ],
        "workload.colour": ["unknown field"],
    }
    assert not Assessment.objects.exists()


def test_a_body_that_is_not_an_object_is_reported_at_the_root(api: APIClient) -> None:
    response = api.post(ASSESSMENTS, [1, 2], format="json")

    assert response.status_code == 400
    assert response.json()["errors"] == {"$": ["must be an object"]}


def test_a_user_without_organisation_may_not_store(db: None, lemans: dict[str, Any]) -> None:
    loner = User.objects.create_user("loner")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=loner).key}")

    response = client.post(ASSESSMENTS, lemans, format="json")

    assert response.status_code == 403
    assert response.json()["detail"] == "You belong to no organisation."


def test_list_is_paginated_newest_first_and_scoped(
    api: APIClient, outsider_api: APIClient, lemans: dict[str, Any], prime: dict[str, Any]
) -> None:
    first = api.post(ASSESSMENTS, lemans, format="json").json()
    second = api.post(ASSESSMENTS, prime, format="json").json()
    outsider_api.post(ASSESSMENTS, lemans, format="json")

    body = api.get(ASSESSMENTS).json()

    assert body["count"] == 2
    assert (body["next"], body["previous"]) == (None, None)
    assert [item["id"] for item in body["results"]] == [second["id"], first["id"]]
    item = body["results"][1]
    assert item["url"] == first["url"]
    assert item["hostname"] == "lemans"
    assert item["created_by"] == "alice"
    assert item["rules_version"] == rules.RULES_VERSION
    assert "result" not in item


def test_list_filters_by_part_of_the_hostname(
    api: APIClient, lemans: dict[str, Any], prime: dict[str, Any]
) -> None:
    api.post(ASSESSMENTS, lemans, format="json")
    api.post(ASSESSMENTS, prime, format="json")

    body = api.get(ASSESSMENTS, {"hostname": "LEMA"}).json()

    assert [item["hostname"] for item in body["results"]] == ["lemans"]


def test_list_pages_hold_the_configured_number(
    api: APIClient, lemans: dict[str, Any], org: Organisation
) -> None:
    result = rules.advise_inventory(rules.inventory_from(lemans))
    Assessment.objects.bulk_create(
        assessment_from_result(result, organisation=org, request_hash="") for _ in range(27)
    )

    page1 = api.get(ASSESSMENTS).json()
    page2 = api.get(ASSESSMENTS, {"page": 2}).json()
    beyond = api.get(ASSESSMENTS, {"page": 3})

    assert (page1["count"], len(page1["results"]), len(page2["results"])) == (27, 25, 2)
    assert page1["next"].endswith("/api/v1/assessments/?page=2")
    assert beyond.status_code == 404
    assert beyond.json()["code"] == "not_found"


def test_detail_is_the_stored_result_in_the_create_order(
    api: APIClient, stored: dict[str, Any]
) -> None:
    response = api.get(detail_url(stored["id"]))

    assert response.status_code == 200
    assert response.json() == stored
    assert list(response.json()) == list(stored)
    assert list(response.json()["recommendations"][0]) == list(stored["recommendations"][0])


def test_detail_of_a_missing_or_huge_id_is_404(api: APIClient) -> None:
    assert api.get(detail_url(999999)).status_code == 404
    assert api.get(detail_url(10**30)).status_code == 404


OWNED_PATHS = ("", "artifacts/sasv9_append.cfg", "artifacts/recommendations.json", "bundle.zip")


@pytest.mark.parametrize("suffix", OWNED_PATHS)
def test_an_outsider_gets_404_on_every_assessment_url(
    api: APIClient, outsider_api: APIClient, stored: dict[str, Any], suffix: str
) -> None:
    url = detail_url(stored["id"]) + suffix

    assert api.get(url).status_code == 200
    response = outsider_api.get(url)
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "Not found.", "errors": {}}


def test_an_outsider_neither_lists_nor_retries_into_others_assessments(
    api: APIClient, outsider_api: APIClient, lemans: dict[str, Any]
) -> None:
    api.post(ASSESSMENTS, lemans, format="json", HTTP_IDEMPOTENCY_KEY="k1")

    assert outsider_api.get(ASSESSMENTS).json()["count"] == 0
    retry = outsider_api.post(ASSESSMENTS, lemans, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert retry.status_code == 201


def test_a_member_of_the_same_organisation_sees_it(
    stored: dict[str, Any], org: Organisation
) -> None:
    colleague = make_member("bob", org)
    client = APIClient()
    client.force_authenticate(colleague)

    assert client.get(detail_url(stored["id"])).json()["id"] == stored["id"]


@pytest.mark.parametrize("page", ["", "x", "-1", "0", "1.5", "\u0661"])
def test_a_page_that_is_not_a_whole_number_is_refused_naming_it(api: APIClient, page: str) -> None:
    response = api.get("/api/v1/assessments/", {"page": page})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["page"]
