"""The served schema says what the validator enforces: an empty workload mix is refused
by both (it cannot sum to 1)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import rules
from rules.schema import inventory_schema

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "lemans-aix53-etl.json"


def test_an_empty_mix_is_refused_by_the_schema_and_the_validator() -> None:
    mix = inventory_schema()["properties"]["workload"]["properties"]["mix"]
    assert mix["minProperties"] == 1
    document = copy.deepcopy(json.loads(EXAMPLE.read_text()))
    document["workload"]["mix"] = {}
    with pytest.raises(rules.InventoryError) as refused:
        rules.inventory_from(document)
    assert any(p.path.startswith("workload.mix") for p in refused.value.problems)
