"""Start from the server and verify it, in a real browser (the machine's Chromium).

Pastes a transcript built from real captured Linux output and a real sasv9_local.cfg
(tests/fixtures/parse), checks the form comes back filled with each value's source,
gives the workload, saves, filters the current → recommended table with the keyboard, then
verifies the server against a newer bundle: the generated lines applied, then MEMSIZE raised.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from advisor.models import Assessment
from tests.browser import SCREENSHOTS, chromium_tab, log_in
from tests.web.test_browser import PREVIEW_TIMEOUT_MS
from tests.web.test_start_from_server import linux_transcript
from tests.web.test_verify_page import newer_bundle

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def saved_counts(names: tuple[str, ...]) -> dict[str, Any]:
    """The saved assessment's counts per file, as the page's summary should say them: the
    rules decide how many settings a file writes; the tests, how they must be shown."""
    from advisor.assessments import statuses
    from advisor.core import results

    files = statuses.file_summaries(results.result_of(Assessment.objects.latest("pk")))
    return {f.name: f.counts for f in files if f.name in names}


def saved_tally() -> Any:
    """The saved assessment's settings over every file, counted by status."""
    from advisor.assessments import statuses
    from advisor.core import results

    result = results.result_of(Assessment.objects.latest("pk"))
    return statuses.tally(statuses.current_rows(result.recommendations))


def give_the_workload(page: Any) -> None:
    page.locator("#storage-row-0").get_by_label("Role", exact=True).select_option("data")
    page.get_by_label("Kind of work").select_option("etl")  # the draft starts on Mixed
    page.get_by_label("Peak SAS sessions").fill("4")
    page.get_by_label("Largest table (GB)").fill("50")
    page.get_by_label("Total data (GB)").fill("500")
    page.get_by_label("Growth (GB/week)").fill("0")


def test_read_the_server_save_filter_and_verify(page: Any, live_server: Any, member: Any) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    log_in(page, base)
    page.get_by_role("link", name="Start from your server").first.click()
    expect(page.get_by_role("heading", name="Start from your server")).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Download the collector"))).to_be_visible()
    page.get_by_label("Paste the bundle, a terminal transcript or a JSON inventory").fill(
        linux_transcript()
    )
    page.get_by_role("button", name="Read it").click()

    expect(page.get_by_label("Host name")).to_have_value("vm")
    expect(page.get_by_label("Logical CPUs")).to_have_value("2")
    host = page.locator("#id_hostname-mark")
    expect(host.locator(".badge.server")).to_have_text("from server")
    expect(host).to_contain_text("Host name vm from `hostname` (line 3)")
    expect(page.get_by_label("Host name")).to_have_attribute(
        "aria-describedby", re.compile(r"\bid_hostname-mark\b")
    )
    expect(page.locator("#workload-mix")).to_have_class(re.compile(r"\bconfirm\b"))
    expect(page.locator("#workload-confirm")).to_contain_text("Confirm: the workload")
    expect(page.locator(".draft-panel")).to_contain_text("SAS options")
    page.screenshot(path=str(SCREENSHOTS / "from-server-form.png"), full_page=True)

    give_the_workload(page)
    expect(page.locator("#preview")).to_contain_text("sasv9_local.cfg")
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    saved = Assessment.objects.get()
    assert saved.inventory["current"]["sas_options"]["MEMSIZE"] == "2G"

    expect(page.get_by_role("heading", name="Current → recommended")).to_be_visible()
    counts = saved_counts(("sasv9_local.cfg",))["sasv9_local.cfg"]
    assert counts.change > 0 and counts.unknown == 0, counts  # every SAS option was read
    expect(page.locator(".pending")).to_contain_text(f"sasv9_local.cfg: {counts.phrase}")
    expect(page.locator(".pending")).to_contain_text("CPUCOUNT (not set) → ")
    expect(page.locator(".pending")).not_to_contain_text(re.compile(r"\bMEMSIZE\b"))  # runs 2G
    every = saved_tally()
    table = page.locator("table.current-table tbody tr")
    expect(table).to_have_count(every.settings)  # the read-only checks are listed apart
    page.locator("#filter-changes").focus()
    page.keyboard.press("Enter")
    expect(table).to_have_count(every.pending)  # the changes and the values not read
    page.wait_for_url(re.compile(r"\?changes=1$"))
    expect(page.locator("#filter-changes")).to_be_focused()
    expect(page.locator("#filter-changes")).to_have_attribute("aria-current", "true")
    page.screenshot(path=str(SCREENSHOTS / "current-table.png"), full_page=True)

    page.get_by_role("link", name="Verify the server").click()
    page.wait_for_url(re.compile(rf"/assessments/{saved.pk}/verify/$"))
    page.get_by_label("Paste the newer bundle or a terminal transcript").fill(newer_bundle(saved))
    page.get_by_role("button", name="Verify").click()
    result = page.locator("#verify-result")
    # MEMSIZE raised by hand, and the four Linux settings the tuned profile was to change.
    expect(result.get_by_role("status")).to_contain_text("5 not compliant")
    drifted = result.locator("tr.non-compliant")
    expect(drifted).to_have_count(5)
    expect(drifted.first).to_contain_text("MEMSIZE")
    expect(drifted.first).to_contain_text("8G")
    expect(result.locator("tbody tr").first).to_have_class("non-compliant")
    page.screenshot(path=str(SCREENSHOTS / "verify.png"), full_page=True)
