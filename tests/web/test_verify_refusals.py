"""The verify page's refusals stand on the page itself: a bundle of another host is a 400
naming both hosts above the form, the paste kept and the "renamed" box there to accept it;
a body over the bundle limit is the verify page again (413), never the site's page nested
in the form's result."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment, Organisation
from tests.stored_results import RHEL9_2026_11_1, rhel9_reading, save_stored
from tests.web.test_verify_page import newer_bundle, saved

__all__ = ["saved"]  # the fixture: the assessment saved from a Linux transcript

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db
DIFFERS = (
    "<p>The reading is of host web07 (from `hostname`, line 6), the assessment of "
    "sasgrid01.example.com.</p>"
)


@pytest.fixture
def sasgrid(org: Organisation) -> Assessment:
    return save_stored(org, RHEL9_2026_11_1)


def url(assessment: Assessment) -> str:
    return reverse("web:verify", args=[assessment.pk])


def textarea(page: str) -> str:
    found = re.search(r'<textarea name="text"[^>]*>\n?(.*?)</textarea>', page, re.S)
    assert found is not None
    return found.group(1)


def test_another_host_is_the_page_again_with_the_paste_and_the_renamed_box(
    client_in: Client, sasgrid: Assessment
) -> None:
    text = rhel9_reading(host="web07")
    response = client_in.post(url(sasgrid), {"text": text})
    page = response.content.decode()
    assert response.status_code == 400
    assert "<h1>Verify " in page and 'href="/static/' in page  # the page in its layout
    errors = page.index('<div id="reading-errors" class="errors" role="alert">' + DIFFERS)
    assert errors < page.index('<textarea name="text"')  # above the box it is about
    assert 'type="checkbox" name="allow_renamed_host"' in page
    assert textarea(page).count("web07") == text.count("web07")  # the paste is kept
    assert "verify-table" not in page


def test_the_renamed_box_ticked_then_verifies(client_in: Client, sasgrid: Assessment) -> None:
    sent = {"text": rhel9_reading(host="web07"), "allow_renamed_host": "on"}
    response = client_in.post(url(sasgrid), sent)
    page = response.content.decode()
    assert response.status_code == 200
    assert '<div id="reading-errors" class="errors" role="alert"></div>' in page
    box = re.search(r'<input type="checkbox" name="allow_renamed_host"[^>]*>', page)
    assert box is not None and " checked" in box.group(0)  # ticked as it was sent
    assert '<span class="badge status keep">9 compliant</span>' in page


def test_over_htmx_the_refusal_goes_above_the_form_out_of_band(
    client_in: Client, sasgrid: Assessment
) -> None:
    response = client_in.post(url(sasgrid), {"text": rhel9_reading(host="web07")}, **HTMX)
    fragment = response.content.decode()
    assert response.status_code == 400
    assert fragment.lstrip().startswith('<section id="verify-result"')
    assert (
        '<div id="reading-errors" class="errors" hx-swap-oob="true" role="alert">' + DIFFERS
        in fragment
    )
    assert "<form" not in fragment and "<html" not in fragment
    # A verify that succeeds empties the box.
    sent = {"text": rhel9_reading(), "allow_renamed_host": ""}
    fragment = client_in.post(url(sasgrid), sent, **HTMX).content.decode()
    assert '<div id="reading-errors" class="errors" hx-swap-oob="true" role="alert"></div>' in (
        fragment
    )


def test_the_page_checks_a_paste_before_sending_it(client_in: Client, sasgrid: Assessment) -> None:
    page = client_in.get(url(sasgrid)).content.decode()
    assert re.search(r'<script src="/static/advisor/paste_limit\.[\w.]*js" defer>', page)
    box = re.search(r"<textarea [^>]*>", page)
    assert box is not None
    assert 'data-max-bytes="8388608"' in box.group(0)
    assert 'aria-describedby="reading-errors"' in box.group(0)
    assert '<div id="reading-errors" class="errors" role="alert"></div>' in page


def _too_large(client: Client, assessment: Assessment, settings: Any, **extra: Any) -> Any:
    data = b"x" * (settings.MAX_BUNDLE_BYTES + 1)
    upload = SimpleUploadedFile("big.txt", data, "text/plain")
    return client.post(url(assessment), {"upload": upload}, **extra)


def test_a_body_over_the_limit_is_the_verify_page_with_the_refusal(
    client_in: Client, sasgrid: Assessment, settings: Any
) -> None:
    response = _too_large(client_in, sasgrid, settings)
    page = response.content.decode()
    assert response.status_code == 413
    assert "<h1>Verify " in page and page.count("<html") == 1
    assert '<div id="reading-errors" class="errors" role="alert"><p>What was sent is 8 MB' in page
    assert "the limit is 8 MB. It was not read" in page


def test_over_htmx_a_body_over_the_limit_answers_the_partial(
    client_in: Client, sasgrid: Assessment, settings: Any
) -> None:
    response = _too_large(client_in, sasgrid, settings, **HTMX)
    fragment = response.content.decode()
    assert response.status_code == 413
    assert fragment.lstrip().startswith('<section id="verify-result"')
    assert "<html" not in fragment and "<form" not in fragment
    assert 'hx-swap-oob="true" role="alert"><p>What was sent is 8 MB' in fragment


def test_an_outsider_gets_404_for_a_body_over_the_limit(
    outsider_client: Client, sasgrid: Assessment, settings: Any
) -> None:
    assert _too_large(outsider_client, sasgrid, settings).status_code == 404


def test_the_table_says_settings_and_values_as_the_result_page_does(
    client_in: Client, saved: Assessment
) -> None:
    page = client_in.post(url(saved), {"text": newer_bundle(saved)}).content.decode()
    body = page.split("verify-table", 1)[1].split("</table>", 1)[0]
    for raw in ("(on)", "&gt;16384", "elevator:", "limits:", "readahead<", "read_ahead_kb"):
        assert raw not in body
    rows = re.findall(r'<th scope="row"><code>([^<]*)</code></th>\s*<td[^>]*>[^<]*</td>\s*'
                      r'<td data-label="Recommended"><code>([^<]*)</code>', body)  # fmt: skip
    shown = dict(rows)
    assert shown["read-ahead"] == "≥ 16384 KB"
    assert shown["I/O scheduler (disk)"] == "mq-deadline"
    assert shown["THREADS"] == shown["FULLSTIMER"] == "on"
    assert shown["nofile"] == shown["nproc"] == "10240"
    hows = dict(re.findall(r'<th scope="row"><code>([^<]*)</code></th>.*?'
                           r'data-label="How to verify">([^<]*)</td>', body, re.S))  # fmt: skip
    assert "--measure DIR" in html.unescape(hows["I/O throughput target"])
    assert "`su - sas -c 'ulimit -n'`" in html.unescape(hows["nofile"])
    assert "limits.d" in hows["nproc"] and "advice for jobs" not in hows["nproc"]
    assert "tuned-adm active" in hows["governor"] and "read-only" not in hows["governor"]
