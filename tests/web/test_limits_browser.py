"""Limits answered in the page, in Debian's Chromium: a 9 MB paste refused before anything
is sent (the text kept, the message read out), the API token page, and the API docs
loading with no Content-Security-Policy refusal and no failed request at all. axe-core at
laptop and phone width in the light and the dark scheme (tests/web/test_accessibility.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from tests.browser import chromium_tab, log_in
from tests.web.test_accessibility import admin_member, check_both_schemes

__all__ = ["admin_member"]  # the fixture, shared with the accessibility tests
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
START = "/assessments/from-server/"
NINE_MB = 9 * 1024 * 1024 + 1024 * 1024 // 10  # bytes: "9.1 MB"


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(60_000) as tab:
        yield tab


class Traffic:
    """What a tab asked of the network, what failed, and every Content-Security-Policy
    refusal the console reports (loads from other servers included)."""

    def __init__(self, tab: Any) -> None:
        self.posts: list[str] = []
        self.failed: list[str] = []
        self.refused: list[str] = []
        tab.on("request", self._request)
        tab.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        tab.on("response", self._response)
        tab.on("console", self._console)

    def _request(self, request: Any) -> None:
        if request.method != "GET":
            self.posts.append(f"{request.method} {request.url}")

    def _response(self, response: Any) -> None:
        if response.status >= 400:
            self.failed.append(f"{response.url} {response.status}")

    def _console(self, message: Any) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.refused.append(message.text)


def test_a_9_mb_paste_is_refused_before_it_is_sent(
    page: Any, live_server: Any, member: User
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, START)
    traffic = Traffic(page)
    box = page.get_by_label("Paste the bundle, a terminal transcript or a JSON inventory")
    box.evaluate("(el, n) => { el.value = '$ lscpu\\n' + 'x'.repeat(n - 8); }", NINE_MB)
    page.get_by_role("button", name="Read it").click()
    errors = page.locator("#reading-errors")
    expect(errors).to_contain_text("The paste is 9.1 MB; the limit is 8 MB.")
    expect(errors).to_contain_text("Upload the collector's bundle file instead")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_be_focused()
    assert box.evaluate("el => el.value.length") == NINE_MB  # the text is kept
    assert errors.get_attribute("role") == "alert"
    assert "reading-errors" in (box.get_attribute("aria-describedby") or "")
    assert traffic.posts == []  # nothing was sent
    # The refusal as it stands, checked with a short text in the box: a screenshot of a
    # box holding 9 MB takes longer than any test should wait.
    box.evaluate("el => { el.value = '$ lscpu'; }")
    failures = check_both_schemes(page, "limits-paste-refused")
    # Under the limit again: the refusal goes and the form is sent.
    box.evaluate("el => { el.value = 'hello'; }")
    with page.expect_request(lambda r: r.method == "POST"):
        page.get_by_role("button", name="Read it").click()
    assert not failures, "\n\n".join(failures)


def test_the_api_token_page(page: Any, live_server: Any, admin_member: User) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    page.get_by_role("link", name="API tokens").click()  # the menu is open at laptop width
    failures = check_both_schemes(page, "limits-api-tokens-none")
    page.get_by_role("button", name="Create a token").click()
    expect(page.get_by_text("it is shown only this once")).to_be_visible()
    key = page.locator("#new-token").inner_text()
    assert len(key) == 40
    failures += check_both_schemes(page, "limits-api-tokens-new")
    page.goto(live_server.url + "/api-tokens/")
    expect(page.get_by_text(f"…{key[-4:]}")).to_be_visible()
    assert key not in page.content()
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize(
    ("path", "ready"),
    [
        ("/api/docs/", ".swagger-ui .opblock-summary-path"),
        ("/api/redoc/", "h2:has-text('Upload a fleet')"),
    ],
)
def test_the_docs_load_with_no_refusal_and_no_failed_request(
    page: Any, live_server: Any, member: User, path: str, ready: str
) -> None:
    log_in(page, live_server.url)
    traffic = Traffic(page)
    page.goto(live_server.url + path)
    page.locator(ready).first.wait_for()
    page.wait_for_load_state("networkidle")
    assert traffic.refused == []
    # Chromium sometimes cancels its own favicon fetch while ReDoc renders (ERR_ABORTED, no
    # answer at all); a favicon that failed to load would be a 404 answer, which counts.
    cancelled = [f for f in traffic.failed if "/favicon.svg" in f and f.endswith("ERR_ABORTED")]
    assert [f for f in traffic.failed if f not in cancelled] == []
    # Reached from the menu of every page.
    page.goto(live_server.url + START)
    link = "Try the API" if path == "/api/docs/" else "API reference"
    assert page.get_by_role("link", name=link).get_attribute("href") == path


def test_without_javascript_the_server_answers_on_the_start_page(
    live_server: Any, member: User
) -> None:
    """The same paste sent with JavaScript off: the middleware refuses the body unread and
    the start page answers 413 with its form, the limit in MB."""
    from playwright.sync_api import expect

    with chromium_tab(60_000, java_script_enabled=False) as page:
        log_in(page, live_server.url, START)
        page.locator("#id_text").fill("x" * NINE_MB)
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.get_by_role("button", name="Read it").click()
        assert answer.value.status == 413
        expect(page.locator("#reading-errors")).to_contain_text(
            "What was sent is 9.1 MB; the limit is 8 MB."
        )


def test_the_server_refusal_passes_axe(page: Any, live_server: Any, member: User) -> None:
    """The server's 413 page, reached as a browser without the check would reach it (axe
    needs scripts, so the check is taken off the box rather than scripts turned off)."""
    from playwright.sync_api import expect

    log_in(page, live_server.url, START)
    box = page.locator("#id_text")
    box.fill("x" * NINE_MB)
    box.evaluate("el => el.removeAttribute('data-max-bytes')")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Read it").click()
    assert answer.value.status == 413
    expect(page.locator("#reading-errors")).to_contain_text("the limit is 8 MB")
    failures = check_both_schemes(page, "limits-paste-refused-by-server")
    assert not failures, "\n\n".join(failures)


def test_a_member_who_is_not_an_admin_gets_a_403_page(
    page: Any, live_server: Any, member: User
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    expect(page.get_by_role("link", name="API tokens")).to_have_count(0)
    response = page.goto(live_server.url + "/api-tokens/")
    assert response is not None and response.status == 403
    expect(page.get_by_role("alert")).to_contain_text(
        "API tokens are made by the organisation's admins."
    )
    failures = check_both_schemes(page, "limits-api-tokens-403")
    assert not failures, "\n\n".join(failures)
