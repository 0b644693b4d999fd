"""Swagger UI and ReDoc in a real browser with every request to another server blocked:
both render the API's operations from this server alone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import SCREENSHOTS, chromium_tab, log_in
from tests.web.test_browser import PREVIEW_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        blocked: list[str] = []

        def only_this_server(route: Any) -> None:
            if route.request.url.startswith(live_server.url):
                route.continue_()
            else:
                blocked.append(route.request.url)
                route.abort()

        tab.route("**/*", only_this_server)
        tab.blocked = blocked
        yield tab


def test_swagger_ui_and_redoc_render_offline(page: Any, live_server: Any, member: Any) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    page.goto(live_server.url + "/api/docs/")
    expect(page.locator(".swagger-ui .opblock-summary-path").first).to_be_visible()
    expect(page.locator(".swagger-ui")).to_contain_text("/api/v1/fleets/")
    page.screenshot(path=str(SCREENSHOTS / "api-docs-offline.png"))
    page.goto(live_server.url + "/api/redoc/")
    expect(page.locator("h1").first).to_contain_text("SAS Tuning Advisor API")
    expect(page.locator("h2", has_text="Upload a fleet").first).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "api-redoc-offline.png"))
    assert page.blocked == []
