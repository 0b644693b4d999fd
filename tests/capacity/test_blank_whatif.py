"""The capacity what-if starts blank: no run times until the user types theirs, chew's
worked example filled in only on request and labelled as the paper's, and every answer
opening with the inputs it was computed from, this server's CPUs named as such."""

from __future__ import annotations

import pytest
from django.test import Client

from advisor.capacity import whatif
from advisor.capacity.forms import CHEW_EXAMPLE, CHEW_SINGLE_TEXT
from advisor.models import Assessment
from tests.capacity.test_views import HTMX, example_in, url

pytestmark = pytest.mark.django_db


def test_the_what_if_starts_without_run_times(rhel_assessment: Assessment) -> None:
    values = whatif.initial(rhel_assessment)
    assert values["single"] == "" and values["concurrent"] == ""
    assert (values["cpus"], values["jobs"], values["cpucount"]) == (32, 24, 4)


def test_the_example_fills_the_form_and_is_labelled_as_the_papers(
    client_in: Client, rhel_assessment: Assessment
) -> None:
    blank = client_in.get(url(rhel_assessment)).content.decode()
    assert "Example from chew: PROC LOESS on an 8-CPU box — fill it in" in blank
    assert "The paper's measurements, not this server's" in blank
    assert f'href="{url(rhel_assessment)}?example=chew"' in blank  # works without JavaScript
    assert example_in(blank) == CHEW_EXAMPLE

    filled = client_in.get(url(rhel_assessment) + "?example=chew").content.decode()
    assert f'name="single" value="{CHEW_SINGLE_TEXT}"' in filled
    assert 'name="cpus" type="number" min="1" value="8"' in filled  # chew's box, not this one
    assert 'name="jobs" type="number" min="1" value="63"' in filled


def test_an_answer_from_the_example_says_whose_times_they_are(
    client_in: Client, rhel_assessment: Assessment
) -> None:
    page = client_in.post(url(rhel_assessment), CHEW_EXAMPLE, **HTMX).content.decode()
    assert (
        "With chew&#x27;s times from the paper (PROC LOESS on an 8-CPU box, not this server) "
        "1=21:31, 2=12:16, 4=6:34, 6=5:06, 8=4:04 and concurrent runs 2=6:47, 3=9:38, at "
        "CPUCOUNT 8 and 63 jobs on 8 CPUs (this server has 32):"
    ) in page


def test_an_answer_names_the_users_inputs(client_in: Client, rhel_assessment: Assessment) -> None:
    data = {"single": "1=20:15, 4=6:10", "concurrent": "", "jobs": "6", "cpucount": "",
            "cpus": "32"}  # fmt: skip
    page = client_in.post(url(rhel_assessment), data, **HTMX).content.decode()
    assert (
        "With your times 1=20:15, 4=6:10, at CPUCOUNT 4 (recommended) and 6 jobs on this "
        "server&#x27;s 32 CPUs:"
    ) in page
    assert "6 jobs at CPUCOUNT=4 on 32 CPUs" in page


def test_an_empty_time_is_refused_naming_the_field(
    client_in: Client, rhel_assessment: Assessment
) -> None:
    data = {**whatif.initial(rhel_assessment)}
    response = client_in.post(url(rhel_assessment), data)
    assert response.status_code == 400
    assert "Single-job times (CPUCOUNT=mm:ss): This field is required." in response.content.decode()
