"""The report panel in a real browser (Chromium via Playwright): build, poll, predict.

Tasks run in-process here (no REDIS_URL), so the build finishes inside the request and
the status fragment comes back with the download link; the worker tests cover Redis.
Screenshots go to test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from advisor.models import Organisation
from tests.browser import SCREENSHOTS, chromium_tab
from tests.conftest import make_member

TIMEOUT_MS = 60_000  # a PDF build on a shared 2-core machine

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tab(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS) as page:
        yield page


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
    tab.locator(".capacity-panel").screenshot(path=str(SCREENSHOTS / "capacity-panel.png"))
