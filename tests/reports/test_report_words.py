"""The report names the OS as its vendor does and says what was measured on the server."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.assessments.services import assessment_create
from advisor.models import Report
from advisor.reports.services import report_build
from tests.conftest import example


def _front(document: dict[str, Any], user: User) -> str:
    assessment, _ = assessment_create(user=user, document=document)
    done = report_build(report_id=Report.objects.create(assessment=assessment).pk)
    html = done.html
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[: html.index('id="scope"') + 4000]))


@pytest.mark.slow  # builds a PDF
def test_debian_is_named_and_a_measured_file_system_is_said(user: User) -> None:
    document = copy.deepcopy(example("linux-rhel9-sas94"))
    document["server"] |= {"distribution": "debian", "os_version": "12"}
    document["storage"][0] |= {"measured_read_mb_s": 1600, "measured_write_mb_s": 1200}
    text = _front(document, user)
    assert "(Debian 12, 32 CPUs" in text and "sascomp09: Debian 12 with" in text
    assert "Linux 12" not in text
    assert "Throughput was measured on the server on /saswork;" in text
    assert "Nothing was measured" not in text


@pytest.mark.slow  # builds a PDF
def test_nothing_measured_is_said_when_nothing_was(user: User) -> None:
    text = _front(copy.deepcopy(example("linux-rhel9-sas94")), user)
    assert "(RHEL 9.4, 32 CPUs" in text and "Nothing was measured on the server" in text
