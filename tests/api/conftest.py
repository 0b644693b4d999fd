"""Fixtures for the REST API tests: they run on PostgreSQL, as production does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.conftest import require_service

ASSESSMENTS = "/api/v1/assessments/"
ADVICE = "/api/v1/advice/"
# What a browser sends: HTML first, anything at last. The API answers it in JSON.
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture(autouse=True)
def _postgres() -> None:
    # Key order, JSON storage and integer ranges differ on SQLite: insist on the real thing.
    require_service("PostgreSQL", "127.0.0.1", 5432)


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # Throttle counters live in the cache; no test may inherit another's.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def stored(api: APIClient, lemans: dict[str, Any]) -> dict[str, Any]:
    """An assessment of the lemans example, created through the API."""
    response = api.post(ASSESSMENTS, lemans, format="json")
    assert response.status_code == 201, response.content
    body: dict[str, Any] = response.json()
    return body


def detail_url(pk: int) -> str:
    return f"{ASSESSMENTS}{pk}/"
