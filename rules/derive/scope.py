"""When a rule applies: each function returns the reason it does not, or None."""

from __future__ import annotations

from collections.abc import Callable

from rules.derive.labels import os_label
from rules.inventory import Inventory

Applies = Callable[[Inventory], str | None]


def on_os(name: str) -> Applies:
    """Applies on one operating system."""

    def check(inv: Inventory) -> str | None:
        if inv.server.os == name:
            return None
        return f"server.os is {inv.server.os}; this rule is for {os_label(name)}"

    return check


def with_spds(inv: Inventory) -> str | None:
    """Applies where SPD Server is installed."""
    return None if inv.sas.spds is not None else "sas.spds is null: no SPD Server"
