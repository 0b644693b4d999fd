"""The result page's Next steps in a real browser (the machine's Chromium): visible under
"Start here", its commands in code blocks, and axe-core finds nothing at laptop and phone
width, where a long command scrolls in its own box rather than the page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from tests.browser import chromium_tab, log_in
from tests.conftest import example
from tests.web.test_accessibility import check_both_schemes
from tests.web.test_browser import PREVIEW_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


@pytest.mark.parametrize("name", ["power-smt8-spds53", "windows-sas94"])
def test_next_steps_pass_axe(page: Any, live_server: Any, member: Any, name: str) -> None:
    from playwright.sync_api import expect

    assessment, _ = assessment_create(user=member, document=example(name))
    path = f"/assessments/{assessment.pk}/"
    log_in(page, live_server.url)
    page.goto(live_server.url + path)
    section = page.locator("section.next-steps")
    expect(section.get_by_role("heading", name="Next steps", level=2)).to_be_visible()
    expect(section.get_by_role("heading", name="Roll back", level=3)).to_be_visible()
    expect(section.locator("pre code").first).to_be_visible()
    failures = check_both_schemes(page, f"next-steps-{name}")
    assert not failures, "\n".join(failures)
