"""The assessment page's result part comes from the cache: rendered once, the same bytes as
without the cache, behind the organisation check, and the page still served when the
cache is down. Per-user and changing parts (the name, the CSRF token, the compare list)
are rendered on every request."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import reverse

from advisor.assessments import presenting
from advisor.assessments.services import assessment_create
from advisor.core import cache as failopen
from advisor.models import Assessment, Organisation
from tests.conftest import make_member, unreachable_redis_caches
from tests.web.test_current_table import CURRENT

HTMX = {"HTTP_HX_REQUEST": "true"}
SETTING = "assessments/_setting.html"  # included once per setting: the costly part
TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def read(user: User, lemans: dict[str, Any]) -> Assessment:
    """An assessment with current values: its part of the page names the host."""
    assessment, _ = assessment_create(user=user, document={**lemans, "current": CURRENT})
    return assessment


def page(client: Client, assessment: Assessment, query: str = "", **extra: Any) -> HttpResponse:
    response: HttpResponse = client.get(
        reverse("web:assessment", args=[assessment.pk]) + query, **extra
    )
    return response


def text(response: HttpResponse) -> str:
    """The page without its CSRF tokens, which are masked afresh on every render."""
    return TOKEN.sub(r"\1-", response.content.decode())


def rendered(response: Any) -> list[str]:
    return [t.name for t in response.templates]


def uncached(client: Client, assessment: Assessment, query: str = "") -> str:
    with override_settings(DETAIL_CACHE_SECONDS=0):
        return text(page(client, assessment, query))


def test_the_second_get_renders_from_the_cache(
    client_in: Client, stored: Assessment, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    groups = presenting.groups
    monkeypatch.setattr(presenting, "groups", lambda result: calls.append(1) or groups(result))
    first, second = page(client_in, stored), page(client_in, stored)

    assert first.status_code == second.status_code == 200
    assert SETTING in rendered(first)
    assert SETTING not in rendered(second)  # no setting rendered again
    assert "assessments/detail.html" in rendered(second)
    assert len(calls) == 1  # nor the result presented again


@pytest.mark.parametrize("query", ["", "?changes=1"])
def test_the_page_is_the_same_with_and_without_the_cache(
    client_in: Client, read: Assessment, query: str
) -> None:
    plain = uncached(client_in, read, query)
    first, second = text(page(client_in, read, query)), text(page(client_in, read, query))

    assert first == plain
    assert second == plain
    assert "(current values read: collector 2026.11.4 bundle)" in second


def test_with_the_cache_off_it_is_neither_read_nor_written(
    client_in: Client, stored: Assessment
) -> None:
    # DETAIL_CACHE_SECONDS=0 renders the result's part even when the cache holds it (a
    # server started with 0 beside one with the cache, sharing Redis), and keeps nothing.
    page(client_in, stored)
    with override_settings(DETAIL_CACHE_SECONDS=0):
        kept_but_off = page(client_in, stored)
        cache.clear()
        page(client_in, stored)

    assert SETTING in rendered(kept_but_off)
    assert SETTING in rendered(page(client_in, stored))  # nothing was kept while off


def test_the_table_variants_are_kept_apart(client_in: Client, stored: Assessment) -> None:
    every, changes = text(page(client_in, stored)), text(page(client_in, stored, "?changes=1"))

    assert every != changes
    assert text(page(client_in, stored)) == every
    assert text(page(client_in, stored, "?changes=1")) == changes


def test_another_organisation_gets_404_when_the_page_is_cached(
    client_in: Client, outsider_client: Client, stored: Assessment
) -> None:
    assert page(client_in, stored).status_code == 200

    assert page(outsider_client, stored).status_code == 404
    assert page(outsider_client, stored, **HTMX).status_code == 404


def test_the_user_and_what_changes_are_rendered_per_request(
    client_in: Client, stored: Assessment, org: Organisation, lemans: dict[str, Any]
) -> None:
    alice = text(page(client_in, stored))
    bob = make_member("bob", org)
    browser = Client()
    browser.force_login(bob)
    later, _ = assessment_create(user=bob, document={**lemans, "name": "stored later"})
    seen_by_bob = page(browser, stored)

    assert "Log out alice" in alice
    assert "Log out bob" in seen_by_bob.content.decode()
    assert "Log out alice" not in seen_by_bob.content.decode()
    assert f'(#{later.pk})"></option>' in seen_by_bob.content.decode()  # the compare picker
    assert SETTING not in rendered(seen_by_bob)


def test_a_renamed_host_is_rendered_again(client_in: Client, read: Assessment) -> None:
    page(client_in, read)
    Assessment.objects.filter(pk=read.pk).update(hostname="renamed-in-the-admin")

    again = text(page(client_in, read))
    assert "set these lines on renamed-in-the-admin" in again
    assert again == uncached(client_in, read)


def test_htmx_still_gets_only_the_table(client_in: Client, stored: Assessment) -> None:
    page(client_in, stored)
    fragment = page(client_in, stored, "?changes=1", **HTMX).content.decode()

    assert fragment.lstrip().startswith('<div id="current-table"')
    assert "<html" not in fragment
    assert 'id="filter-changes"' in fragment


@pytest.fixture
def redis_down(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The fail-open cache pointed at a port nothing listens on (tests/api/test_redis_down.py)."""
    monkeypatch.setattr(failopen.BREAKER, "down_until", 0.0)
    monkeypatch.setattr(failopen.BREAKER, "warned", False)
    _, caches = unreachable_redis_caches()
    with override_settings(CACHES=caches):
        yield


def test_a_cache_that_is_down_still_serves_the_page(
    client_in: Client, read: Assessment, redis_down: None
) -> None:
    first, second = page(client_in, read), page(client_in, read)

    assert first.status_code == second.status_code == 200
    assert failopen.is_down()
    assert SETTING in rendered(second)  # nothing kept: rendered again
    assert text(second) == uncached(client_in, read)
