"""A fleet of 200 servers in the machine's Chromium: groups named by what differs, the
fleet by finding (sorted, a finding's servers opened, its CSV), server rows with OS, CPUs
and RAM, the assessment list filtered by fleet; axe-core clean at laptop and phone width,
light and dark. The fleet is created the way an upload is (services.fleet_create); tests
run its chunks in-process."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.fleets.reading import read_fleet
from advisor.fleets.services import fleet_create
from advisor.models import Assessment, Fleet
from tests.browser import log_in
from tests.fleets.conftest import fleet, ndjson
from tests.web import test_accessibility
from tests.web.test_accessibility import check_both_schemes

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
SERVERS = 200
page = test_accessibility.page  # the same Chromium tab fixture


@pytest.fixture
def estate(member: User) -> Fleet:
    entries = read_fleet(ndjson(fleet(SERVERS)), "application/x-ndjson")
    created, _ = fleet_create(user=member, entries=entries, name="Estate")
    created.refresh_from_db()
    assert created.status == "done"
    return created


def test_a_fleet_of_200_by_finding(page: Any, live_server: Any, estate: Fleet) -> None:
    from playwright.sync_api import expect

    base = live_server.url
    log_in(page, base, f"/fleets/{estate.pk}/")
    failures = check_both_schemes(page, "estate-fleet")
    groups = page.get_by_role("link", name=re.compile(r"^[A-Z]\w+ .+ · \d+ servers?$"))
    expect(groups.first).to_be_visible()
    assert sum(int(t.rsplit("· ", 1)[1].split()[0]) for t in groups.all_inner_texts()) == SERVERS
    first_row = page.locator("table.fleet-servers tbody tr").first
    expect(first_row.locator('td[data-label="#"]')).to_have_text("1")
    expect(first_row.locator('td[data-label="OS"]')).to_have_text("AIX 5.3")
    expect(first_row.locator('td[data-label="RAM"]')).to_have_text(re.compile(r"^[\d.]+ GB$"))

    page.get_by_role("link", name="The fleet by finding").click()
    page.wait_for_url(re.compile(r"/findings/$"))
    rows = page.locator("table.fleet-findings tbody tr")
    expect(rows.first.locator('td[data-label="#"]')).to_have_text("1")
    counts = [int(n) for n in rows.locator('td[data-label="Servers"]').all_inner_texts()]
    assert counts == sorted(counts, reverse=True) and counts[0] <= SERVERS
    failures += check_both_schemes(page, "estate-findings")

    page.get_by_label("Sort by").select_option("severity")
    page.get_by_role("button", name="Sort").click()
    page.wait_for_url(re.compile(r"sort=severity"))
    top = rows.first
    expect(top.locator(".badge")).to_have_text(re.compile(r"^(high|medium|low|setting)$"))
    expect(top.locator('td[data-label="Servers affected"] a').first).to_be_visible()

    with page.expect_download() as download:
        page.get_by_role("link", name="Export CSV").click()
    table = list(csv.reader(io.StringIO(Path(download.value.path()).read_text())))
    assert table[0][:5] == ["#", "finding", "kind", "severity", "servers"]
    assert [r[0] for r in table[1:]] == [str(n) for n in range(1, len(table))]
    assert len(table) - 1 == rows.count() or rows.count() == 100

    count = int(top.locator('td[data-label="Servers"]').inner_text())
    top.get_by_role("link", name=re.compile(rf"^all {count} servers?")).click()
    page.wait_for_url(re.compile(r"finding="))
    expect(page.get_by_text(re.compile(rf"^{count} servers? with “"))).to_be_visible()
    expect(page.locator("table.fleet-servers tbody tr")).to_have_count(min(count, 100))

    page.goto(f"{base}/")
    expect(page.get_by_text(f"{SERVERS} fleet servers not listed here")).to_be_visible()
    page.get_by_label("Source").select_option("fleet")  # htmx asks for the results at once
    page.wait_for_url(re.compile(r"source=fleet"))
    expect(page.locator("#results table tbody tr")).to_have_count(25)
    page.goto(f"{base}/?fleet={estate.pk}")
    expect(page.get_by_label("Fleet")).to_have_value(str(estate.pk))
    expect(page.get_by_text(f"Page 1 of {-(-SERVERS // 25)}")).to_be_visible()
    failures += check_both_schemes(page, "estate-list-by-fleet")

    # The compare picker: a host name typed (the suggestions are the browser's own).
    a, b, c = (Assessment.objects.get(fleet_item__fleet=estate, hostname=f"sas{n:04d}")
               for n in (0, 1, 5))  # fmt: skip
    page.goto(f"{base}/assessments/{a.pk}/compare/{b.pk}/")
    picker = page.get_by_label("Compare sas0001 with")
    assert picker.get_attribute("list") == "compare-again-options"
    picker.fill("sas0005")
    page.get_by_role("button", name="Compare", exact=True).click()
    page.wait_for_url(re.compile(rf"/assessments/{b.pk}/compare/{c.pk}/$"))
    failures += check_both_schemes(page, "estate-compare-picker")
    assert not failures, "\n\n".join(failures)
