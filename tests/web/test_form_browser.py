"""The inventory form that helps, in Debian's Chromium: required marks and "e.g."
placeholders, an error summary that takes focus and links to each field, 512 storage rows
loaded from a JSON file, previewed and saved, the JSON downloaded, a warning before leaving
with unsaved changes, and the preview closed after the form on a phone. Each page is
screenshot at laptop and phone width and checked with axe-core (tests.browser.check_page).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.models import Assessment
from rules.inventory import MAX_STORAGE
from tests.browser import LAPTOP, PHONE, check_page, chromium_tab, log_in
from tests.conftest import example

TIMEOUT_MS = 60_000  # 512 rows are a large page; CI machines are shared and slow

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS, accept_downloads=True) as tab:
        yield tab


def big_inventory(rows: int = MAX_STORAGE) -> dict[str, Any]:
    """lemans with `rows` storage entries, each on its own mount point."""
    doc = example("lemans-aix53-etl")
    first = doc["storage"][0]
    doc["storage"] = [{**first, "name": f"lv{i:03d}", "mount": f"/sas{i:03d}"} for i in range(rows)]
    return doc


def test_the_blank_form_marks_required_fields_and_folds_the_preview_on_a_phone(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    page.goto(live_server.url + "/assessments/new/")
    host = page.get_by_label("Host name")
    expect(host).to_have_attribute("aria-required", "true")
    expect(host).to_have_attribute("placeholder", "e.g. lemans")
    expect(host).to_have_value("")
    expect(page.get_by_label("Physical cores")).not_to_have_attribute("aria-required", "true")
    check_page(page, "form-new")
    # On a laptop the preview sits beside the form, open; on a phone it comes after the
    # form, closed, and opens on a tap.
    preview = page.locator("#preview")
    form_box = page.locator("#inventory-form").bounding_box()
    assert page.locator("aside.preview-col").bounding_box()["x"] > form_box["x"] + 300
    expect(preview).to_be_visible()
    page.set_viewport_size(PHONE)
    summary = page.locator(".preview-panel > summary")
    expect(preview).to_be_hidden()
    form_box = page.locator("#inventory-form").bounding_box()
    assert summary.bounding_box()["y"] > form_box["y"] + form_box["height"]
    summary.click()
    expect(preview).to_be_visible()
    page.set_viewport_size(LAPTOP)


def test_a_refused_save_lists_each_problem_focused_with_links_to_the_fields(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    log_in(page, live_server.url)
    page.goto(live_server.url + "/assessments/new/?example=lemans-aix53-etl")
    page.get_by_label("Host name").fill("")
    page.locator("#mix-details > summary").click()  # lemans is the ETL batch preset
    page.get_by_label("ETL, sort, merge").fill("90")
    page.locator("#id_storage-1-stripe_kb").fill("98")
    page.locator("#id_storage-1-filesystem").select_option("ntfs")
    page.get_by_label("Largest table (GB)").fill("2000")
    page.get_by_role("button", name="Save assessment").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary.get_by_role("heading")).to_have_text("5 problems to fix before saving")
    expect(summary).to_contain_text("Host name: is required")
    expect(summary).to_contain_text("they add up to 90 %")
    expect(summary).to_contain_text("Storage 2 · Stripe (KB): is not a stripe a RAID can have")
    expect(summary).to_contain_text("NTFS does not run on AIX")
    expect(page.locator("#id_largest_table_gb-errors")).to_contain_text("larger than the total")
    assert Assessment.objects.count() == 0
    check_page(page, "form-errors")

    summary.get_by_role("link", name=re.compile("^Storage 2 · Stripe")).click()
    expect(page.locator("#id_storage-1-stripe_kb")).to_be_focused()
    summary.get_by_role("link", name=re.compile("^Host name")).click()
    host = page.locator("#id_hostname")
    expect(host).to_be_focused()
    # Fixing a field while the summary shows updates it (and the message beside the field).
    host.fill("lemans")
    expect(summary.get_by_role("heading")).to_have_text("4 problems to fix before saving")
    expect(page.locator("#id_hostname-errors")).to_be_empty()


def test_512_rows_loaded_from_a_json_file_are_previewed_and_saved(
    page: Any, live_server: Any, member: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    inventory = tmp_path / "warehouse.json"
    inventory.write_text(json.dumps(big_inventory()))
    log_in(page, live_server.url)
    page.goto(live_server.url + "/assessments/new/")
    page.get_by_label("or load a file").set_input_files(str(inventory))
    page.get_by_role("button", name="Load file").click()
    loaded = page.get_by_role("status").filter(has_text="loaded")
    expect(loaded).to_have_text("warehouse.json loaded: 512 storage rows.", timeout=TIMEOUT_MS)
    expect(page.locator("#storage fieldset.row")).to_have_count(MAX_STORAGE, timeout=TIMEOUT_MS)
    expect(page.locator("#id_storage-511-mount")).to_have_value("/sas511")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("aix_tuning.sh")
    expect(page.locator("#error-summary")).to_be_hidden()
    check_page(page, "form-512", repeats="#storage fieldset.row")

    # Typed into: the live preview answers for all 512 rows.
    page.locator("#id_storage-511-size_gb").fill("2000")
    expect(preview.locator("#preview-aix-tuning-sh")).to_be_visible()
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    saved = Assessment.objects.get()
    assert len(saved.inventory["storage"]) == MAX_STORAGE
    assert saved.inventory["storage"][511]["size_gb"] == 2000


def test_the_form_downloads_as_json_and_asks_before_unsaved_changes_are_left(
    page: Any, live_server: Any, member: Any
) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.accept()))
    log_in(page, base)
    page.goto(base + "/assessments/new/?example=lemans-aix53-etl")
    page.goto(base + "/")  # nothing typed: nothing to lose
    assert asked == []

    page.goto(base + "/assessments/new/?example=lemans-aix53-etl")
    page.get_by_label("RAM (GB)").fill("32")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download as JSON").click()
    assert download.value.suggested_filename == "lemans-inventory.json"
    document = json.loads(Path(download.value.path()).read_text())
    assert document["server"]["ram_gb"] == 32
    assert asked == []  # the download leaves the page where it is
    expect(page.get_by_label("RAM (GB)")).to_have_value("32")

    page.wait_for_timeout(1500)  # past the download's grace
    page.get_by_role("link", name="Assessments").first.click()
    page.wait_for_url(base + "/")
    assert asked == ["beforeunload"]

    page.goto(base + "/assessments/new/?example=lemans-aix53-etl")
    page.get_by_label("RAM (GB)").fill("48")
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    assert asked == ["beforeunload"]  # saving is not leaving
    assert Assessment.objects.get().inventory["server"]["ram_gb"] == 48
