"""The OpenAPI schema, and a bounded schemathesis run against it: no 5xx, no violations."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.checks import negative_data_rejection, positive_data_acceptance

from advisor.api.schemas import COMPONENTS

# Enough to reach every documented answer of every operation, small enough for CI
# (about 20 s on two cores).
EXAMPLES_PER_OPERATION = 25


def test_the_schema_describes_the_api(anon: APIClient, db: None) -> None:
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/v1/assessments/", "/api/v1/assessments/{id}/",
                 "/api/v1/assessments/{id}/artifacts/{filename}",
                 "/api/v1/assessments/{id}/bundle.zip", "/api/v1/advice/",
                 "/api/v1/rules/", "/api/v1/health/"):  # fmt: skip
        assert path in schema["paths"], path
    assert set(COMPONENTS) <= set(schema["components"]["schemas"])
    create = schema["paths"]["/api/v1/assessments/"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Inventory"
    }
    assert {"200", "201", "400", "401", "409", "413", "429"} <= set(create["responses"])


def test_swagger_ui_is_served(anon: APIClient, db: None) -> None:
    response = anon.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger-ui" in response.content


def _generated_schema() -> dict[str, Any]:
    """The schema /api/schema/ serves, built in-process (no request, no database)."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    loaded: dict[str, Any] = json.loads(OpenApiJsonRenderer().render(generated))
    return loaded


schema = schemathesis.openapi.from_dict(_generated_schema())
schema.app = get_wsgi_application()


@pytest.fixture
def token(user: Any, settings: Any) -> Iterator[str]:
    # Paths that match no route (an id that is not a number) are answered by handler404;
    # these URLs name the API's handlers, as advisor/urls.py does.
    settings.ROOT_URLCONF = "tests.api.urls_with_handlers"
    # Requests go through the real WSGI handler; like Django's test client, keep it from
    # closing the connection that holds the test's transaction when a request ends.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield Token.objects.create(user=user).key
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: Any, token: str) -> None:
    # The contract has rules JSON Schema cannot state (mix fractions summing to 1,
    # unique mounts), so a schema-valid inventory may still be refused, rightly.
    excluded = [positive_data_acceptance]
    if (case.method, case.path) == ("POST", "/api/v1/fleets/"):
        # A fleet's JSON body may also be the bare array of inventories (the first form,
        # still taken); the schema declares {"servers": [...]} alone because a generated
        # client cannot send a union of an object and an array beside the file bodies.
        excluded.append(negative_data_rejection)
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, excluded_checks=excluded)


def test_the_schema_is_generated_without_a_warning() -> None:
    """drf-spectacular warns of two serializers sharing a component name (fleets' and logs'
    Finding once): one component then stands for both, and one answer breaks its schema."""
    from drf_spectacular.drainage import GENERATOR_STATS

    GENERATOR_STATS.reset()
    SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS._warn_cache and not GENERATOR_STATS._error_cache, list(
        GENERATOR_STATS._warn_cache
    ) + list(GENERATOR_STATS._error_cache)
