"""The API keeps each verify it answers 200 and lists an assessment's verifications
(read-only, paged, newest first); a refused verify is not kept; another organisation's
list is a 404."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from advisor.models import Verification
from tests.api.test_reading import CONFIG, verify_url
from tests.stored_results import rhel9_reading

pytestmark = pytest.mark.django_db


def list_url(pk: int) -> str:
    return f"/api/v1/assessments/{pk}/verifications/"


def test_a_verify_is_kept_and_answers_its_id(api: APIClient, stored: dict[str, Any]) -> None:
    response = api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    assert response.status_code == 200, response.content
    body = response.json()
    kept = Verification.objects.get()
    assert body["id"] == kept.pk and kept.source == "api"
    assert (kept.non_compliant, kept.compliant, kept.not_verified) == (
        body["non_compliant"], body["compliant"], body["not_verified"],
    )  # fmt: skip
    assert kept.created_by is not None and kept.created_by.username == "alice"
    unread = [r for r in body["rows"] if r["compliant"] is None]
    assert unread and all(r["how"] for r in unread)
    assert all(r["how"] is None for r in body["rows"] if r["compliant"] is not None)


@pytest.mark.parametrize(
    ("sent", "field"),
    [(rhel9_reading(), "server.os"), ("hello\n", "bundle"), ("", "bundle")],
    ids=["another-os", "nothing-read", "empty"],
)
def test_a_refused_verify_is_not_kept(
    api: APIClient, stored: dict[str, Any], sent: str, field: str
) -> None:
    response = api.post(verify_url(stored["id"]), sent, content_type="text/plain")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not Verification.objects.exists()


def test_the_list_is_paged_newest_first(api: APIClient, stored: dict[str, Any]) -> None:
    for _ in range(3):
        api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    ids = list(Verification.objects.values_list("pk", flat=True))
    response = api.get(list_url(stored["id"]), {"page_size": 2})
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3 and body["previous"] is None and "page=2" in body["next"]
    assert [r["id"] for r in body["results"]] == ids[:2]
    first = body["results"][0]
    assert set(first) == {
        "id", "created_at", "created_by", "source", "non_compliant", "compliant",
        "not_verified", "rules_version",
    }  # fmt: skip
    assert (first["created_by"], first["source"]) == ("alice", "api")
    assert api.get(list_url(stored["id"]), {"page": 3}).status_code == 404
    assert api.get(list_url(stored["id"]), {"page": "x"}).json()["errors"] == {
        "page": ["must be a whole number from 1, not 'x'"]
    }


def test_an_outsider_gets_404(
    api: APIClient, outsider_api: APIClient, stored: dict[str, Any]
) -> None:
    api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain")
    assert outsider_api.get(list_url(stored["id"])).status_code == 404
    assert (
        outsider_api.post(verify_url(stored["id"]), CONFIG, content_type="text/plain").status_code
        == 404
    )
    assert Verification.objects.count() == 1


def test_the_list_is_read_only(api: APIClient, stored: dict[str, Any]) -> None:
    assert api.post(list_url(stored["id"]), {}, format="json").status_code == 405
