"""API docs that work offline (Swagger UI and ReDoc from our own static files), and every
readable endpoint answering a logged-in member's browser in JSON (the API has no HTML
pages of its own: the docs are the pages)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.api.conftest import BROWSER_ACCEPT

ASSET = re.compile(r'<(?:script|link|img)\b[^>]*?(?:src|href)="([^"]+)"', re.IGNORECASE)


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_the_docs_load_nothing_from_another_server(client_in: Client, page: str) -> None:
    response = client_in.get(page)
    assert response.status_code == 200
    assets = ASSET.findall(response.content.decode())
    assert assets, "the page loads its viewer"
    for asset in assets:
        assert not re.match(r"(?i)(https?:)?//", asset), asset
        if asset.startswith("/static/"):
            assert finders.find(asset.removeprefix("/static/").split("?")[0]), asset


def test_every_readable_endpoint_answers_a_browser_in_json(
    client_in: Client, user: Any, lemans: dict[str, Any]
) -> None:
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(user=user, document=lemans)
    for path in (
        "/api/v1/assessments/", f"/api/v1/assessments/{assessment.pk}/", "/api/v1/rules/",
        "/api/v1/health/", "/api/v1/logs/", "/api/v1/fleets/", "/api/v1/webhooks/",
    ):  # fmt: skip
        response = client_in.get(path, HTTP_ACCEPT=BROWSER_ACCEPT)
        assert response.status_code == 200, path
        assert response["Content-Type"] == "application/json", path
        assert client_in.get(path, HTTP_ACCEPT="text/html").status_code == 406, path


def test_no_page_loads_an_asset_from_another_server(
    client_in: Client, user: Any, lemans: dict[str, Any]
) -> None:
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(user=user, document=lemans)
    pages = [
        "/", "/assessments/new/", "/assessments/from-server/", f"/assessments/{assessment.pk}/",
        f"/assessments/{assessment.pk}/verify/",
        f"/assessments/{assessment.pk}/compare/{assessment.pk}/", "/logs/", "/fleets/",
        "/webhooks/", "/api/docs/", "/api/redoc/", "/accounts/login/",
    ]  # fmt: skip
    for page in pages:
        response = client_in.get(page)
        assert response.status_code == 200, page
        for asset in ASSET.findall(response.content.decode()):
            assert not re.match(r"(?i)(https?:)?//", asset), (page, asset)
