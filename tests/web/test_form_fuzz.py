"""The inventory form under any text at all: saved, previewed, or its rows changed, the
answer is the form (200 or 400 with its errors), never a 500 and never a half-stored
assessment. Every field of a real form is replaced by hypothesis' text in turn."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.assessments.inventory_form import data_from_document
from advisor.models import Assessment
from tests.conftest import example

FORM = data_from_document(example("lemans-aix53-etl"))
HOSTILE = st.one_of(
    st.text(max_size=60),
    st.sampled_from(["9" * 400, "-1e999", "nan", "inf", "0x10", "\x00", " ", "١٢"]),
)
URLS = ["/assessments/new/", "/assessments/preview/"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(field=st.sampled_from(sorted(FORM)), value=HOSTILE, url=st.sampled_from(URLS),
       row_action=st.sampled_from(["", "add_row", "duplicate_row-0", "remove_row-x"]))  # fmt: skip
def test_any_text_in_any_field_is_an_answer_not_a_500(
    client_in: Client, field: str, value: str, url: str, row_action: str
) -> None:
    client_in.raise_request_exception = False
    data: dict[str, Any] = {**FORM, field: value}
    if row_action:
        data[row_action] = ""
    before = Assessment.objects.count()

    response = client_in.post(url, data, HTTP_HX_REQUEST="true" if row_action else "")

    assert response.status_code in (200, 302, 400), (field, value, response.status_code)
    stored = Assessment.objects.count() - before
    assert stored == (1 if response.status_code == 302 else 0)
