"""The embedded default as a new user meets it: `scripts/run.sh` prints the address it
serves on and seeds three example assessments named by what they are; it starts a Celery
worker over a broker of files beside the development server, so a report's build request
answers at once with a progress bar, a second request joins the same build, and the page
shows the finished report when the worker is done; an archived assessment leaves the list.
No Redis, no PostgreSQL."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import check_page, chromium_tab, log_in
from tests.deploy.embedded import CSRF, DEMO, embedded_default

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BUILD_TIMEOUT_MS = 120_000  # a PDF on a shared CI machine


def test_report_request_answers_with_progress_and_the_worker_builds_it(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    with embedded_default(tmp_path) as app, chromium_tab(60_000) as tab:
        log_in(tab, app.url, username=DEMO["username"], password=DEMO["password"])
        rows = tab.locator("#results tbody tr")
        expect(rows).to_have_count(3)
        for name in ("AIX 7.3", "RHEL 9.4", "SPD Server"):
            expect(rows.filter(has_text=name)).to_have_count(1)
        check_page(tab, "first-run-list")
        tab.locator("#results tbody a").first.click()
        tab.wait_for_url(re.compile(r"/assessments/\d+/$"))
        assessment_url = tab.url

        tab.get_by_role("button", name=re.compile("Build", re.IGNORECASE)).click()
        status = tab.locator("#report-status")
        expect(status.locator("progress")).to_be_visible()
        expect(status).to_contain_text(re.compile("queued|running"))
        first = status.get_by_role("link", name="status page").get_attribute("href")

        # The same request again, as a second click or another member would send it.
        token = CSRF.search(tab.content())
        assert token is not None
        again = tab.request.post(
            assessment_url + "report/",
            form={"csrfmiddlewaretoken": token.group(1)},
            headers={"HX-Request": "true", "Referer": assessment_url},
        )
        assert again.status == 200
        assert "<progress" in again.text() and f'href="{first}"' in again.text()

        expect(status.get_by_role("link", name="download the PDF")).to_be_visible(
            timeout=BUILD_TIMEOUT_MS
        )
        check_page(tab, "embedded-report-done")

        tab.get_by_role("button", name="Archive").click()
        expect(tab.locator(".messages")).to_contain_text("no longer listed, kept for audit")
        tab.goto(app.url + "/")
        expect(rows).to_have_count(2)
    log = (tmp_path / "run.log").read_text()
    assert f"log in at {app.url}/ as demo / demo-password" in log
    assert "Traceback" not in log, log[-3000:]
