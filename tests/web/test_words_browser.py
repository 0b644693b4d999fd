"""The "why?" expander in Chromium: a setting reads in words (the paper by author and
year, no line reference); opened, its "why?" shows the rule's own text with the papers'
lines and the full references. axe-core checks the page with both open (check_page)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from tests.browser import SCREENSHOTS, check_page, chromium_tab, log_in
from tests.conftest import example

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(30_000) as tab:
        yield tab


def test_why_opens_on_the_lines_the_words_leave_out(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    lemans, _ = assessment_create(user=member, document=example("lemans-aix53-etl"))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/assessments/{lemans.pk}/")
    setting = page.locator(
        "details.setting", has=page.locator("summary code", has_text="CPUCOUNT=8")
    )
    expect(setting).to_have_count(1)
    setting.locator(":scope > summary").click()
    said = setting.locator(":scope > dl")
    expect(said).to_contain_text("Chew 2002")
    expect(said.locator(":scope > dd").first).not_to_contain_text("l.96")
    why = setting.locator("details.why")
    expect(why.locator("p").first).not_to_be_visible()
    why.locator("summary").click()
    expect(why).to_contain_text("chew")
    expect(why).to_contain_text("l.96")
    expect(why).to_contain_text("Pushing the Envelope")
    setting.screenshot(path=str(SCREENSHOTS / "result-why-setting.png"))
    check_page(page, "result-why")
