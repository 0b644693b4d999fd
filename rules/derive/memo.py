"""Facts computed once per inventory: several rules ask for the same derivation."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from rules.inventory import Inventory

T = TypeVar("T")


def per_inventory(fn: Callable[[Inventory], T]) -> Callable[[Inventory], T]:
    """Cache fn(inv) on the inventory itself (inventories are immutable)."""
    key = f"{fn.__module__}.{fn.__qualname__}"

    @wraps(fn)
    def cached(inv: Inventory) -> T:
        memo = inv.memo
        if key not in memo:
            memo[key] = fn(inv)
        value: T = memo[key]
        return value

    return cached
