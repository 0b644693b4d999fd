"""The SAS Tuning Advisor rule engine: inventory -> rules -> decisions -> files.

Pure Python: nothing here imports Django, Celery or DRF. `advise` is validate → run →
render (`inventory_from` validates; `rules.parse` is the package of command-output parsers):

    >>> import rules, json
    >>> result = rules.advise(json.load(open("examples/lemans-aix53-etl.json")))
    >>> sorted(result["artifacts"])
    ['aix_tuning.sh', 'sasv9_append.cfg']
"""

from __future__ import annotations

import json
from typing import Any

from rules.engine import Decisions, run
from rules.inventory import Inventory
from rules.problems import InventoryError, Problem
from rules.render.registry import render_all
from rules.result import Result
from rules.validate import parse as inventory_from
from rules.version import RULES_VERSION

__all__ = [
    "RULES_VERSION",
    "Decisions",
    "Inventory",
    "InventoryError",
    "Problem",
    "Result",
    "advise",
    "advise_inventory",
    "inventory_from",
    "result_json",
    "run",
]


def advise_inventory(inventory: Inventory) -> Result:
    """Run every rule over an already validated inventory and render the files."""
    decisions = run(inventory)
    return Result(decisions, render_all(decisions))


def advise(document: Any) -> dict[str, Any]:
    """Validate a contract document and return the contract's result as a dict.

    Raises `InventoryError` (every problem by JSON path) for a bad document.
    """
    return advise_inventory(inventory_from(document)).to_dict()


def result_json(result: dict[str, Any]) -> str:
    """recommendations.json as every entry point writes it: keys in the contract's order."""
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
