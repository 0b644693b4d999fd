"""Pages under hostile query strings and form posts: a 400 naming what is wrong, never a 500
(a NUL in the search reached PostgreSQL, which refuses NUL in text)."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.parametrize("url", ["/?q=a%00b", "/fleets/?host=%00", "/logs/?q=x%00"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(client_in: Client, url: str) -> None:
    client_in.raise_request_exception = False
    response = client_in.get(url)

    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_a_search_without_nul_still_searches(client_in: Client) -> None:
    assert client_in.get("/?q=lemans%25").status_code == 200


@pytest.mark.parametrize(
    "action", ["duplicate_row-abc", "duplicate_row-", "remove_row-9" * 40, "duplicate_row-٣"]
)
def test_a_row_button_with_a_bad_index_is_no_crash(client_in: Client, action: str) -> None:
    client_in.raise_request_exception = False
    data = {"storage-TOTAL_FORMS": "1", "duplicate_row-0": "", action: ""}

    response = client_in.post("/assessments/new/", data, HTTP_HX_REQUEST="true")

    assert response.status_code in (200, 400)
