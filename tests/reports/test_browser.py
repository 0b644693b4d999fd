"""The report panel and the HTML report in a real browser (Chromium via Playwright).

Tasks run in-process here (no REDIS_URL), so the build finishes inside the request and
the status fragment comes back with the download link; the worker tests cover Redis.
Each page is checked at laptop and phone width (screenshots in test-artifacts/screenshots/,
axe-core finding nothing) and must not scroll sideways on a 390 px phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from advisor.models import Assessment, Organisation, Report
from tests.browser import PHONE, SCREENSHOTS, check_page, chromium_tab, log_in
from tests.conftest import make_member

TIMEOUT_MS = 60_000  # a PDF build on a shared 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tab(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS) as page:
        yield page


def _log_in(tab: Any, live_server: Any, lemans: dict[str, Any]) -> Assessment:
    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    assessment, _ = assessment_create(user=user, document=lemans)
    log_in(tab, live_server.url, f"/assessments/{assessment.pk}/")
    return assessment


def _fits_a_phone(tab: Any) -> None:
    tab.set_viewport_size(PHONE)
    wide = tab.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    tab.set_viewport_size({"width": 1366, "height": 900})
    assert wide <= 0, f"{tab.url} scrolls {wide} px sideways on a phone"


def test_build_report_with_options_and_predict_capacity(
    tab: Any, live_server: Any, transactional_db: Any, lemans: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    _log_in(tab, live_server, lemans)
    tab.get_by_label("Client name").fill("Globex Insurance")
    tab.get_by_label("Consultant", exact=True).fill("Dana Scully")
    tab.get_by_label("Consultant notes").fill("Try the changes on the test LPAR first.")
    check_page(tab, "report-panel-form")
    tab.get_by_role("button", name="Build the PDF report").click()
    expect(tab.get_by_role("link", name="download the PDF")).to_be_visible(timeout=TIMEOUT_MS)
    expect(tab.get_by_label("Client name")).to_have_value("Globex Insurance")
    report = Report.objects.get()
    assert (report.client_name, report.include_scripts) == ("Globex Insurance", True)
    tab.locator(".reports-panel").screenshot(path=str(SCREENSHOTS / "reports-panel.png"))
    # The what-if starts blank; the paper's worked example fills it (chew's PROC LOESS).
    tab.get_by_role("link", name="Example from chew: PROC LOESS on an 8-CPU box").click()
    tab.get_by_label("Concurrent jobs").fill("63")
    tab.get_by_role("button", name="Predict").click()
    answer = tab.locator(".capacity-answer")
    expect(answer).to_contain_text("about 175.8 min each", timeout=TIMEOUT_MS)
    expect(tab.locator("#capacity-result svg polyline")).to_have_count(1)
    tab.locator(".capacity-panel").screenshot(path=str(SCREENSHOTS / "capacity-panel.png"))


def test_the_html_report_reads_on_a_laptop_and_a_phone(
    tab: Any, live_server: Any, transactional_db: Any, lemans: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    _log_in(tab, live_server, lemans)
    tab.get_by_label("Client name").fill("Globex Insurance")
    tab.get_by_role("button", name="Build the PDF report").click()
    tab.get_by_role("link", name="read it here").click()
    expect(tab.get_by_role("heading", name="Action plan")).to_be_visible()
    expect(tab.locator(".cover")).to_contain_text("Globex Insurance")
    tab.get_by_role("link", name="Scope and disclaimer").click()
    assert tab.url.endswith("#scope")
    check_page(tab, "report-html")
    _fits_a_phone(tab)


def test_a_report_being_built_shows_its_progress(
    tab: Any, live_server: Any, transactional_db: Any, lemans: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    assessment = _log_in(tab, live_server, lemans)
    report = Report.objects.create(assessment=assessment, status="running", attempts=1)
    tab.goto(f"{live_server.url}/assessments/{assessment.pk}/")
    expect(tab.locator("#report-status progress")).to_be_visible()
    expect(tab.get_by_role("button", name="Build the PDF report")).to_have_count(0)
    check_page(tab, "report-panel-progress")
    tab.goto(f"{live_server.url}/reports/{report.pk}/")
    expect(tab.get_by_text(f"Report {report.pk} is running")).to_be_visible()
    check_page(tab, "report-status-page")
    _fits_a_phone(tab)
