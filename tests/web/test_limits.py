"""Limits answered in the page: a paste over the bundle limit refused on the start page
itself (413, the limit in MB, the form shown again) without its body being parsed; the
site's "too large" page elsewhere, the API's JSON envelope unchanged; the API token page
for an organisation's admins; the favicon; the API docs pages loading nothing from
another server."""

from __future__ import annotations

import re
from typing import Any
from unittest import mock
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.http.multipartparser import MultiPartParser
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from advisor.assessments import reading
from advisor.audit.models import AuditEvent
from advisor.models import Membership

pytestmark = pytest.mark.django_db
START = reverse("web:from-server")
TOKENS = reverse("api-tokens")
MB = 1024 * 1024
NINE_MB = "$ lscpu\n" + "x" * (9 * MB + MB // 10)  # 9.1 MB


def test_a_paste_over_the_limit_is_refused_before_its_body_is_parsed(
    client_in: Client,
) -> None:
    parse = mock.patch.object(MultiPartParser, "parse", side_effect=AssertionError("parsed"))
    draft = mock.patch.object(reading, "bundle_draft", side_effect=AssertionError("read"))
    with parse as parsed, draft as read:
        response = client_in.post(START, {"text": NINE_MB})
    assert parsed.call_count == read.call_count == 0
    page = response.content.decode()
    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "What was sent is 9.1 MB; the limit is 8 MB." in page
    assert "paste fewer sections" in page
    # The start page itself: its steps, its form and the refusal where its errors go.
    assert "Download the collector" in page
    assert 'name="text"' in page and 'data-max-bytes="8388608"' in page
    alert = re.search(r'<div id="reading-errors"[^>]*role="alert">(.*?)</div>', page, re.S)
    assert alert and "the limit is 8 MB" in alert.group(1)


def test_a_paste_over_the_limit_within_the_body_limit_says_the_paste_in_mb(
    client_in: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "MAX_BYTES", 4 * MB)  # below the body's: the form's check
    response = client_in.post(START, {"text": "$ lscpu\n" + "x" * (5 * MB + MB // 10)})
    page = response.content.decode()
    assert response.status_code == 413
    assert "The paste is 5.1 MB; the limit is 4 MB." in page
    assert "x" * 1000 in page  # the text is kept in the box


def test_another_page_answers_a_body_over_its_limit_in_the_site_layout(
    client_in: Client, settings: Any
) -> None:
    response = client_in.post(reverse("web:new"), {"name": "x" * (settings.MAX_REQUEST_BYTES)})
    page = response.content.decode()
    assert response.status_code == 413
    assert "<h1>This was too large to send</h1>" in page
    assert "the limit for this page is 1 MB" in page
    assert "advisor/app.css" in page  # the site's layout


def test_the_api_still_answers_a_body_over_its_limit_in_json(api: APIClient, settings: Any) -> None:
    body = b"{" + b" " * settings.MAX_REQUEST_BYTES + b"}"
    response = api.post("/api/v1/assessments/", body, content_type="application/json")
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


@pytest.fixture
def admin_client(client_in: Client, user: User) -> Client:
    Membership.objects.filter(user=user).update(is_admin=True)
    return client_in


def test_an_admin_creates_a_token_shown_once_that_works_as_bearer(
    admin_client: Client, user: User
) -> None:
    assert "You have no token." in admin_client.get(TOKENS).content.decode()
    created = admin_client.post(TOKENS, {"action": "create"})
    key = Token.objects.get(user=user).key
    assert created.status_code == 200
    assert key in created.content.decode()
    assert "shown only this once" in created.content.decode()
    again = admin_client.get(TOKENS).content.decode()
    assert key not in again and f"…{key[-4:]}" in again
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert bearer.get("/api/v1/assessments/").status_code == 200
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert "api_token.create" in actions
    assert not AuditEvent.objects.filter(changes__icontains=key).exists()


def test_a_new_token_replaces_the_old_and_revoking_ends_it(
    admin_client: Client, user: User
) -> None:
    admin_client.post(TOKENS, {"action": "create"})
    first = Token.objects.get(user=user).key
    admin_client.post(TOKENS, {"action": "create"})
    second = Token.objects.get(user=user).key
    assert first != second
    revoked = admin_client.post(TOKENS, {"action": "revoke"}, follow=True)
    assert "Your API token is revoked" in revoked.content.decode()
    assert not Token.objects.filter(user=user).exists()
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {second}")
    assert bearer.get("/api/v1/assessments/").status_code == 401


def test_a_member_who_is_not_an_admin_gets_a_clear_403(client_in: Client, user: User) -> None:
    for response in (client_in.get(TOKENS), client_in.post(TOKENS, {"action": "create"})):
        page = response.content.decode()
        assert response.status_code == 403
        assert "API tokens are made by the organisation&#x27;s admins." in page
        assert "advisor/app.css" in page
    assert not Token.objects.filter(user=user).exists()
    assert "API tokens" not in client_in.get(START).content.decode()


def test_the_menu_links_the_api_docs_and_an_admin_the_token_page(admin_client: Client) -> None:
    page = admin_client.get(START).content.decode()
    for url in (reverse("api-redoc"), reverse("api-docs"), TOKENS):
        assert f'href="{url}"' in page


def test_the_favicon(client: Client) -> None:
    page = client.get(reverse("login")).content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', page)
    assert icon and finders.find(icon.group(1))
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == f"/static/{icon.group(1)}"


LINK = re.compile(r'\b(?:src|href)="([^"]*)"', re.IGNORECASE)


def test_the_docs_pages_name_no_other_host(client_in: Client) -> None:
    """Every src and href of both pages, links included, not only what they load."""
    pages = {page: client_in.get(page) for page in ("/api/docs/", "/api/redoc/")}
    assert {page: r.status_code for page, r in pages.items()} == dict.fromkeys(pages, 200)
    hosts = {
        (page, urlsplit(link).netloc)
        for page, response in pages.items()
        for link in LINK.findall(response.content.decode())
    }
    assert hosts == {(page, "") for page in pages}


def test_the_redoc_script_fetches_nothing_from_another_server(client: Client) -> None:
    response = client.get(reverse("api-redoc-bundle"))
    script = b"".join(response.streaming_content) if response.streaming else response.content
    assert response.status_code == 200
    assert b"cdn.redoc.ly" not in script
    assert b'src:"/static/advisor/redoc-logo.svg"' in script
    assert finders.find("advisor/redoc-logo.svg")
