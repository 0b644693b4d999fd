"""The capacity what-if under hostile input: 400-digit numbers, too many pairs, NUL, any
text at all in the form; deep nesting and form bodies on the API. A 400 (or the form
with its errors), never a 500."""

from __future__ import annotations

import re
import string
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from advisor.models import Assessment

BASE = {"single": "1=21:31, 8=4:04", "concurrent": "", "jobs": "30", "cpucount": "8", "cpus": "8"}
HUGE = "9" * 400


def url(assessment: Assessment) -> str:
    return f"/assessments/{assessment.pk}/capacity/"


@pytest.mark.parametrize(
    "change",
    [
        {"single": f"1={HUGE}, 8=4:04"},
        {"single": f"1{'0' * 400}=21:31, 8=4:04"},
        {"concurrent": f"2={HUGE}"},
        {"concurrent": f"{HUGE}=6:47"},
        {"single": ", ".join(f"{n}=1" for n in range(1, 200))},
        {"single": "1=21:31\x00, 8=4:04"},
        {"single": "1=0.0000001, 8=4:04"},
        {"jobs": HUGE},
    ],
)
def test_the_form_refuses_numbers_out_of_range(
    client_in: Client, assessment: Assessment, change: dict[str, str]
) -> None:
    response = client_in.post(url(assessment), {**BASE, **change})
    assert response.status_code == 400
    assert b"errorlist" in response.content or b"errors" in response.content


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    single=st.text(string.digits + "=:., \x00-e", max_size=80),
    concurrent=st.text(string.digits + "=:., ", max_size=40),
)
def test_any_text_in_the_form_is_an_answer_not_a_500(
    client_in: Client, assessment: Assessment, single: str, concurrent: str
) -> None:
    response = client_in.post(url(assessment), {**BASE, "single": single, "concurrent": concurrent})
    assert response.status_code in (200, 400)


def test_the_api_takes_json_only_and_survives_deep_nesting(api: APIClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert api.post("/api/v1/capacity/", deep, content_type="application/json").status_code == 400
    form = api.post("/api/v1/capacity/", {"jobs": "3"})
    assert form.status_code == 415


def test_the_api_refuses_huge_numbers_by_field(api: APIClient) -> None:
    body: dict[str, Any] = {
        "single": [{"cpucount": 1, "minutes": 21.52}, {"cpucount": 8, "minutes": 4.07}],
        "jobs": int(HUGE), "cpucount": 8, "cpus": 8,
    }  # fmt: skip
    response = api.post("/api/v1/capacity/", body, format="json")
    assert response.status_code == 400 and "jobs" in response.json()["errors"]


@pytest.mark.parametrize(
    "change",
    [{"single": "1=0.001, 4096=1000000", "jobs": "10000", "cpucount": "4096", "cpus": "4096"},
     {"single": "1=1000000, 2=0.001", "concurrent": "10000=0.001", "jobs": "1"},
     {"single": "1=5, 2=5", "jobs": "10000", "cpucount": "1", "cpus": "1"}],
)  # fmt: skip
def test_charts_at_the_bounds_stay_finite(
    client_in: Client, assessment: Assessment, change: dict[str, str]
) -> None:
    response = client_in.post(url(assessment), {**BASE, **change})
    page = response.content.decode()

    assert response.status_code in (200, 400)
    for chart in page.split("<svg")[1:]:
        svg = chart.split("</svg>")[0]
        numbers = re.findall(r"(?<![\w.])-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|nan|inf)\b", svg)
        assert not [n for n in numbers if n in ("nan", "inf") or "e" in n.lower()], numbers
        assert svg.count("<text") < 200  # ticks, not one label per job
