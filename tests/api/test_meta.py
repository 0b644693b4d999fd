"""POST /advice/ (nothing stored), GET /rules/ (the catalog), GET /health/ (no auth)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError
from django.test import override_settings
from rest_framework.test import APIClient

import rules
from advisor.api import meta
from advisor.models import Assessment
from rules.catalog import CATALOG
from rules.sources import SOURCES
from tests.api.conftest import ADVICE
from tests.conftest import closed_port, require_service

HEALTH = "/api/v1/health/"


def test_advice_is_the_contract_result_and_stores_nothing(
    api: APIClient, prime: dict[str, Any]
) -> None:
    response = api.post(ADVICE, prime, format="json")

    assert response.status_code == 200
    assert response.json() == rules.advise(prime)
    assert list(response.json()) == list(rules.advise(prime))
    assert not Assessment.objects.exists()


def test_advice_reports_problems_by_path(api: APIClient, prime: dict[str, Any]) -> None:
    del prime["sas"]["version"]
    prime["storage"][0]["raid"] = "7"

    body = api.post(ADVICE, prime, format="json").json()

    assert body["errors"] == {
        "sas.version": ["is required"],
        "storage[0].raid": ["must be one of '0', '1', '5', '6', '10', 'jbod'"],
    }


def test_advice_needs_no_organisation(db: None, prime: dict[str, Any]) -> None:
    client = APIClient()
    client.force_authenticate(User.objects.create_user("freelancer"))

    assert client.post(ADVICE, prime, format="json").status_code == 200


def test_the_rule_catalog_lists_every_rule_with_its_sources(api: APIClient) -> None:
    body = api.get("/api/v1/rules/").json()

    assert body["rules_version"] == rules.RULES_VERSION
    assert [r["id"] for r in body["rules"]] == [r.id for r in CATALOG]
    assert body["rules"][0] == CATALOG[0].to_dict()
    cited = {s for r in CATALOG for s in r.sources}
    assert set(body["sources"]) == cited
    chew = body["sources"].get("chew")
    if chew is not None:
        assert chew["title"] == SOURCES["chew"].title
        assert chew["confirmed"] is True


def test_health_needs_no_credentials(anon: APIClient, db: None) -> None:
    response = anon.get(HEALTH)

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["rules_version"] == rules.RULES_VERSION
    assert body["components"]["database"]["status"] == "ok"
    assert body["components"]["database"]["latency_ms"] >= 0
    assert body["components"]["broker"] == {"status": "in-process", "latency_ms": None}


def test_health_looks_at_the_folder_broker_of_the_embedded_default(
    anon: APIClient, db: None, tmp_path: Path
) -> None:
    (tmp_path / "messages").mkdir()
    with override_settings(CELERY_BROKER_DIR=str(tmp_path)):
        found = anon.get(HEALTH).json()["components"]["broker"]["status"]
    with override_settings(CELERY_BROKER_DIR=str(tmp_path / "gone")):
        gone = anon.get(HEALTH).json()
    assert found == "ok"
    assert gone["components"]["broker"]["status"] == "unreachable"
    assert gone["status"] == "degraded"


def test_health_pings_redis_when_configured(anon: APIClient, db: None) -> None:
    url = os.environ.get("REDIS_URL_FOR_TESTS", "redis://127.0.0.1:6379/15")
    require_service("Redis", "127.0.0.1", 6379)

    with override_settings(REDIS_URL=url):
        response = anon.get(HEALTH)

    assert response.status_code == 200
    assert response.json()["components"]["broker"]["status"] == "ok"


def test_health_is_degraded_but_200_when_the_broker_is_unreachable(
    anon: APIClient, db: None
) -> None:
    # Pages and the API keep answering without Redis; only the workers' work waits.
    with override_settings(REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0"):
        response = anon.get(HEALTH)

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["components"]["broker"] == {"status": "unreachable", "latency_ms": None}
    assert body["components"]["database"]["status"] == "ok"


def test_health_is_503_when_the_database_fails(
    anon: APIClient, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise DatabaseError("connection refused")

    with monkeypatch.context() as patched:
        patched.setattr(meta.connection, "cursor", broken)
        response = anon.get(HEALTH)

    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json()["components"]["database"] == {
        "status": "unreachable",
        "latency_ms": None,
    }
