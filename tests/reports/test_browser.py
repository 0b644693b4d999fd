"""The report panel in a real browser (Chromium via Playwright): build, poll, predict.

Tasks run in-process here (no REDIS_URL), so the build finishes inside the request and
the status fragment comes back with the download link; the worker tests cover Redis.
Screenshots go to test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.models import Organisation
from advisor.services import assessment_create
from tests.conftest import ROOT, make_member

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
TIMEOUT_MS = 60_000  # a PDF build on a shared 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tab(live_server: Any) -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing (CI must install the chromium package)")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        yield page
        context.close()
        browser.close()


def test_build_report_and_predict_capacity(
    tab: Any, live_server: Any, transactional_db: Any, lemans: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    user = make_member("alice", Organisation.objects.create(name="Acme Analytics"))
    assessment, _ = assessment_create(user=user, document=lemans)
    tab.goto(f"{live_server.url}/accounts/login/?next=/assessments/{assessment.pk}/")
    tab.get_by_label("User name").fill("alice")
    tab.get_by_label("Password").fill("pw-alice")
    tab.get_by_role("button", name="Log in").click()
    tab.get_by_role("button", name="Build the PDF report").click()
    expect(tab.get_by_role("link", name="download the PDF")).to_be_visible(timeout=TIMEOUT_MS)
    tab.get_by_label("Concurrent jobs").fill("63")
    tab.get_by_role("button", name="Predict").click()
    answer = tab.locator(".capacity-answer")
    expect(answer).to_contain_text("about 175.8 min each", timeout=TIMEOUT_MS)
    expect(tab.locator("#capacity-result svg polyline")).to_have_count(1)
    tab.locator(".reports-panel").screenshot(path=str(SCREENSHOTS / "reports-panel.png"))
