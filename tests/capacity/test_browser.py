"""The capacity what-if in a real browser (Chromium via Playwright): the panel on the
assessment page answering through htmx, the what-if's own page (GET, and the POST a browser
without JavaScript makes), each checked by axe-core at laptop and phone width, in light and
dark colours, with screenshots in test-artifacts/screenshots/ for a person to look at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from advisor.capacity.forms import CHEW_CONCURRENT_TEXT, CHEW_SINGLE_TEXT
from advisor.models import Assessment, Organisation
from tests.browser import SCREENSHOTS, check_page, chromium_tab, log_in
from tests.conftest import example, make_member

TIMEOUT_MS = 30_000

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def rhel(transactional_db: Any) -> Assessment:
    """32 CPUs, CPUCOUNT 4 recommended, 24 peak SAS sessions."""
    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    created, _ = assessment_create(user=user, document=example("linux-rhel9-sas94"))
    return created


@pytest.fixture
def tab(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS) as page:
        yield page


def test_the_panel_predicts_through_htmx_for_this_server(
    tab: Any, live_server: Any, rhel: Assessment
) -> None:
    from playwright.sync_api import expect

    log_in(tab, live_server.url, f"/assessments/{rhel.pk}/")
    panel = tab.locator(".capacity-panel")
    expect(panel.get_by_label("CPUs", exact=True)).to_have_value("32")
    expect(panel.get_by_label("Concurrent jobs")).to_have_value("24")
    # The times start empty: this server's to type (here chew's figures, typed by hand).
    expect(panel.get_by_label("Single-job times (CPUCOUNT=mm:ss)")).to_have_value("")
    panel.get_by_label("Single-job times (CPUCOUNT=mm:ss)").fill(CHEW_SINGLE_TEXT)
    panel.get_by_label("Concurrent runs at that CPUCOUNT (jobs=mm:ss, optional)").fill(
        CHEW_CONCURRENT_TEXT
    )
    panel.get_by_role("button", name="Predict").click()
    expect(tab.locator(".capacity-answer")).to_contain_text("24 jobs at CPUCOUNT=4 on 32 CPUs")
    expect(tab.locator(".capacity-note").first).to_contain_text("Extrapolated.")
    expect(tab.locator("#capacity-result svg .sessions-mark")).to_have_count(1)
    assert tab.url.endswith(f"/assessments/{rhel.pk}/")  # swapped in, not a new page
    panel.screenshot(path=str(SCREENSHOTS / "capacity-panel-result.png"))
    check_page(tab, "capacity-assessment-panel")


def test_the_page_of_its_own_before_and_after_a_plain_post(
    tab: Any, live_server: Any, rhel: Assessment
) -> None:
    from playwright.sync_api import expect

    log_in(tab, live_server.url, f"/assessments/{rhel.pk}/capacity/")
    expect(tab.get_by_label("CPUCOUNT", exact=True)).to_have_value("4")
    check_page(tab, "capacity-page")
    tab.get_by_label("Single-job times (CPUCOUNT=mm:ss)").fill("4=6:34")
    tab.get_by_label("Concurrent jobs").fill("40")
    # form.submit() fires no submit event, so htmx stays out: the POST a browser without
    # JavaScript makes, answered with the whole page.
    with tab.expect_navigation():
        tab.evaluate("() => document.querySelector('.capacity-form').submit()")
    expect(tab.locator(".capacity-answer")).to_contain_text("40 jobs at CPUCOUNT=4")
    expect(tab.locator(".capacity-note", has_text="Assumed.")).to_contain_text(
        "Only one single-job time was given"
    )
    check_page(tab, "capacity-page-result")
    tab.get_by_role("link", name="Back to the assessment of sascomp09").first.click()
    tab.wait_for_url(f"{live_server.url}/assessments/{rhel.pk}/")


def test_the_result_page_in_dark_colours(live_server: Any, rhel: Assessment) -> None:
    from playwright.sync_api import expect

    with chromium_tab(TIMEOUT_MS, color_scheme="dark") as tab:
        log_in(tab, live_server.url, f"/assessments/{rhel.pk}/capacity/")
        tab.get_by_label("Single-job times (CPUCOUNT=mm:ss)").fill(CHEW_SINGLE_TEXT)
        tab.get_by_role("button", name="Predict").click()
        expect(tab.locator(".capacity-answer")).to_be_visible()
        colour = tab.locator("#capacity-result svg.chart").evaluate(
            "e => getComputedStyle(e).color"
        )
        background = tab.evaluate("() => getComputedStyle(document.body).backgroundColor")
        assert colour != "rgb(0, 0, 0)" and colour != background  # text follows the page
        check_page(tab, "capacity-page-result-dark")


def test_without_javascript_the_form_posts_and_links_back(
    live_server: Any, rhel: Assessment
) -> None:
    from playwright.sync_api import expect

    with chromium_tab(TIMEOUT_MS, java_script_enabled=False) as tab:
        log_in(tab, live_server.url, f"/assessments/{rhel.pk}/")
        panel = tab.locator(".capacity-panel")
        panel.get_by_label("Single-job times (CPUCOUNT=mm:ss)").fill(CHEW_SINGLE_TEXT)
        panel.get_by_role("button", name="Predict").click()
        tab.wait_for_url(f"{live_server.url}/assessments/{rhel.pk}/capacity/")
        expect(tab.locator(".capacity-answer")).to_contain_text("24 jobs at CPUCOUNT=4")
        expect(tab.locator("svg.chart")).to_have_count(1)
        tab.get_by_role("link", name="Back to the assessment of sascomp09").first.click()
        tab.wait_for_url(f"{live_server.url}/assessments/{rhel.pk}/")


def test_the_papers_example_fills_the_form_in_place_and_the_answer_says_so(
    tab: Any, live_server: Any, rhel: Assessment
) -> None:
    from playwright.sync_api import expect

    log_in(tab, live_server.url, f"/assessments/{rhel.pk}/")
    panel = tab.locator(".capacity-panel")
    panel.get_by_role("link", name="Example from chew: PROC LOESS on an 8-CPU box").click()
    assert tab.url.endswith(f"/assessments/{rhel.pk}/")  # filled in place
    expect(panel.get_by_label("Single-job times (CPUCOUNT=mm:ss)")).to_have_value(CHEW_SINGLE_TEXT)
    expect(panel.get_by_label("CPUs", exact=True)).to_have_value("8")
    panel.get_by_role("button", name="Predict").click()
    expect(tab.locator(".capacity-inputs")).to_contain_text(
        "With chew's times from the paper (PROC LOESS on an 8-CPU box, not this server)"
    )
    expect(tab.locator(".capacity-inputs")).to_contain_text("on 8 CPUs (this server has 32)")
    expect(tab.locator(".capacity-answer")).to_contain_text("63 jobs at CPUCOUNT=8 on 8 CPUs")
