"""The result page, the list and the comparison in Debian's Chromium: the page leads with
the largest measured effects, per-device repeats expand to their list, the name is edited
in place (htmx), two assessments are ticked on the list and compared older first. Each
page is checked by axe-core and photographed at laptop and phone width (check_page)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from tests.browser import check_page, chromium_tab, log_in
from tests.conftest import example

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(30_000) as tab:
        yield tab


def test_the_result_page_leads_and_the_name_is_edited_in_place(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    smt8, _ = assessment_create(user=member, document=example("power-smt8-spds53"))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/assessments/{smt8.pk}/")
    lead = page.locator("section.lead")
    expect(lead.locator("ol.top-changes li").first).to_contain_text("WORK=/saswork")
    expect(lead).to_contain_text("High 1 warning")
    check_page(page, "result-lead")

    repeat = page.locator("details.setting", has=page.get_by_text("× 13 devices"))
    expect(repeat).to_have_count(1)
    repeat.locator(":scope > summary").click()  # not the "why?" inside
    expect(repeat.locator("ul.repeats li")).to_have_count(13)

    page.evaluate("window.notReloaded = true")
    page.get_by_text("Edit name").click()
    page.get_by_label("Assessment name").fill("")
    page.get_by_role("button", name="Save name").click()
    expect(page.locator("#rename-error")).to_have_text(
        "Assessment name: write a name; it cannot be empty."
    )
    page.get_by_label("Assessment name").fill("POWER10 warehouse, month end")
    page.get_by_role("button", name="Save name").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("POWER10 warehouse, month end")
    expect(page).to_have_title(re.compile(r"^POWER10 warehouse, month end · "))
    assert page.evaluate("window.notReloaded") is True  # swapped in place, not reloaded
    check_page(page, "result-renamed")


def test_two_ticked_on_the_list_are_compared_older_first(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    lemans = example("lemans-aix53-etl")
    older, _ = assessment_create(user=member, document=lemans)
    bigger = {**lemans, "name": "lemans with 32 GB", "server": {**lemans["server"], "ram_gb": 32}}
    newer, _ = assessment_create(user=member, document=bigger)
    base = live_server.url
    log_in(page, base)
    expect(page.locator("td.num .badge.low").first).to_contain_text("low")
    page.get_by_label(re.compile(r"^Select lemans with 32 GB")).check()
    page.get_by_role("button", name="Compare selected").click()
    expect(page.locator(".messages")).to_contain_text("tick exactly two assessments")
    page.reload()  # the message is shown once
    page.get_by_label(re.compile(r"^Select lemans with 32 GB")).check()
    page.get_by_label(re.compile(r"^Select lemans ETL")).check()
    check_page(page, "list-compare")
    page.get_by_role("button", name="Compare selected").click()
    page.wait_for_url(re.compile(rf"/assessments/{older.pk}/compare/{newer.pk}/$"))
    table = page.locator("table.settings-table")
    expect(table.locator("tbody tr", has_text="MEMSIZE")).to_contain_text("8G → 16G")
    check_page(page, "compare-by-setting")

    page.get_by_role("link", name="Swap: newer first").click()
    page.wait_for_url(re.compile(r"\?swapped=1$"))
    expect(table.locator("tbody tr", has_text="MEMSIZE")).to_contain_text("16G → 8G")
