"""docs/contract.md's example of the result names exactly the fields the result's records
declare (rules/result_records.py), in their order, with the current result_version; its
input names every field the contract declares (rules/inventory.py) and no other."""

from __future__ import annotations

import re
from pathlib import Path

from rules.echo import field_paths
from rules.inventory import Inventory
from rules.model import NotApplicable, Skipped, Warning
from rules.result_fields import fields
from rules.result_records import ResultDocument, ResultRecommendation
from rules.version import RESULT_VERSION

CONTRACT = Path(__file__).resolve().parents[1] / "docs" / "contract.md"


def result_example() -> str:
    text = CONTRACT.read_text("utf-8")
    part = text.split("And a machine-readable result", 1)[1]
    return part.split("```", 2)[1]


def input_block() -> str:
    return CONTRACT.read_text("utf-8").split("## Input\n```", 1)[1].split("```", 1)[0]


def keys(text: str) -> list[str]:
    return re.findall(r'"(\w+)":', text.split("//")[0])


def between(text: str, start: str, end: str) -> str:
    return text.split(f'"{start}":', 1)[1].split(f'"{end}":', 1)[0]


def test_the_documented_result_is_the_declared_one() -> None:
    example = result_example()
    lines = [line.split("//")[0] for line in example.splitlines()]
    top = [keys(line)[0] for line in lines if line.startswith('  "')]
    assert top == [f.name for f in fields(ResultDocument)]
    assert f'"result_version": {RESULT_VERSION},' in example
    body = "\n".join(lines)
    records = {
        ("recommendations", "warnings"): ResultRecommendation,
        ("warnings", "skipped"): Warning,
        ("skipped", "not_applicable"): Skipped,
        ("not_applicable", "artifacts"): NotApplicable,
    }
    for (start, end), record in records.items():
        assert keys(between(body, start, end)) == [f.name for f in fields(record)], start


def test_the_documented_input_is_the_declared_one() -> None:
    block = input_block()
    declared = {path.rsplit(".", 1)[-1].removesuffix("[]") for path in field_paths(Inventory)}
    missing = sorted(name for name in declared if f'"{name}"' not in block)
    assert not missing, f"docs/contract.md's input does not name {missing}"
    # Every key that opens a line is a declared field, but for a map's example entry
    # ("sdb": {"max_sectors_kb": …} under current.devices).
    documented = set(re.findall(r'^\s*"(\w+)":(?!\s*\{")', block, re.MULTILINE))
    assert documented <= declared, sorted(documented - declared)
