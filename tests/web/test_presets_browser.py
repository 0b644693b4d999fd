"""Workload presets in Debian's Chromium: a preset chosen and saved with two typed values
(sessions and the largest table) stores the preset's mix; "Set the mix yourself" opens on
the preset's shares; a blank form shows no error or red total, and typing into one input
marks no other; each page checked with axe-core at laptop and phone width, light and dark."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from advisor.models import Assessment
from tests.browser import chromium_tab, log_in
from tests.web.test_accessibility import check_both_schemes

TIMEOUT_MS = 30_000

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS) as tab:
        yield tab


def nothing_marked(page: Any) -> None:
    from playwright.sync_api import expect

    form = page.locator("#inventory-form")
    expect(form.locator(".field.has-error")).to_have_count(0)
    expect(form.locator(".errors p")).to_have_count(0)
    expect(form.locator("[aria-invalid='true']")).to_have_count(0)
    expect(page.locator("#mix-total-line.off")).to_have_count(0)


def test_an_untouched_form_shows_no_error(page: Any, live_server: Any, member: Any) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, "/assessments/new/")
    nothing_marked(page)
    expect(page.get_by_label("Kind of work")).to_have_value("mixed")
    assert not check_both_schemes(page, "presets-blank-form")
    # Typing one input asks the preview, which marks nothing the user has not touched.
    page.get_by_label("Host name").fill("sasprod01")
    expect(page.locator("#preview .problems-head")).to_be_visible()
    nothing_marked(page)
    page.get_by_label("Physical cores").fill("0")
    expect(page.locator("#id_cores-errors")).not_to_be_empty()
    expect(page.locator("#inventory-form .errors p")).to_have_count(1)


def test_a_preset_saved_with_two_typed_values_stores_its_mix(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, "/assessments/new/?example=linux-rhel9-sas94")
    page.get_by_label("Kind of work").select_option(label="Analytics / statistics")
    page.get_by_label("Peak SAS sessions").fill("12")
    page.get_by_label("Largest table (GB)").fill("50")
    page.locator("#mix-details > summary").click()
    expect(page.get_by_label("Analytics (%)")).to_have_value("60")
    expect(page.locator("#mix-total")).to_have_text("100")
    nothing_marked(page)
    assert not check_both_schemes(page, "presets-analytics")
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    workload = Assessment.objects.get().inventory["workload"]
    shares = {key: share for key, share in workload["mix"].items() if share}
    assert shares == {"etl": 0.2, "summary": 0.2, "analytics": 0.6}
    assert (workload["concurrent_sessions"], workload["largest_table_gb"]) == (12, 50)


def test_a_share_typed_by_hand_makes_the_mix_ones_own(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url, "/assessments/new/")
    page.locator("#mix-details > summary").click()
    page.get_by_label("ETL, sort, merge (%)").fill("50")
    expect(page.get_by_label("Kind of work")).to_have_value("custom")
    expect(page.locator("#mix-total")).to_have_text("110")
    page.get_by_label("Kind of work").select_option("etl")
    expect(page.get_by_label("ETL, sort, merge (%)")).to_have_value("100")
    expect(page.get_by_label("Summaries (%)")).to_have_value("")
    expect(page.locator("#mix-total")).to_have_text("100")
