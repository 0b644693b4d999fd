"""The capacity what-if's pages: GET fills the form in from the assessment, POST answers
with the result (a fragment for htmx, the page with a link back without JavaScript), a
single measured time is accepted with its assumption shown, and bad input names the field."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from advisor.capacity import whatif
from advisor.capacity.forms import CHEW_CONCURRENT_TEXT, CHEW_EXAMPLE, CHEW_SINGLE_TEXT
from advisor.models import Assessment
from tests.stored_results import replace_result

HTMX = {"HTTP_HX_REQUEST": "true"}
CHEW = {"single": CHEW_SINGLE_TEXT, "concurrent": CHEW_CONCURRENT_TEXT, "jobs": "63",
        "cpucount": "8", "cpus": "8"}  # fmt: skip


def example_in(page: str) -> dict[str, str]:
    """The values the "Example from chew" link fills in (its data-example)."""
    found = re.search(r"data-example='([^']*)'", page)
    assert found is not None
    return dict(json.loads(html.unescape(found.group(1))))


def url(assessment: Assessment) -> str:
    return reverse("reports:capacity", args=[assessment.pk])


def test_get_shows_the_form_filled_in_from_this_server(
    client_in: Client, rhel_assessment: Assessment
) -> None:
    response = client_in.get(url(rhel_assessment))
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="cpus" type="number" min="1" value="32"' in page
    assert 'name="cpucount" type="number" min="1" value="4"' in page  # the recommended one
    assert 'name="jobs" type="number" min="1" value="24"' in page  # peak SAS sessions
    # No run times: they are this server's to measure (chew's are an example on request).
    assert 'name="single" value=""' in page and 'id="capacity-result"' in page
    assert f'href="{reverse("web:assessment", args=[rhel_assessment.pk])}"' in page
    assert "<svg" not in page  # nothing predicted before the form is sent


def test_cpucount_falls_back_to_the_cpus_without_a_recommendation(
    rhel_assessment: Assessment,
) -> None:
    result = rhel_assessment.result
    result["recommendations"] = [r for r in result["recommendations"] if r["setting"] != "CPUCOUNT"]
    replace_result(rhel_assessment, result)
    assert whatif.recommended_cpucount(rhel_assessment) == 32
    assert whatif.initial(rhel_assessment)["cpucount"] == 32


def test_without_javascript_the_result_is_a_page_that_links_back(
    client_in: Client, rhel_assessment: Assessment
) -> None:
    data = {**CHEW, "cpucount": "", "cpus": "32", "jobs": "40"}
    response = client_in.post(url(rhel_assessment), data)
    page = response.content.decode()
    assert response.status_code == 200 and "<html" in page
    assert "40 jobs at CPUCOUNT=4 on 32 CPUs" in page  # blank CPUCOUNT: the recommended
    assert page.count(f'href="{reverse("web:assessment", args=[rhel_assessment.pk])}"') == 2
    assert f'value="{CHEW_SINGLE_TEXT}"' in page and 'value="40"' in page  # kept as typed
    assert "At this server's peak of 24 SAS sessions: about" in page
    assert "<g class='sessions-mark' data-sessions='24'>" in page
    assert "this server: 24 sessions" in page


def test_htmx_answers_with_the_result_fragment_only(
    client_in: Client, lemans_assessment: Assessment
) -> None:
    response = client_in.post(url(lemans_assessment), CHEW, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body and "<form" not in body
    assert body.lstrip().startswith('<div id="capacity-result"')
    assert "about 175.8 min each" in body
    assert body.count("<circle class='measured'") == 2
    assert ">2 jobs: 6.8 min</text>" in body and ">3 jobs: 9.6 min</text>" in body


def test_the_extrapolation_is_stated_beside_the_curve(
    client_in: Client, lemans_assessment: Assessment
) -> None:
    body = client_in.post(url(lemans_assessment), CHEW, **HTMX).content.decode()
    assert (
        '<p class="capacity-note"><strong>Extrapolated.</strong> Beyond 3 concurrent jobs' in body
    )
    assert "from the 2 measured concurrent runs" in body
    assert "class='extrapolated'" in body and "extrapolated past 3 jobs" in body
    alone = client_in.post(url(lemans_assessment), {**CHEW, "concurrent": ""}, **HTMX)
    assert "No concurrent runs were measured" in alone.content.decode()


def test_a_single_measured_time_is_accepted_with_its_assumption_stated(
    client_in: Client, lemans_assessment: Assessment
) -> None:
    data = {**CHEW, "single": "8=4:04", "concurrent": "", "jobs": "8"}
    response = client_in.post(url(lemans_assessment), data)
    page = response.content.decode()
    assert response.status_code == 200 and "about " in page
    assert "<strong>Assumed.</strong> Only one single-job time was given" in page
    assert "chew&#x27;s PROC LOESS" in page and "CPUCOUNT=8" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"single": ""}, "Single-job times (CPUCOUNT=mm:ss): This field is required."),
        ({"single": "8=4:04, 8=4:10"}, "Single-job times (CPUCOUNT=mm:ss): Give one time per"),
        ({"single": "eight"}, "Single-job times (CPUCOUNT=mm:ss): “eight” is not CPUCOUNT="),
        ({"concurrent": "2=x"}, "Concurrent runs at that CPUCOUNT (jobs=mm:ss, optional):"),
        ({"jobs": "0"}, "Concurrent jobs: Ensure this value is greater than or equal to 1."),
        ({"cpus": "many"}, "CPUs: Enter a whole number."),
        ({"cpucount": "-3"}, "CPUCOUNT: Ensure this value is greater than or equal to 1."),
    ],
)
def test_bad_input_names_the_field(
    client_in: Client, lemans_assessment: Assessment, change: dict[str, str], message: str
) -> None:
    plain = client_in.post(url(lemans_assessment), {**CHEW, **change})
    assert plain.status_code == 400 and message in plain.content.decode()
    htmx = client_in.post(url(lemans_assessment), {**CHEW, **change}, **HTMX)
    assert htmx.status_code == 200 and 'role="alert"' in htmx.content.decode()


def test_outsiders_get_404_and_strangers_the_login(
    client: Client, outsider_client: Client, lemans_assessment: Assessment
) -> None:
    assert outsider_client.get(url(lemans_assessment)).status_code == 404
    assert outsider_client.post(url(lemans_assessment), CHEW).status_code == 404
    assert client.get(url(lemans_assessment)).status_code == 302


def test_other_methods_are_refused(client_in: Client, lemans_assessment: Assessment) -> None:
    assert client_in.put(url(lemans_assessment)).status_code == 405


def test_the_assessment_page_panel_takes_cpus_and_jobs_from_the_server(
    rhel_assessment: Assessment,
) -> None:
    # Drawn without reading the stored result: CPUCOUNT is left blank for the view to fill.
    panel = render_to_string("capacity/assessment_panel.html", {"assessment": rhel_assessment})
    assert 'name="cpus" type="number" min="1" value="32"' in panel
    assert 'name="jobs" type="number" min="1" value="24"' in panel
    assert 'name="cpucount" type="number" min="1" value=""' in panel
    assert "Blank: the CPUCOUNT recommended for this server." in panel
    # The times start empty; the example the link fills in is the form's own.
    assert 'name="single" value=""' in panel and 'name="concurrent" value=""' in panel
    assert example_in(panel) == CHEW_EXAMPLE
    assert "advisor/capacity.css" in panel and "<style" not in panel
