"""The result pages of the Windows and RHEL examples fit a phone's width (390 px): nothing
makes them scroll sideways (a long reason in a "why?" or a wide table scrolls or wraps in
its own box), and axe-core finds nothing (check_page)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from tests.browser import check_page, chromium_tab, log_in
from tests.conftest import example

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(60_000) as tab:  # a tall page shot whole; CI machines are shared
        yield tab


@pytest.mark.parametrize("name", ["windows2022-refs-sas94m8", "linux-rhel9-sas94"])
def test_the_result_page_fits_a_phone(page: Any, live_server: Any, member: Any, name: str) -> None:
    saved, _ = assessment_create(user=member, document=example(name))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/assessments/{saved.pk}/")
    page.locator("details.why").first.wait_for(state="attached")
    # What a reader opens: each setting and its "why?".
    opened = "details.setting, details.why"
    page.evaluate(f"document.querySelectorAll('{opened}').forEach(d => d.open = true)")
    check_page(page, f"result-phone-{name}")
