"""The result page says what to do with the files, after "Start here": the steps for the
saved assessment's own OS and files, commands in code blocks, nothing of another OS."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from advisor.assessments.services import assessment_create
from advisor.reports.services import render_report_html
from tests.conftest import example

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    """A page cached by an earlier run would hide the partial under test."""
    cache.clear()


def next_steps_of(client: Client, user: User, name: str) -> tuple[str, str]:
    """(the whole page, its Next steps section, unescaped)."""
    return next_steps_of_document(client, user, example(name))


def next_steps_of_document(client: Client, user: User, document: dict[str, Any]) -> tuple[str, str]:
    assessment, _ = assessment_create(user=user, document=document)
    response = client.get(reverse("web:assessment", args=[assessment.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    section = page.split('<section class="card next-steps"', 1)[1].split("</section>", 1)[0]
    return page, html.unescape(section)


def test_linux_steps_follow_start_here(client_in: Client, user: User) -> None:
    page, steps = next_steps_of(client_in, user, "linux-rhel9-sas94")
    assert (
        page.index('id="lead-h"') < page.index('id="next-steps-h"') < page.index('id="current-h"')
    )
    assert '<h2 id="next-steps-h">Next steps</h2>' in steps
    assert '<pre tabindex="0"><code>sh linux_tuning.sh -n</code></pre>' in steps
    assert '--sas-config "$SASROOT/sasv9_local.cfg"' in steps
    assert "rollback.sh" in steps
    assert "aix_tuning.sh" not in steps and "SPD Server" not in steps


def test_aix_spds_steps(client_in: Client, user: User) -> None:
    _, steps = next_steps_of(client_in, user, "power-smt8-spds53")
    assert '<pre tabindex="0"><code>sh aix_tuning.sh -n</code></pre>' in steps
    assert "Restart SPD Server" in steps and "cp -p spdsserv.parm spdsserv.parm.orig" in steps
    assert "tuned" not in steps and "linux_tuning.sh" not in steps


def test_windows_steps_have_no_script(client_in: Client, user: User) -> None:
    _, steps = next_steps_of(client_in, user, "windows-sas94")
    assert 'type sasv9_append.cfg >> "%SASROOT%\\nls\\en\\sasv9.cfg"' in steps
    assert "<code>sh " not in steps and ".sh" not in steps and "tuned" not in steps
    assert "style=" not in steps and "<script" not in steps


def test_the_report_action_plan_starts_with_the_same_steps(user: User) -> None:
    assessment, _ = assessment_create(user=user, document=example("aix73-sas94-1mb"))
    report = html.unescape(render_report_html(assessment))
    plan = report.split('id="plan"', 1)[1]
    assert plan.index('id="next-steps-h"') < plan.index('class="plan"')
    assert '<h3 id="next-steps-h">Next steps</h3>' in plan and '<h4 id="next-step-1">' in plan
    assert '<pre tabindex="0"><code>sh aix_tuning.sh -n</code></pre>' in plan
    assert "tuned" not in plan.split('class="plan"', 1)[0]


def test_the_page_opens_with_sasroot_and_verifies_on_this_assessment(
    client_in: Client, user: User
) -> None:
    assessment, _ = assessment_create(user=user, document=example("linux-rhel9-sas94"))
    response = client_in.get(reverse("web:assessment", args=[assessment.pk]))
    page = response.content.decode()
    steps = html.unescape(
        page.split('<section class="card next-steps"', 1)[1].split("</section>")[0]
    )
    assert steps.index("<code>SASROOT=/opt/sas/SASHome/SASFoundation/9.4   # edit:") < steps.index(
        '<ol class="next-steps-list">'
    )
    assert "calls this folder !SASROOT" in steps
    verify_page = reverse("web:verify", args=[assessment.pk])
    assert f'<a href="{verify_page}">Verify page of this assessment</a>' in steps
    api = f"http://testserver/api/v1/assessments/{assessment.pk}/verify"
    assert f"--data-binary @bundle.txt {api}</code>" in steps
    assert "python -m rules" not in steps and "!SASROOT/" not in steps


def test_the_report_names_the_api_path_and_links_nothing(user: User) -> None:
    assessment, _ = assessment_create(user=user, document=example("linux-rhel9-sas94"))
    report = html.unescape(render_report_html(assessment))
    steps = report.split('class="card next-steps"', 1)[1].split("</section>", 1)[0]
    assert f"at /api/v1/assessments/{assessment.pk}/verify as text/plain" in steps
    assert "<a href" not in steps and "curl" not in steps and "python -m rules" not in steps
    assert '--sas-config "$SASROOT/sasv9_local.cfg"' in steps


def test_windows_page_sets_sasroot_for_cmd(client_in: Client, user: User) -> None:
    document = example("windows-sas94")
    document["sas"]["install_path"] = "D:\\SAS\\SASHome"
    _, steps = next_steps_of_document(client_in, user, document)
    assert 'set "SASROOT=D:\\SAS\\SASHome\\SASFoundation\\9.4" & rem check:' in steps
    assert "Command Prompt (cmd.exe)" in steps, steps
    assert '"Authorization: Token %TOKEN%"' in steps, steps
