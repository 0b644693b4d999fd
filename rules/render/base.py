"""What every renderer declares (pretix's exporters are the model): the target it formats,
the file name it writes for an inventory, whether it applies, and `render(decisions)`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.inventory import Inventory

if TYPE_CHECKING:
    from rules.engine import Decisions


@dataclass(frozen=True)
class Renderer:
    target: str  # the target rules write to (rules.model.SAS_CONFIG, "spdsserv.parm", …)
    title: str
    file_name: Callable[[Inventory], str]
    applies: Callable[[Inventory], bool]
    render: Callable[[Decisions], str]


def always(inv: Inventory) -> bool:
    return True


def with_spds(inv: Inventory) -> bool:
    """The SPD Server files apply where SPD Server is installed."""
    return inv.sas.spds is not None


def named(name: str) -> Callable[[Inventory], str]:
    """A file name that does not depend on the inventory."""

    def file_name(inv: Inventory) -> str:
        return name

    return file_name
