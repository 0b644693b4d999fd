"""The report says which advice is the five papers' and which is later guidance (vendor
and SAS documentation past the papers), per item and in its list of sources."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.reports.services import render_report_html
from rules.sources import PAPERS, grounds
from tests.conftest import EXAMPLES

pytestmark = pytest.mark.django_db


def test_grounds_names_whose_guidance_an_item_rests_on() -> None:
    assert grounds(("chew", "xu")) == "papers"
    assert grounds(("sas94-cpucount",)) == "later"
    assert grounds(("chew", "sas94-cpucount")) == "papers and later"
    assert grounds(()) == ""


def test_the_report_marks_later_guidance_and_lists_its_sources_apart(user: User) -> None:
    document = json.loads((EXAMPLES / "aws-i4i-rhel9-sas94m8.json").read_text(encoding="utf-8"))
    assessment, _ = assessment_create(user=user, document=document)
    html = render_report_html(assessment)
    items = assessment.result["recommendations"] + assessment.result["warnings"]
    said = {grounds(tuple(item["sources"])) for item in items} - {""}
    assert {"papers", "later"} <= said  # this cloud server gets both kinds of advice
    assert html.count("later guidance, not in the papers") == sum(
        grounds(tuple(i["sources"])) == "later" for i in items
    )
    papers, later = html.split("<h3>Later guidance: vendor and SAS documentation", 1)
    listed = re.findall(r'<li id="src-([^"]+)">', papers.rsplit("<h3>The papers</h3>", 1)[1])
    assert listed and set(listed) <= set(PAPERS)
    listed_later = re.findall(r'<li id="src-([^"]+)">', later)
    assert listed_later and not set(listed_later) & set(PAPERS)
