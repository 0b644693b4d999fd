"""The verify page holds the bundle against the advice the assessment gave, as stored by
the rules of its day; a bundle of another host or OS is refused naming both, and the
"renamed" box accepts another host name, never another OS."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment, Organisation
from tests.stored_results import LEMANS_2026_11_0, RHEL9_2026_11_1, rhel9_reading, save_stored
from tests.web.test_verify_page import table_rows

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


@pytest.fixture
def sasgrid(org: Organisation) -> Assessment:
    return save_stored(org, RHEL9_2026_11_1)


def url(assessment: Assessment) -> str:
    return reverse("web:verify", args=[assessment.pk])


def test_an_assessment_of_older_rules_verifies_against_its_own_advice(
    client_in: Client, sasgrid: Assessment
) -> None:
    response = client_in.post(url(sasgrid), {"text": rhel9_reading()})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Against the advice this assessment gave (rules 2026.11.1) for " \
           "sasgrid01.example.com; the reading is of sasgrid01." in page  # fmt: skip
    assert '<span class="badge drift">0 not compliant</span>' in page
    assert '<span class="badge status keep">9 compliant</span>' in page
    rows = table_rows(page)
    assert "BUFSIZE" in [s for c, s, _ in rows if c == "compliant"]
    assert "vm.swappiness" not in page  # today's rules would set it; this advice did not


def test_the_form_offers_the_renamed_box(client_in: Client, sasgrid: Assessment) -> None:
    page = client_in.get(url(sasgrid)).content.decode()
    assert 'type="checkbox" name="allow_renamed_host"' in page
    assert '<label for="id_allow_renamed_host">The server was renamed since the assessment' \
           "</label>" in page  # fmt: skip


def test_another_host_is_refused_naming_both(client_in: Client, sasgrid: Assessment) -> None:
    response = client_in.post(url(sasgrid), {"text": rhel9_reading(host="web07")}, **HTMX)
    fragment = response.content.decode()
    assert response.status_code == 400
    assert fragment.lstrip().startswith('<section id="verify-result"')
    assert (
        "<p>The reading is of host web07 (from `hostname`, line 6), the assessment of "
        "sasgrid01.example.com.</p><p>If the server was renamed since the assessment, tick "
        "\u201cThe server was renamed\u201d and verify again.</p>" in fragment
    )
    assert "verify-table" not in fragment


def test_the_renamed_box_verifies_another_host_name(client_in: Client, sasgrid: Assessment) -> None:
    sent = {"text": rhel9_reading(host="web07"), "allow_renamed_host": "on"}
    page = client_in.post(url(sasgrid), sent).content.decode()
    assert "the reading is of web07." in page
    assert (
        '<p class="note">The reading is of host web07, the assessment of '
        "sasgrid01.example.com: verified as the same server renamed.</p>" in page
    )
    assert '<span class="badge status keep">9 compliant</span>' in page


def test_another_os_is_refused_even_renamed(client_in: Client, org: Organisation) -> None:
    lemans = save_stored(org, LEMANS_2026_11_0)
    for sent in ({}, {"allow_renamed_host": "on"}):
        response = client_in.post(url(lemans), {"text": rhel9_reading(host="lemans"), **sent})
        page = response.content.decode()
        assert response.status_code == 400
        assert (
            "<p>The reading is of Linux (from `uname -a`, line 3), the assessment of AIX: a "
            "reading of another OS cannot verify this advice.</p>" in page
        )
        assert "tick \u201cThe server was renamed\u201d" not in page


def test_a_reading_without_a_host_name_says_so(client_in: Client, sasgrid: Assessment) -> None:
    text = "$ cat /opt/sas/sasv9_local.cfg\n-MEMSIZE 4G\n"
    page = client_in.post(url(sasgrid), {"text": text}).content.decode()
    assert (
        '<p class="note">The reading names no host, so it could not be checked that it is '
        "sasgrid01.example.com.</p>" in page
    )
    assert '<p class="note">The reading does not tell its OS' in page


def test_an_outsider_gets_404(outsider_client: Client, sasgrid: Assessment) -> None:
    assert outsider_client.post(url(sasgrid), {"text": rhel9_reading()}).status_code == 404
