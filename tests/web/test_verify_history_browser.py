"""Verify with memory in a real browser (the machine's Chromium): a verify done on the
verify page is kept, the assessment page then says "Last verified", and the history lists
it and shows it again; axe-core finds nothing on these pages at laptop and phone width,
light and dark."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.models import Assessment, Verification
from tests.browser import chromium_tab, log_in
from tests.web.test_accessibility import check_both_schemes
from tests.web.test_browser import PREVIEW_TIMEOUT_MS
from tests.web.test_verify_page import newer_bundle, saved

__all__ = ["saved"]  # the fixture, shared with the verify page's tests

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


@pytest.fixture
def user(member: User) -> User:
    """The verify page's `saved` assessment, owned by alice of the live server's database."""
    return member


def test_a_verify_is_kept_and_shown_as_last_verified(
    page: Any, live_server: Any, saved: Assessment
) -> None:
    from playwright.sync_api import expect

    base, path = live_server.url, f"/assessments/{saved.pk}/"
    log_in(page, base, path)
    expect(page.locator("#verify-last")).to_have_count(0)

    page.get_by_role("link", name="Verify the server").click()
    page.get_by_label("Paste the newer bundle or a terminal transcript").fill(newer_bundle(saved))
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("#verify-stored")).to_contain_text("Kept")
    how = page.locator("tr.not-verified td[data-label='How to verify']").first
    expect(how).not_to_be_empty()
    failures = check_both_schemes(page, "verify-kept")
    kept = Verification.objects.get()

    page.goto(base + path)
    last = page.locator("#verify-last")
    expect(last).to_contain_text("Last verified")
    expect(last).to_contain_text("5 not compliant, 7 compliant, 12 not verified")
    failures += check_both_schemes(page, "verify-last")

    last.get_by_role("link").click()
    page.wait_for_url(f"{base}{path}verifications/")
    rows = page.locator("table.verification-history tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("alice")
    failures += check_both_schemes(page, "verify-history")

    rows.first.get_by_role("link").click()
    page.wait_for_url(f"{base}{path}verifications/{kept.pk}/")
    expect(page.locator(".badge.drift")).to_have_text("5 not compliant")
    failures += check_both_schemes(page, "verify-kept-again")
    assert not failures, "\n\n".join(failures)
