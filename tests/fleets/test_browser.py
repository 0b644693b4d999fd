"""A fleet in a real browser (the machine's Chromium) with a real worker over Redis:
upload, watch the progress, filter the fleet view, open a group, export the CSV."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import SCREENSHOTS, chromium_tab, log_in
from tests.fleets.conftest import fleet, ndjson
from tests.reports.test_worker import Worker
from tests.web.test_browser import PREVIEW_TIMEOUT_MS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.celery_worker,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def test_upload_watch_filter_group_and_export(
    page: Any,
    live_server: Any,
    member: Any,
    start_worker: Worker,
    tmp_path: Path,
) -> None:
    from playwright.sync_api import expect

    upload = tmp_path / "estate.ndjson"
    upload.write_bytes(ndjson(fleet(120)) + b"{not json\n")
    start_worker("browser", item_s=0.02)
    log_in(page, live_server.url)
    page.get_by_role("link", name="Fleets").click()
    page.get_by_label("Inventories").set_input_files(str(upload))
    page.get_by_role("button", name="Upload and assess").click()
    page.wait_for_url(re.compile(r"/fleets/\d+/$"))

    progress = page.get_by_role("progressbar", name="Servers assessed")
    expect(progress).to_be_visible()
    expect(page.locator("#progress")).to_contain_text(re.compile(r"queued|running"))
    page.screenshot(path=str(SCREENSHOTS / "fleet-progress.png"))
    groups = page.get_by_role("heading", name="Servers grouped by identical advice")
    expect(groups).to_be_visible(timeout=120_000)
    expect(page.locator("#progress")).to_contain_text("120 done, 1 failed")
    expect(page.locator("table.fleet-servers tbody tr")).to_have_count(100)
    page.screenshot(path=str(SCREENSHOTS / "fleet-view.png"), full_page=True)

    page.get_by_label("Host").fill("sas0003")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("table.fleet-servers tbody tr")).to_have_count(1)
    expect(page.locator("table.fleet-servers")).to_contain_text("sas0003")

    # A group is named by the settings that set it apart, then its size.
    first_group = page.get_by_role("link", name=re.compile(r"^[A-Z]\w+ .+ · \d+ servers?$"))
    label = first_group.first.inner_text()
    count = int(label.rsplit("· ", 1)[1].split()[0])
    first_group.first.click()
    expect(page.get_by_text(re.compile(rf"^{count} servers? in group"))).to_be_visible()
    expect(page.locator("table.fleet-servers tbody tr")).to_have_count(min(count, 100))

    with page.expect_download() as download:
        page.get_by_role("link", name="Export CSV").click()
    rows = list(csv.reader(io.StringIO(Path(download.value.path()).read_text())))
    assert rows[0][:3] == ["position", "label", "host"] and len(rows) == count + 1

    page.get_by_role("button", name="Build the fleet report (PDF)").click()
    expect(page.get_by_role("link", name="Download the PDF")).to_be_visible(timeout=120_000)
    with page.expect_download() as pdf:
        page.get_by_role("link", name="Download the PDF").click()
    assert Path(pdf.value.path()).read_bytes().startswith(b"%PDF")
