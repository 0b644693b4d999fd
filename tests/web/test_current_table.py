"""The current → recommended table: result page (with its no-JS and htmx filter) and report."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from advisor.assessments import statuses
from advisor.assessments.services import assessment_create
from advisor.models import Assessment
from advisor.reports.content import report_context
from advisor.reports.services import render_report_html
from rules.result_read import read_result

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db
# What lemans would run now, as a collector bundle would have read it. BUFNO 16 is per-job
# advice since rules 2026.11.9 (bartucca2005 l.647), so the config file sets one line fewer;
# minfree and maxfree (960/1088, AIX 5.3's defaults) are scaled to 8 logical CPUs since then
# too (aix.vmo_free), two more changes. Since IBM's per-pool formula (120 × 8 logical CPUs
# = 960) minfree already holds, one change fewer; lru_file_repage 1 (AIX 5.3's default)
# goes to 0, IBM's later guidance on 5.3 (aix.vmo), one more.
CURRENT = {
    "sas_options": {"MEMSIZE": "8G", "CPUCOUNT": "4", "SORTSIZE": "256M"},
    "aix_ioo": {
        "j2_minPageReadAhead": "2", "j2_nPagesPerWriteBehindCluster": "128",
        "sync_release_ilock": "0", "j2_maxPageReadAhead": "128",
    },
    "aix_vmo": {
        "maxperm%": "60", "maxclient%": "80", "strict_maxperm": "0",
        "minfree": "960", "maxfree": "1088", "lru_file_repage": "1",
    },
    "source": "collector 2026.11.4 bundle",
}  # fmt: skip


@pytest.fixture
def read(user: User, lemans: dict[str, Any]) -> Assessment:
    assessment, _ = assessment_create(user=user, document={**lemans, "current": CURRENT})
    return assessment


def rows_of(page: str) -> list[str]:
    body = page.split('<table class="list current-table cards">', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<tr class="status-(\w+)">\s*<th scope="row"><code>([^<]*)</code>', body)


def test_without_a_current_block_the_values_are_unknown(
    client_in: Client, stored: Assessment
) -> None:
    page = client_in.get(reverse("web:assessment", args=[stored.pk])).content.decode()
    assert "The current values are unknown" in page
    assert f'<a href="{reverse("web:from-server")}">Start from your server</a>' in page
    assert '<span class="muted">not read</span>' in page
    # Nothing was read: each setting is one the file sets, never a guessed change.
    assert rows_of(page)[:2] == [("unknown", "THREADS"), ("unknown", "CPUCOUNT")]
    assert {status for status, _ in rows_of(page)} == {"unknown"}
    badge = '<span class="badge status unknown" title="Not read: the file sets it">set</span>'
    assert badge in page
    assert "every setting is listed as not read, one the files set" in page


def test_with_a_current_block_the_page_says_which_lines_change(
    client_in: Client, read: Assessment
) -> None:
    page = client_in.get(reverse("web:assessment", args=[read.pk])).content.decode()
    assert "The current values are unknown" not in page
    assert "(current values read: collector 2026.11.4 bundle)" in page
    assert "<code>sasv9_append.cfg</code></strong>: 6 change, 0 not read, 1 keep of 7" in page
    assert "<code>CPUCOUNT</code> 4 → 8" in page and "<code>SORTSIZE</code> 256M → 4G" in page
    assert "<strong><code>aix_tuning.sh</code></strong>: 6 change, 0 not read, 2 keep of 8" in page
    assert "<code>maxclient%</code> 80 → 60" in page
    assert "<code>maxperm%</code> 60 → 60" not in page  # kept: no line changes
    rows = dict((setting, status) for status, setting in rows_of(page))
    assert rows["MEMSIZE"] == "keep" and rows["CPUCOUNT"] == "change"
    # j2_minPageReadAhead ≤ j2_maxPageReadAhead is no longer a check left to the admin
    # after the change: aix_tuning.sh checks it before its first change (rules 2026.11.8).
    assert "ioo -o j2_maxPageReadAhead" not in rows
    assert "keeps &#x27;ioo&#x27; &#x27;j2_minPageReadAhead&#x27; &#x27;le&#x27;" in page
    assert (
        '<td data-label="Current"><code>4</code></td>\n'
        '          <td data-label="Recommended"><code>8</code></td>'
    ) in page  # CPUCOUNT


def test_changes_only_works_as_a_plain_link(client_in: Client, read: Assessment) -> None:
    url = reverse("web:assessment", args=[read.pk])
    page = client_in.get(url).content.decode()
    assert f'href="{url}?changes=1#current-h"' in page
    assert "To set or change (12)" in page and "All settings (15)" in page
    assert "12 read-only checks and 5 pieces of advice, listed with their files below" in page
    filtered = client_in.get(url, {"changes": "1"}).content.decode()
    assert "<html" in filtered
    statuses = {status for status, _ in rows_of(filtered)}
    assert statuses == {"change"} and len(rows_of(filtered)) == 12
    assert 'id="filter-changes" href' in filtered
    assert re.search(r'id="filter-changes"[^>]*aria-current="true"', filtered)


def test_the_filter_over_htmx_returns_only_the_table(client_in: Client, read: Assessment) -> None:
    url = reverse("web:assessment", args=[read.pk])
    response = client_in.get(url, {"changes": "1"}, **HTMX)
    fragment = response.content.decode()
    assert fragment.lstrip().startswith('<div id="current-table"')
    assert "<html" not in fragment and "Compare with" not in fragment
    assert len(rows_of(fragment)) == 12


def test_htmx_restoring_history_gets_the_whole_page(client_in: Client, read: Assessment) -> None:
    url = reverse("web:assessment", args=[read.pk])
    response = client_in.get(url, {"changes": "1"}, HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HTMX)
    assert "<html" in response.content.decode()
    assert "HX-Request" in response["Vary"].split(", ")


def test_an_outsider_gets_404_for_the_filtered_table(
    outsider_client: Client, read: Assessment
) -> None:
    url = reverse("web:assessment", args=[read.pk])
    assert outsider_client.get(url, {"changes": "1"}, **HTMX).status_code == 404


def test_results_stored_before_the_comparison_still_show(read: Assessment) -> None:
    result = {k: v for k, v in json.loads(read.result_json).items() if k != "result_version"}
    result["recommendations"] = [
        {k: v for k, v in r.items() if k not in ("current", "status")}
        for r in result["recommendations"]
    ]
    rows = statuses.current_rows(read_result(result).recommendations)
    assert {r.current for r in rows} == {None}
    # Nothing was read then: a setting is unknown (the file sets it), not a change.
    assert {r.status for r in rows if r.setting == "CPUCOUNT"} == {"unknown"}
    assert {r.status for r in rows if r.target == "system"} == {"check"}


def test_the_report_lists_changes_first(read: Assessment) -> None:
    rows = report_context(read)["current_rows"]
    found = [r.status for r in rows]
    assert found == sorted(found, key=statuses.STATUS_ORDER.__getitem__)
    assert found.count("change") == 12 and found.count("keep") == 3
    html = render_report_html(read)
    assert "<h2>Current → recommended</h2>" in html
    assert "of 15 settings, 12 change and 3 already match; 12 are checks" in html
    assert "and 5 are advice." in html
    assert (
        '<tr class="status-change"><td class="setting">CPUCOUNT</td><td>sasv9_append.cfg</td>'
        '<td><span class="setting">4</span></td><td class="setting">8</td>'
        '<td class="status change">change</td></tr>' in html
    )
    first_keep = html.index('<tr class="status-keep">')
    assert html.rindex('<tr class="status-change">') < first_keep


def test_the_report_says_when_nothing_was_read(stored: Assessment) -> None:
    html = render_report_html(stored)
    assert "The current values were not read from the server" in html
