"""Numbers no column can store, in every JSON the application reads: refused as a 400
naming the value's JSON path, never a 500. The parser itself (advisor.core.jsonsafe), the
API's default parser, and the contract's own limits on integers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

import rules
from advisor.api.parsers import StrictJSONParser
from advisor.core import jsonsafe
from advisor.models import Assessment
from rules.schema import inventory_schema
from tests.api.conftest import ADVICE, ASSESSMENTS

HUGE = "1" + "0" * 5000  # past Python's 4,300-digit conversion limit
REFUSED = [
    (HUGE, "an integer of 5,001 digits; numbers must fit in 64 bits"),
    ("-" + HUGE, "an integer of 5,001 digits; numbers must fit in 64 bits"),
    ("100000000000000000000", "an integer of 21 digits; numbers must fit in 64 bits"),
    ("18446744073709551616", "18446744073709551616 does not fit in 64 bits"),
    ("-9223372036854775809", "-9223372036854775809 does not fit in 64 bits"),
    ("NaN", "NaN is not a number JSON allows"),
    ("Infinity", "Infinity is not a number JSON allows"),
    ("-Infinity", "-Infinity is not a number JSON allows"),
    ("1e999", "1e999 is too large for a number"),
    ("-1E400", "-1E400 is too large for a number"),
]


@pytest.mark.parametrize(("number", "message"), REFUSED)
def test_the_parser_names_the_path_of_a_number_it_refuses(number: str, message: str) -> None:
    text = '{"server": {"cpus": 4}, "storage": [{}, {"mount": "/w", "size_gb": N}]}'
    text = text.replace("N", number)
    with pytest.raises(jsonsafe.UnsafeJSON) as caught:
        jsonsafe.loads(text)
    assert caught.value.path == "storage[1].size_gb"
    assert caught.value.message == message


@pytest.mark.parametrize(
    ("text", "path"),
    [("NaN", "$"), ("[1, [2, NaN]]", "[1][1]"), ('{"a\\u0000b": NaN}', "ab"),
     ('{"k": 1, "k": NaN}', "k"), ("[" * 500 + "NaN" + "]" * 500, "[0]" * 499 + "[0]")],
)  # fmt: skip
def test_paths_at_the_root_in_lists_and_under_odd_keys(text: str, path: str) -> None:
    with pytest.raises(jsonsafe.UnsafeJSON) as caught:
        jsonsafe.loads(text)
    assert caught.value.path == path


def test_what_fits_in_64_bits_is_read_as_it_was() -> None:
    text = "[18446744073709551615, -9223372036854775808, 0, -0, 1.5e308, 1e-400]"
    assert jsonsafe.loads(text) == [2**64 - 1, -(2**63), 0, 0, 1.5e308, 0.0]


def test_a_text_that_would_parse_into_too_much_is_refused_unparsed() -> None:
    text = b"[" + b"{}," * 100_000 + b"{}]"
    estimate = jsonsafe.parsed_bytes(text)
    assert estimate >= 100_000 * 64  # each "{}," is a 64-byte dict and its slot
    with pytest.raises(jsonsafe.TooLarge):
        jsonsafe.loads(text, max_parsed_bytes=estimate - 1)
    assert len(jsonsafe.loads(text, max_parsed_bytes=estimate)) == 100_001


def test_the_strict_parser_is_the_api_default() -> None:
    from rest_framework.settings import api_settings

    parsers = api_settings.DEFAULT_PARSER_CLASSES
    assert parsers == [StrictJSONParser]


def post(api: APIClient, url: str, body: str) -> Any:
    return api.generic("POST", url, body.encode(), "application/json")


@pytest.mark.parametrize(("number", "message"), REFUSED[::3])
@pytest.mark.parametrize("url", [ASSESSMENTS, ADVICE])
def test_the_api_answers_400_naming_the_path(
    api: APIClient, lemans: dict[str, Any], url: str, number: str, message: str
) -> None:
    lemans["server"]["cpus"] = "NUMBER"
    text = json.dumps(lemans).replace('"NUMBER"', number)

    response = post(api, url, text)

    assert response.status_code == 400, response.content
    assert response.json()["errors"] == {"server.cpus": [message]}
    assert Assessment.objects.count() == 0


def test_a_body_that_would_parse_into_too_much_is_a_413(api: APIClient) -> None:
    body = "[" + "{}," * 2_000_000 + "{}]"  # 6 MB, within the bundle views' 8 MiB
    response = post(api, "/api/v1/inventories/parse", body)
    assert response.status_code == 413
    assert response.json()["code"] == "too_large"


@pytest.mark.parametrize("number", ["10" + "0" * 30, "1" + "0" * 400])
def test_the_contract_refuses_any_integer_past_its_limit_as_a_field_problem(
    lemans: dict[str, Any], number: str
) -> None:
    lemans["server"]["cpus"] = int(number)
    lemans["storage"][0]["size_gb"] = int(number)
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(lemans)
    paths = {p.path for p in caught.value.problems}
    assert {"server.cpus", "storage[0].size_gb"} <= paths


def _integers(schema: Any) -> list[dict[str, Any]]:
    if isinstance(schema, dict):
        found = [schema] if schema.get("type") == "integer" else []
        return found + [i for v in schema.values() for i in _integers(v)]
    if isinstance(schema, list):
        return [i for v in schema for i in _integers(v)]
    return []


def test_every_integer_of_the_contract_has_limits_a_bigint_column_holds() -> None:
    integers = _integers(inventory_schema())
    assert integers
    for declared in integers:
        if "enum" in declared:
            continue
        assert -(2**63) <= declared["minimum"] <= declared["maximum"] < 2**63, declared
