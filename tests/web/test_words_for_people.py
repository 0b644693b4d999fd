"""Words for people: the result page, the form's preview and the PDF report of every
example the form offers name what they speak of as an admin does. No contract path
(`storage[0].role`), no raw field name of the contract (`ram_gb`) and no line of a paper
(`chew l.96`) shows outside the "why?" expanders, where the line references stay for
whoever checks them (and in recommendations.json, unchanged)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from advisor.assessments.inventory_form import data_from_document
from advisor.assessments.services import assessment_create
from advisor.assessments.views import examples
from tests.reports.test_pdf import built_pdf, pdf_text, require_poppler
from tests.web.visible_text import LINE_CITATION, internals, outside_why, visible_text

EXAMPLES = sorted(examples())
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_result_page_speaks_in_words(name: str, user: User, client_in: Client) -> None:
    assessment, _ = assessment_create(user=user, document=examples()[name]["document"])
    page = client_in.get(reverse("web:assessment", args=[assessment.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert internals(visible_text(html)) == []
    assert '<details class="why">' in html  # the line references are kept, behind "why?"


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_preview_speaks_in_words(name: str, client_in: Client) -> None:
    data = data_from_document(examples()[name]["document"])
    page = client_in.post(reverse("web:preview"), data)
    assert page.status_code == 200
    html = page.content.decode()
    assert internals(visible_text(html)) == []
    assert '<details class="why">' in html  # the preview shows the advice, not problems


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
def test_the_pdf_report_speaks_in_words(name: str, user: User) -> None:
    require_poppler()
    assessment, _ = assessment_create(user=user, document=examples()[name]["document"])
    text = pdf_text(built_pdf(assessment, f"words-{name}"))
    flat = " ".join(text.split())
    why = flat[flat.rindex("Why: the papers' lines") :]
    assert LINE_CITATION.search(why) or "l." not in flat  # kept, in the "why?" chapter
    assert internals(outside_why(text)) == []


def test_the_scan_finds_what_a_reader_would_see() -> None:
    html = (
        "<p>storage[0].role, ram_gb and chew l.96</p><p>storage[].san</p>"
        '<details class="why"><summary>why?</summary><p>server.cores l.12</p></details>'
        "<pre>l.3 total_data_gb</pre><p>99-sas.conf, https://support.sas.com/x</p>"
    )
    # storage[0].role, storage[].san, ram_gb and l.96; not what "why?" or <pre> holds, not
    # a file name or a web address
    assert len(internals(visible_text(html))) == 4
    contents = "Why: the papers' lines\nAppendix: generated files"
    pdf = "Sources: Chew 2002 x\nWhy: the papers' lines\nTHREADS on: Chew 2002\n  l.96, l.582"
    assert internals(outside_why(f"{contents}\n{pdf}\nAppendix: generated files\nl.1")) == []
    assert len(internals(outside_why(f"{contents}\nChew 2002 l.96\n{pdf}"))) == 1
