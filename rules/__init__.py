"""The SAS Tuning Advisor rule engine: inventory -> rules -> recommendations -> files.

Pure Python: nothing here imports Django, Celery or DRF.

    >>> import rules, json
    >>> result = rules.advise(json.load(open("examples/lemans-aix53-etl.json")))
    >>> sorted(result["artifacts"])
    ['aix_tuning.sh', 'sasv9.cfg']
"""

from __future__ import annotations

import json
from typing import Any

from rules.checker import InventoryError, Problem
from rules.engine import Result, run
from rules.inventory import Inventory
from rules.validate import parse
from rules.version import RULES_VERSION

__all__ = [
    "RULES_VERSION",
    "Inventory",
    "InventoryError",
    "Problem",
    "Result",
    "advise",
    "advise_inventory",
    "parse",
    "result_json",
]


def advise_inventory(inventory: Inventory) -> Result:
    """Run every rule over an already validated inventory."""
    return run(inventory)


def advise(document: Any) -> dict[str, Any]:
    """Validate a contract document and return the contract's result as a dict.

    Raises `InventoryError` (every problem by JSON path) for a bad document.
    """
    return run(parse(document)).to_dict()


def result_json(result: dict[str, Any]) -> str:
    """recommendations.json as every entry point writes it: keys in the contract's order."""
    return json.dumps(result, indent=2, ensure_ascii=False) + "\n"
