"""Cached token authentication: fewer queries, and changes are honoured at once; the
admin shows a token by a prefix of its key only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import User
from django.core.cache import caches
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from advisor.assessments import advice
from advisor.audit.models import AuditEvent
from advisor.models import Organisation
from tests.api.conftest import ADVICE, ASSESSMENTS, BROWSER_ACCEPT, detail_url


def test_a_known_token_costs_no_query(
    api: APIClient, lemans: dict[str, Any], django_assert_num_queries: Any
) -> None:
    caches[advice.MEMO].clear()
    api.post(ADVICE, lemans, format="json")  # first: looks the token up, runs the rules

    with django_assert_num_queries(0):
        response = api.post(ADVICE, lemans, format="json")

    assert response.status_code == 200


def test_a_deleted_token_stops_working_at_once(api: APIClient, user: User) -> None:
    assert api.get(ASSESSMENTS).status_code == 200

    Token.objects.filter(user=user).delete()

    assert api.get(ASSESSMENTS).status_code == 401


def test_a_deactivated_user_is_refused_at_once(api: APIClient, user: User) -> None:
    assert api.get(ASSESSMENTS).status_code == 200

    user.is_active = False
    user.save()

    response = api.get(ASSESSMENTS)
    assert response.status_code == 401
    assert response.json()["detail"] == "User inactive or deleted."


def test_a_move_to_another_organisation_takes_effect_at_once(
    api: APIClient, user: User, stored: dict[str, Any], other_org: Organisation
) -> None:
    assert api.get(detail_url(stored["id"])).status_code == 200

    user.membership.organisation = other_org
    user.membership.save()

    assert api.get(detail_url(stored["id"])).status_code == 404


def test_the_memo_answers_a_repeat_with_the_same_bytes(
    api: APIClient, lemans: dict[str, Any], monkeypatch: Any
) -> None:
    caches[advice.MEMO].clear()
    first = api.post(ADVICE, lemans, format="json")

    def fail(document: Any) -> Any:
        raise AssertionError("the rules ran again")

    monkeypatch.setattr(advice.rules, "advise", fail)
    again = api.post(ADVICE, lemans, format="json")

    assert again.content == first.content


def test_the_memo_keeps_the_32_most_recently_used_answers() -> None:
    memo = caches[advice.MEMO]
    memo.clear()
    for n in range(32):
        memo.set(str(n), b"answer %d" % n)
    assert memo.get("0") == b"answer 0"  # used again: now the most recent

    memo.set("32", b"answer 32")

    assert memo.get("1") is None  # the least recently used, dropped
    assert all(memo.get(str(n)) is not None for n in (0, *range(2, 33)))


def test_a_browser_gets_advice_as_json(api: APIClient, lemans: dict[str, Any]) -> None:
    # JSON only: no browsable HTML page, whatever the Accept header puts first.
    response = api.post(ADVICE, lemans, format="json", HTTP_ACCEPT=BROWSER_ACCEPT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "sasv9_append.cfg" in response.json()["artifacts"]


# The Django admin shows a token by a prefix of its key; the whole key once, when made.


@pytest.fixture
def staff(db: None) -> Client:
    browser = Client()
    browser.force_login(User.objects.create_superuser("root", password="pw-root-long-enough"))
    return browser


def test_the_admin_shows_no_whole_token(staff: Client, user: User) -> None:
    key = Token.objects.create(user=user).key
    pages = {
        "list": staff.get("/admin/authtoken/tokenproxy/"),
        "change": staff.get(f"/admin/authtoken/tokenproxy/{user.pk}/change/"),
        "delete": staff.get(f"/admin/authtoken/tokenproxy/{user.pk}/delete/"),
        "user's deletion": staff.get(f"/admin/auth/user/{user.pk}/delete/"),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        text = page.content.decode()
        assert key not in text and key[:12] not in text, name
    assert f"{key[:4]}…" in pages["list"].content.decode()
    assert f"{key[:4]}…" in pages["change"].content.decode()
    # No search by key: a key typed in finds nothing (the page echoes only what was typed).
    search = staff.get("/admin/authtoken/tokenproxy/", {"q": key}).content.decode()
    assert "0 results" in search and f"{key[:4]}…" not in search


def test_a_token_made_in_the_admin_is_shown_whole_once(staff: Client, user: User) -> None:
    made = staff.post("/admin/authtoken/tokenproxy/add/", {"user": user.pk}, follow=True)
    key = Token.objects.get(user=user).key
    assert key in made.content.decode()  # the page after the add: copy it now
    assert key not in staff.get("/admin/authtoken/tokenproxy/").content.decode()
    assert key not in staff.get("/admin/").content.decode()  # recent actions
    assert not LogEntry.objects.filter(object_repr__contains=key).exists()
    assert AuditEvent.objects.get(action="admin.add").target.endswith(f"(token {key[:4]}…)")


@pytest.mark.parametrize(
    "query",
    [
        "key__startswith", "key", "key__gt", "key__lt", "pk__startswith", "pk", "id",
        "user__auth_token__key__startswith", "key__regex",
    ],
)  # fmt: skip
def test_the_admin_filters_no_token_by_its_key(staff: Client, user: User, query: str) -> None:
    key = Token.objects.create(user=user).key
    page = staff.get("/admin/authtoken/tokenproxy/", {query: key[:1]})
    assert page.status_code == 400, query
    assert f"{key[:4]}…" not in page.content.decode()


def test_the_admin_sorts_tokens_by_user_and_date_only(staff: Client, user: User) -> None:
    Token.objects.create(user=user, key="f" * 40)  # older, its key last in key order
    Token.objects.create(user=User.objects.create_user("other"), key="0" * 40)
    plain = staff.get("/admin/authtoken/tokenproxy/").context["cl"]
    by_key = str(list(plain.list_display).index("prefix"))
    for order in (by_key, f"-{by_key}"):
        page = staff.get("/admin/authtoken/tokenproxy/", {"o": order})
        assert page.status_code == 200
        assert list(page.context["cl"].result_list) == list(plain.result_list), order
    assert plain.sortable_by == ("user", "created")
