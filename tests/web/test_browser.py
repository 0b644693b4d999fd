"""The inventory form in a real browser: the machine's Chromium driven by Playwright.

Builds the lemans inventory (bartucca2005) by hand, watches the live preview, expands a
setting, saves, downloads the zip and compares two assessments. Screenshots of the form
and the result page go to test-artifacts/screenshots/ for a person to look at.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest

from advisor.assessments.services import assessment_create
from advisor.models import Assessment
from rules.sources import SOURCES
from tests.browser import LAPTOP, PHONE, SCREENSHOTS, chromium_tab, log_in

PREVIEW_TIMEOUT_MS = 30_000  # generous: CI machines are shared and slow

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS, accept_downloads=True) as tab:
        yield tab


def fill_row(page: Any, index: int, values: dict[str, str]) -> None:
    row = page.locator(f"#storage-row-{index}")
    for label, value in values.items():
        field = row.get_by_label(label, exact=True)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)


LEMANS_ROWS = [
    {"Name": "raid0lv01", "Mount point": "/raid0", "Role": "work", "RAID": "0", "Disks": "2",
     "Stripe (KB)": "64", "Max transfer (KB)": "256", "Size (GB)": "998.5", "Media": "hdd",
     "File system": "jfs2", "Adapters": "fscsi0 fscsi1"},
    {"Name": "raid5lv01", "Mount point": "/raid5", "Role": "data", "RAID": "5", "Disks": "5",
     "Stripe (KB)": "64", "Max transfer (KB)": "256", "Size (GB)": "998.5", "Media": "hdd",
     "File system": "jfs2", "Adapters": "fscsi0 fscsi1"},
]  # fmt: skip


def build_lemans_by_hand(page: Any) -> None:
    page.get_by_label("Assessment name").fill("lemans ETL data mart")
    page.get_by_label("Host name").fill("lemans")
    page.get_by_label("Operating system").select_option("aix")
    page.get_by_label("OS version").fill("5.3")
    page.get_by_label("Logical CPUs").fill("8")
    page.get_by_label("RAM (GB)").fill("16")
    page.get_by_label("SAS version").select_option("9.1.3")
    fill_row(page, 0, LEMANS_ROWS[0])
    page.get_by_role("button", name="Add storage row").click()
    page.locator("#storage-row-1").wait_for()
    fill_row(page, 1, LEMANS_ROWS[1])
    page.get_by_label("Kind of work").select_option("etl")  # ETL batch: all ETL
    page.get_by_label("Peak SAS sessions").fill("1")
    page.get_by_label("Largest table (GB)").fill("60")
    page.get_by_label("Total data (GB)").fill("1000")
    page.get_by_label("Growth (GB/week)").fill("0")


def test_build_preview_save_download_and_compare(page: Any, live_server: Any, member: Any) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    log_in(page, base)
    page.goto(base + "/assessments/new/")
    page.keyboard.press("Tab")
    expect(page.locator(":focus")).to_have_text("Skip to content")

    build_lemans_by_hand(page)
    expect(page.locator("#mix-total")).to_have_text("100")
    expect(page.locator("#storage fieldset.row")).to_have_count(2)
    preview = page.locator("#preview")
    expect(preview).to_contain_text("aix_tuning.sh")
    expect(preview).to_contain_text("j2_minPageReadAhead=16")

    setting = preview.locator("details.setting").first
    setting.locator(":scope > summary").click()  # its own, not the "why?" inside it
    expect(setting.locator("dd cite").first).to_be_visible()
    cited = setting.locator("dd cite").first.inner_text()
    assert any(s.title in cited for s in SOURCES.values()), cited  # "Chew 2002, 'title'"
    expect(setting).to_contain_text(re.compile(r"Rule\s*[a-z_]+\.[a-z_]+"))
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / "form-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SCREENSHOTS / "form-phone.png"))
    page.set_viewport_size(LAPTOP)

    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    saved = Assessment.objects.get()
    assert saved.inventory["storage"][1]["mount"] == "/raid5"
    expect(page.get_by_role("heading", name="lemans ETL data mart", exact=True)).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "result-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SCREENSHOTS / "result-phone.png"))
    page.set_viewport_size(LAPTOP)

    with page.expect_download() as download:
        page.get_by_role("link", name="Download all files (.zip)").click()
    with zipfile.ZipFile(download.value.path()) as archive:
        names = sorted(archive.namelist())
    assert names == ["aix_tuning.sh", "recommendations.json", "sasv9_append.cfg"]

    bigger = {**saved.inventory, "server": {**saved.inventory["server"], "ram_gb": 32}}
    other, _ = assessment_create(user=member, document=bigger)
    page.reload()
    page.get_by_label("Compare with").fill(str(other.pk))  # a number, as the hint says
    page.get_by_role("button", name="Compare").click()
    page.wait_for_url(re.compile(rf"/assessments/{saved.pk}/compare/{other.pk}/$"))
    expect(page.get_by_role("heading", name="What changed")).to_be_visible()
    expect(page.locator("table.diff-table tr.differs")).to_contain_text("RAM (GB)")
    page.screenshot(path=str(SCREENSHOTS / "compare-laptop.png"), full_page=True)

    page.get_by_role("link", name="Assessments").click()
    expect(page.locator("#results tbody tr")).to_have_count(2)
    page.get_by_label("Search by host name").fill("nosuchhost")
    expect(page.locator("#results")).to_contain_text("No assessment has a host name containing")
    page.screenshot(path=str(SCREENSHOTS / "list-laptop.png"), full_page=True)


def test_remove_and_duplicate_rows_in_place(page: Any, live_server: Any, member: Any) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    page.goto(live_server.url + "/assessments/new/?example=lemans-aix53-etl")
    rows = page.locator("#storage fieldset.row")
    expect(rows).to_have_count(2)
    page.get_by_role("button", name="Duplicate storage 1").click()
    expect(rows).to_have_count(3)
    expect(page.locator("#id_storage-1-mount")).to_have_value("/raid0")
    expect(page.locator("#id_storage-1-name")).to_be_focused()
    expect(page.locator("#id_storage-1-mount-errors")).to_contain_text("duplicates")
    page.get_by_role("button", name="Remove storage 2").click()
    expect(rows).to_have_count(2)
    expect(page.locator("#id_storage-1-mount")).to_have_value("/raid5")
    expect(page.locator("#id_storage-1-mount-errors")).to_be_empty()
    page.locator("#mix-details > summary").click()  # lemans is the ETL batch preset
    page.locator("#id_mix_etl").fill("90")
    expect(page.locator("#mix-total")).to_have_text("90")
    expect(page.locator("#mix-errors")).to_contain_text("the shares must add up to 100 %")
