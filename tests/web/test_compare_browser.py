"""The compare page in a real browser (the machine's Chromium): two saved assessments of
one server whose storage is listed in another order, with current settings read on both.
The settings that differ come first, storage is matched by mount point (nothing marked),
the current settings' fold opens on the differing ones, and axe-core finds nothing at
laptop and phone width."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from tests.browser import chromium_tab, log_in
from tests.web.test_accessibility import check_both_schemes
from tests.web.test_browser import PREVIEW_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def with_current(doc: dict[str, Any], ioo: dict[str, str]) -> dict[str, Any]:
    return {**doc, "current": {"aix_ioo": ioo, "source": "ioo -a"}}


def test_compare_reads_what_changed(
    page: Any, live_server: Any, member: User, lemans: dict[str, Any]
) -> None:
    from playwright.sync_api import expect

    older, _ = assessment_create(
        user=member, document=with_current(lemans, {"j2_maxPageReadAhead": "128", "a": "1"})
    )
    newer_doc = {**lemans, "storage": list(reversed(lemans["storage"])),
                 "server": {**lemans["server"], "ram_gb": 32}}  # fmt: skip
    newer, _ = assessment_create(
        user=member, document=with_current(newer_doc, {"j2_maxPageReadAhead": "256", "a": "1"})
    )
    log_in(page, live_server.url, f"/assessments/{older.pk}/compare/{newer.pk}/")
    expect(page.get_by_role("heading", name="Settings that differ")).to_be_visible()
    storage = page.locator("table.storage-compare tbody tr")
    expect(storage).to_have_count(len(lemans["storage"]))
    expect(page.locator("table.storage-compare .badge")).to_have_count(0)
    expect(page.get_by_text("Current settings read: 2 before, 2 after; 1 differs.")).to_be_visible()
    page.get_by_text("The 1 current setting that differs").click()
    expect(
        page.get_by_role("row", name="AIX ioo: j2_maxPageReadAhead differs 128 256")
    ).to_be_visible()
    failures = check_both_schemes(page, "compare-by-mount")
    assert not failures, "\n".join(failures)
