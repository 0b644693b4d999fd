"""The verify page in Debian's Chromium: a bundle of another host refused on the page with
the paste kept and the "renamed" box that accepts it, and a 9 MB paste refused before
anything is sent, as on the start page. axe-core at laptop and phone width in the light
and the dark scheme (tests/web/test_accessibility.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.models import Assessment
from tests.browser import log_in
from tests.stored_results import RHEL9_2026_11_1, rhel9_reading, save_stored
from tests.web.test_accessibility import check_both_schemes
from tests.web.test_limits_browser import NINE_MB, Traffic, page

__all__ = ["page"]  # the fixture: a Chromium tab, shared with the limits tests

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
BOX = "Paste the newer bundle or a terminal transcript"


@pytest.fixture
def sasgrid(member: User) -> Assessment:
    return save_stored(member.membership.organisation, RHEL9_2026_11_1)


def verify_url(assessment: Assessment) -> str:
    return f"/assessments/{assessment.pk}/verify/"


def test_another_host_is_refused_on_the_page_and_the_renamed_box_accepts_it(
    page: Any, live_server: Any, sasgrid: Assessment
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, verify_url(sasgrid))
    box = page.get_by_label(BOX)
    text = rhel9_reading(host="web07")
    box.fill(text)
    page.get_by_role("button", name="Verify").click()
    errors = page.locator("#reading-errors")
    expect(errors).to_contain_text("The reading is of host web07")
    # Above the form, before the box it is about.
    assert errors.evaluate("el => el.closest('form') !== null")
    expect(errors).to_contain_text("the assessment of sasgrid01.example.com")
    assert box.input_value() == text  # the paste is kept
    renamed = page.get_by_label("The server was renamed since the assessment")
    expect(renamed).to_be_visible()
    failures = check_both_schemes(page, "verify-renamed-refused")
    renamed.check()
    page.get_by_role("button", name="Verify").click()
    expect(page.locator("#verify-host")).to_contain_text("the reading is of web07")
    expect(errors).to_be_empty()  # the refusal goes with the answer that verified
    assert not failures, "\n\n".join(failures)


def test_a_9_mb_paste_is_refused_before_it_is_sent(
    page: Any, live_server: Any, sasgrid: Assessment
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, verify_url(sasgrid))
    traffic = Traffic(page)
    box = page.get_by_label(BOX)
    box.evaluate("(el, n) => { el.value = '$ lscpu\\n' + 'x'.repeat(n - 8); }", NINE_MB)
    page.get_by_role("button", name="Verify").click()
    errors = page.locator("#reading-errors")
    expect(errors).to_contain_text("The paste is 9.1 MB; the limit is 8 MB.")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(box).to_be_focused()
    # The text is kept, the box names the message, read out; nothing was sent.
    kept = box.evaluate("el => [el.value.length, el.getAttribute('aria-describedby')]")
    assert (kept, errors.get_attribute("role"), traffic.posts) == (
        [NINE_MB, "reading-errors"],
        "alert",
        [],
    )
    box.fill("$ lscpu")  # a screenshot of a box holding 9 MB takes too long
    failures = check_both_schemes(page, "verify-paste-refused")
    # Under the limit the form is sent, and the server's answer replaces the refusal.
    box.fill("hello")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Verify").click()
    assert answer.value.status == 200
    expect(page.locator("#verify-result")).to_contain_text("nothing could be verified")
    expect(errors).to_be_empty()
    assert not failures, "\n\n".join(failures)
