"""The compare page in the form's words: choices by their labels (Linux, Debian), the
workload mix as percentages, and the Why column in plain words with the rule's own text
behind a "why?" as on the result page."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from advisor.assessments.services import assessment_create
from rules.compare_inventories import compare, percent
from rules.result_records import ResultDocument
from tests.conftest import example

pytestmark = pytest.mark.django_db


def _debian(doc: dict[str, Any]) -> dict[str, Any]:
    moved = copy.deepcopy(doc)
    moved["server"] |= {"distribution": "debian", "os_version": "12"}
    moved["workload"]["mix"] = {"etl": 1.0}
    return moved


@pytest.fixture
def page(client_in: Client, user: User) -> str:
    rhel = example("linux-rhel9-sas94")
    before, _ = assessment_create(user=user, document=rhel)
    after, _ = assessment_create(user=user, document=_debian(rhel))
    response = client_in.get(reverse("web:compare", args=[before.pk, after.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_choices_and_the_mix_read_as_on_the_form(page: str) -> None:
    assert '<td data-label="Before">Linux</td>' in page
    assert '<td data-label="Before">RHEL</td><td data-label="After">Debian</td>' in page
    assert '<td data-label="After">100 %</td>' in page
    assert '<td data-label="After">debian</td>' not in page
    assert '<td data-label="Before">linux</td>' not in page


def test_the_why_column_is_plain_with_the_rules_text_behind_why(page: str) -> None:
    cells = page.split('<td data-label="Why">')[1:]
    assert cells, "no setting differs"
    for cell in cells:
        shown, _, behind = cell.partition('<details class="why">')
        assert "<summary>why?</summary>" in behind and "Rule <code>" in behind
        assert not re.search(r"\bl\.\s?\d", shown), shown  # no paper line references
        assert not re.search(r"\b(bartucca2005|chew|memory\.memsize)\b", shown), shown
    assert any(re.search(r"\bl\.\s?\d", cell) for cell in cells)  # they are behind "why?"


def test_the_mix_is_a_percentage_and_a_choice_is_marked() -> None:
    assert (percent(1.0), percent(0.125), percent(0.3), percent(None)) == (
        "100 %", "12.5 %", "30 %", "not given",
    )  # fmt: skip
    a, b = example("linux-rhel9-sas94"), _debian(example("linux-rhel9-sas94"))
    cmp = compare(a, b, ResultDocument(), ResultDocument())
    rows = {r.label: r for g in cmp.groups for r in g.rows}
    assert rows["Linux distribution"].choice and (rows["Linux distribution"].b == "debian")
    assert rows["Workload mix: ETL, sort, merge"].b == "100 %"
    assert not rows["Host name"].choice
