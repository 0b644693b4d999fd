"""A SAS log in a real browser (the machine's Chromium): upload it, see the timeline and
the findings, attach it to an assessment and see its options compared."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from advisor.models import JobLog
from tests.browser import SCREENSHOTS, chromium_tab, log_in
from tests.conftest import example
from tests.web.test_browser import PREVIEW_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
NIGHT = (
    "1    options fullstimer memsize=2G;\n"
    "NOTE: The data set WORK.Q has 322000000 observations and 6 variables.\n"
    "NOTE: DATA statement used (Total process time):\n"
    "      real time           40:00.00\n"
    "      user cpu time       12:00.00\n"
    "      system cpu time     2:00.00\n\n"
    "NOTE: There were 322000000 observations read from the data set WORK.Q.\n"
    "NOTE: PROCEDURE SORT used (Total process time):\n"
    "      real time           52:32.08\n"
    "      user cpu time       24:41.30\n"
    "      system cpu time     8:29.05\n"
)


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def test_upload_a_log_read_it_and_attach_it(
    page: Any,
    live_server: Any,
    member: Any,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    assessment, _ = assessment_create(
        user=member, document=example("lemans-aix53-etl"), idempotency_key=None
    )
    night = tmp_path / "night.log"
    night.write_text(NIGHT)
    log_in(page, live_server.url)
    page.get_by_role("link", name="SAS logs").click()
    expect(page.get_by_role("heading", name="SAS logs", exact=True)).to_be_visible()
    page.get_by_label("Log files").set_input_files(str(night))
    page.get_by_role("button", name="Diagnose").click()
    page.wait_for_url(re.compile(r"/logs/\d+/$"))

    expect(page.get_by_role("heading", name="night.log")).to_be_visible()
    chart = page.get_by_role("img", name=re.compile("Steps of the job"))
    expect(chart).to_be_visible()
    expect(chart.locator("g.bar")).to_have_count(2)
    expect(chart.locator("g.bar.flagged")).to_have_count(2)
    findings = page.locator("ul.findings")
    expect(findings).to_contain_text("DATA step waited")
    expect(findings).to_contain_text("sorted on disk")
    expect(findings).to_contain_text("waits for the DATA step's WORK.Q")
    expect(page.get_by_role("table", name="What if")).to_contain_text("With every finding")
    page.screenshot(path=str(SCREENSHOTS / "log-detail.png"), full_page=True)

    page.get_by_label("Assessment of the server that ran it").select_option(str(assessment.pk))
    page.get_by_role("button", name="Attach").click()
    expect(page.get_by_text(f"Attached to assessment #{assessment.pk}")).to_be_visible()
    options = page.get_by_role("table", name="Options against the server's advice")
    expect(options.get_by_role("row", name=re.compile("MEMSIZE"))).to_contain_text("2G")
    assert JobLog.objects.get().assessment_id == assessment.pk
