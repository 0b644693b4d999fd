"""A server whose only file system is / (issue 27, item 3), assessed through the web form in
Debian's Chromium: the inventory loaded from a file, SAS's installation folder typed into
the form, saved; the result page warns before WORK lands on / and names SAS's installation
there, and sets no WORK. The form and the result page pass axe-core at laptop and phone
width, in the light and the dark colour scheme (tests.web.test_accessibility)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.models import Assessment
from tests.browser import chromium_tab, log_in
from tests.conftest import example
from tests.web.test_accessibility import check_both_schemes

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
TIMEOUT_MS = 60_000


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(TIMEOUT_MS) as tab:
        yield tab


def root_only() -> dict[str, Any]:
    """A RHEL 9 box as many are delivered: one disk, one file system, /."""
    doc = example("linux-rhel9-sas94")
    doc["name"] = "Single-disk RHEL 9 box"
    doc["storage"] = [
        {"name": "rhel-root", "mount": "/", "role": "work", "raid": "jbod", "disks": 1,
         "size_gb": 200, "media": "ssd", "filesystem": "xfs", "devices": ["sda"]},
    ]  # fmt: skip
    return doc


def test_a_root_only_server_is_warned_on_its_result_page(
    page: Any, live_server: Any, member: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    inventory = tmp_path / "single-disk.json"
    inventory.write_text(json.dumps(root_only()))
    log_in(page, live_server.url)
    page.goto(live_server.url + "/assessments/new/")
    page.get_by_label("or load a file").set_input_files(str(inventory))
    page.get_by_role("button", name="Load file").click()
    expect(page.locator("#id_storage-0-mount")).to_have_value("/")
    page.get_by_label("SAS installation folder").fill("/opt/sas/SASHome")
    failures = check_both_schemes(page, "placement-form-root-only")
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))

    saved = Assessment.objects.get()
    assert saved.inventory["sas"]["install_path"] == "/opt/sas/SASHome"
    warning = page.get_by_text(re.compile("The only WORK storage listed is the root file system /"))
    expect(warning.first).to_be_visible()
    body = page.locator("main").inner_text()
    assert "SAS itself, installed at /opt/sas/SASHome on /" in body
    assert "Give WORK a dedicated file system" in body
    assert "-WORK /\n" not in body and "storage[0]" not in body
    failures += check_both_schemes(page, "placement-result-root-only")
    assert not failures, "\n\n".join(failures)
