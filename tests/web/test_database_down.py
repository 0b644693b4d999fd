"""PostgreSQL down: the API answers 503 in its envelope with retry_after and a Retry-After
header, a page answers a plain 503 page (both used to be 500). The web form carries a
one-time key, so a retry after such an error cannot store the same assessment twice.

"Down" is every new cursor failing as psycopg fails when the server refuses connections;
the fault test in tests/faults stops a real server."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from rest_framework.authtoken.models import Token

from advisor.assessments.inventory_form import data_from_document
from advisor.models import Assessment


def _refused(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError('connection to server at "127.0.0.1", port 5432 failed')


def test_a_page_answers_a_plain_503(client_in: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    client_in.raise_request_exception = False
    with monkeypatch.context() as down:  # undone before the test database is rolled back
        down.setattr(BaseDatabaseWrapper, "_cursor", _refused)
        page = client_in.get("/")  # the session lookup itself fails

    assert page.status_code == 503
    assert page["Retry-After"] == "30"
    assert "Nothing you sent was stored" in page.content.decode()


def test_the_api_answers_503_in_its_envelope(user: User, monkeypatch: pytest.MonkeyPatch) -> None:
    token = Token.objects.create(user=user)
    api = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {token.key}")
    with monkeypatch.context() as down:
        down.setattr(BaseDatabaseWrapper, "_cursor", _refused)
        response = api.get("/api/v1/assessments/")

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "code": "unavailable",
        "detail": "The database is not reachable; try again shortly.",
        "errors": {},
        "retry_after": 30,
    }


def _form(lemans: dict[str, Any], once: str) -> dict[str, Any]:
    return {**data_from_document(lemans), "once": once}


def test_the_same_form_posted_twice_stores_one_assessment(
    client_in: Client, lemans: dict[str, Any]
) -> None:
    page = client_in.get("/assessments/new/").content.decode()
    once = page.split('name="once" value="', 1)[1][:32]

    first = client_in.post("/assessments/new/", _form(lemans, once))
    again = client_in.post("/assessments/new/", _form(lemans, once))

    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert Assessment.objects.count() == 1


def test_the_key_kept_after_editing_stores_a_new_assessment(
    client_in: Client, lemans: dict[str, Any]
) -> None:
    once = "0" * 32
    client_in.post("/assessments/new/", _form(lemans, once))
    edited = _form({**lemans, "name": "Edited after going back"}, once)

    response = client_in.post("/assessments/new/", edited)

    assert response.status_code == 302
    assert Assessment.objects.count() == 2


def test_a_form_with_errors_keeps_its_key(client_in: Client, lemans: dict[str, Any]) -> None:
    once = "a" * 32
    broken = {**_form(lemans, once), "cpus": "-1"}

    response = client_in.post("/assessments/new/", broken)

    assert response.status_code == 400
    assert f'name="once" value="{once}"' in response.content.decode()
