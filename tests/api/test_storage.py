"""How a result is stored and answered: compact JSON spliced into the response unchanged,
recommendations.json re-indented for downloads, lz4 on PostgreSQL, migration 0002."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

import rules
from advisor.assessments import services
from advisor.core import results
from advisor.models import Assessment, compact_json
from tests.api.conftest import ASSESSMENTS, BROWSER_ACCEPT, detail_url

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BEFORE = [("advisor", "0001_initial")]
AFTER = [("advisor", "0002_compact_result_json")]


def test_the_answer_is_byte_for_byte_what_the_json_renderer_writes(
    api: APIClient, lemans: dict[str, Any]
) -> None:
    created = api.post(ASSESSMENTS, lemans, format="json")
    body = created.json()

    assert created["Content-Type"] == "application/json"
    assert created.content == JSONRenderer().render(body)
    assert api.get(detail_url(body["id"])).content == created.content


def test_line_separators_in_a_name_are_escaped_as_the_renderer_escapes_them(
    api: APIClient, lemans: dict[str, Any]
) -> None:
    lemans = copy.deepcopy(lemans)
    lemans["name"] = "ETL\u2028mart\u2029two"

    response = api.post(ASSESSMENTS, lemans, format="json")

    assert response.status_code == 201
    assert "\u2028".encode() not in response.content
    assert response.json()["inventory"]["name"] == "ETL\u2028mart\u2029two"
    assert response.content == JSONRenderer().render(response.json())


def test_a_browser_gets_the_detail_as_json(api: APIClient, stored: dict[str, Any]) -> None:
    # The API answers JSON only (no browsable HTML page): a browser's Accept gets the
    # stored text, as any client does.
    response = api.get(detail_url(stored["id"]), HTTP_ACCEPT=BROWSER_ACCEPT)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == api.get(detail_url(stored["id"])).json()
    assert "j2_minPageReadAhead" in response.content.decode()


def test_stored_text_is_compact_and_downloads_are_indented_as_the_cli_writes(
    stored: dict[str, Any], lemans: dict[str, Any]
) -> None:
    assessment = Assessment.objects.get(pk=stored["id"])
    result = rules.advise(lemans)

    assert assessment.result_json == compact_json(result)
    assert assessment.recommendations_json == rules.result_json(result)


@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix", "windows-sas94"])
def test_compact_json_writes_the_bytes_the_standard_encoder_writes(name: str) -> None:
    document = json.loads((EXAMPLES / f"{name}.json").read_text())
    result = rules.advise(document)

    expected = json.dumps(result, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    assert compact_json(result) == expected


@pytest.mark.parametrize(
    ("value", "text"),
    [({1: "a"}, '{"1":"a"}'), ([2**70], f"[{2**70}]"), (["x\ud800"], '["x\ud800"]')],
    ids=["int key", "int beyond 64 bits", "lone surrogate"],
)
def test_compact_json_falls_back_to_the_standard_encoder(value: Any, text: str) -> None:
    assert compact_json(value) == text


def test_results_are_compressed_with_lz4_on_postgresql(stored: dict[str, Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(result_json) FROM advisor_assessment WHERE id = %s",
            [stored["id"]],
        )
        assert cursor.fetchone() == ("lz4",)


def _lose_the_race(monkeypatch: pytest.MonkeyPatch, user: User, key: str, document: Any) -> None:
    """Another request stores the same key between this one's lookup and its insert."""
    advise = rules.advise_inventory

    def store_first_then_advise(inventory: rules.Inventory) -> rules.Result:
        monkeypatch.setattr(rules, "advise_inventory", advise)
        winner = services.assessment_from_result(
            advise(inventory), organisation=user.membership.organisation,
            idempotency_key=key, request_hash=services.document_hash(document),
        )  # fmt: skip
        winner.save()
        return advise(inventory)

    monkeypatch.setattr(rules, "advise_inventory", store_first_then_advise)


def _retry_after_losing_the_race(monkeypatch: pytest.MonkeyPatch, user: User, lemans: Any) -> None:
    _lose_the_race(monkeypatch, user, "build-race", lemans)

    assessment, created = services.assessment_create(
        user=user, document=lemans, idempotency_key="build-race"
    )

    assert created is False
    assert Assessment.objects.get().pk == assessment.pk  # the connection is still usable


@pytest.mark.django_db
def test_a_lost_race_inside_a_transaction_answers_as_the_retry_would(
    monkeypatch: pytest.MonkeyPatch, user: User, lemans: dict[str, Any]
) -> None:
    # The insert runs under a savepoint, so the caller's transaction survives the loss.
    _retry_after_losing_the_race(monkeypatch, user, lemans)


@pytest.mark.django_db(transaction=True)
def test_a_lost_race_in_autocommit_answers_as_the_retry_would(
    monkeypatch: pytest.MonkeyPatch, user: User, lemans: dict[str, Any]
) -> None:
    # A lone autocommit INSERT: no BEGIN/COMMIT round trips, and a failed one leaves nothing.
    _retry_after_losing_the_race(monkeypatch, user, lemans)


@pytest.mark.django_db(transaction=True)
def test_migration_0002_compacts_stored_results_and_reverses(lemans: dict[str, Any]) -> None:
    result = rules.advise(lemans)
    indented = rules.result_json(result)
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    try:
        old = executor.loader.project_state(BEFORE).apps
        organisation = old.get_model("advisor", "Organisation").objects.create(name="Old")
        old.get_model("advisor", "Assessment").objects.create(
            organisation=organisation, hostname="lemans", os="aix", os_version="5.3", cpus=4,
            ram_gb=16, rules_version="old", inventory=result["inventory"], result_json=indented,
        )  # fmt: skip

        MigrationExecutor(connection).migrate(AFTER)
        # Later columns (archived_at, the result's version and counts) do not exist yet at 0002.
        later = ("archived_at", "result_version", *results.COUNT_COLUMNS)
        migrated = Assessment.objects.defer(*later).get()
        assert migrated.result_json == compact_json(result)
        assert migrated.recommendations_json == indented

        MigrationExecutor(connection).migrate(BEFORE)
        assert Assessment.objects.values_list("result_json", flat=True).get() == indented
    finally:
        # Back to the latest schema: later migrations' tables are there for the next tests.
        latest = MigrationExecutor(connection)
        latest.migrate(latest.loader.graph.leaf_nodes())
