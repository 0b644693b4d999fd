"""Measured storage throughput on the result page, in a real browser (the machine's Chromium).

The paste is a real bundle: the collector run on this machine with `--measure DIR
--measure-mb 8 --streams 2 --measure-tool dd` (tests/web/measured_bundle.py), pasted on
"Start from your server", the workload given, saved. The result page must then draw the
measured file system's bar with its figures per core in use and SAS's verdict in words,
give the same figures as a table, and pass axe-core at laptop and phone width.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.assessments.measured import directions
from advisor.models import Assessment
from rules.measured import Direction, bars
from rules.validate import parse_stored
from tests.browser import check_page, chromium_tab, log_in
from tests.web.measured_bundle import measured_bundle
from tests.web.test_browser import PREVIEW_TIMEOUT_MS
from tests.web.test_server_browser import give_the_workload

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


WORDS = {"lower": "lower of read and write"}  # the SVG's short label, the table's words


def drawn_verdict(d: Direction) -> str:
    """The verdict beside the bar: a read that may be the page cache's (the bundle's dd
    reads its 16 MiB back from it) is "not judged" there, in full words in the table."""
    return "not judged" if d.verdict == "may be cache" else d.words


@pytest.fixture
def page(live_server: Any) -> Iterator[Any]:
    with chromium_tab(PREVIEW_TIMEOUT_MS) as tab:
        yield tab


def paste_and_save(page: Any, base: str, text: str) -> Assessment:
    from playwright.sync_api import expect

    log_in(page, base)
    page.get_by_role("link", name="Start from your server").first.click()
    page.get_by_label("Paste the bundle, a terminal transcript or a JSON inventory").fill(text)
    page.get_by_role("button", name="Read it").click()
    expect(page.get_by_role("heading", name="Read from your server")).to_be_visible()
    rows = page.locator("fieldset.row")
    for i in range(rows.count()):
        rows.nth(i).get_by_label("Role", exact=True).select_option("data")
    give_the_workload(page)
    page.get_by_role("button", name="Save assessment").click()
    page.wait_for_url(re.compile(r"/assessments/\d+/$"))
    return Assessment.objects.get()


def test_result_page_draws_the_measured_throughput(
    page: Any, live_server: Any, member: Any, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    text = measured_bundle(tmp_path)
    saved = paste_and_save(page, live_server.url, text)
    found = bars(parse_stored(saved.inventory))
    assert found, "the bundle's measurement reached storage[].measured_mb_s"

    section = page.locator("section.measured")
    expect(section.get_by_role("heading", name="Measured storage throughput")).to_be_visible()
    chart = section.get_by_role("img", name=re.compile("Measured storage throughput per core"))
    expect(chart).to_be_visible()
    table = section.get_by_role("table")
    for bar in found:
        tool, date = bar.tool or "not recorded", bar.date or "not recorded"
        rows = table.locator("tbody tr", has_text=bar.mount)
        expect(rows).to_have_count(len(directions(bar)))
        for i, (label, d) in enumerate(directions(bar)):
            words = WORDS.get(label, label)
            expect(chart.locator("desc")).to_contain_text(
                f"{words} {d.per_core:g} MB/s per core, {d.words}"
            )
            expect(chart.locator("text.mc-label", has_text=label).first).to_be_visible()
            drawn = f"{d.per_core:g} MB/s per core · {drawn_verdict(d)}"
            expect(chart.locator("text.mc-figure", has_text=drawn).first).to_be_visible()
            expect(rows.nth(i).locator("td")).to_have_text(
                [re.compile(re.escape(bar.name)), words, f"{d.mb_s:g}", str(bar.cores),
                 f"{d.per_core:g}", d.words, tool, date]
            )  # fmt: skip
    expect(section).to_contain_text(f"({found[0].cores} cores: the divisor)")
    check_page(page, "measured-result")
    page.emulate_media(color_scheme="dark")  # the bars' colours come from the theme's
    check_page(page, "measured-result-dark")
    page.emulate_media(color_scheme="light")

    # Verify with the same reading: before and after are the same figures, per mount point.
    page.get_by_role("link", name="Verify the server").click()
    page.get_by_label("Paste the newer bundle or a terminal transcript").fill(text)
    page.get_by_role("button", name="Verify").click()
    compared = page.locator(".measured-verify")
    expect(compared.get_by_role("heading")).to_have_text("Measured throughput: before → after")
    for bar in found:
        rows = compared.locator("tbody tr", has_text=bar.mount)
        by = (bar.tool or "not recorded") + (f", {bar.date}" if bar.date else "")
        for i, (label, d) in enumerate(directions(bar)):
            figure = f"{d.per_core:g} MB/s per core ({d.mb_s:g} MB/s), {d.words}"
            expect(rows.nth(i).locator("td")).to_have_text(
                [WORDS.get(label, label), figure, figure, by]
            )
    check_page(page, "measured-verify")
