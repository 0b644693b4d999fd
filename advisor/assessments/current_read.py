"""What an assessment says of the current values: whether the inventory was read from the
server, and if so whether any setting the server runs now was in the reading.

A reading (a pasted transcript, a collector bundle) keeps the contract's `current` block
with its `source` even when no setting was in it, every map null
(`rules.parse.combine_current`); a typed inventory has no block. The result page and the
report read this one answer, so they say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rules.current import Current
from rules.fields import specs

Kind = Literal["typed", "none_read", "read"]

SAS_FILES = "cat of the sasv9*.cfg files SAS reads"
# The commands whose output holds the current settings, by OS: the parsers read these
# (rules/parse/linux_tuning.py, aix_tunables.py, aix_devices.py, sasfiles.py).
COMMANDS: dict[str, tuple[str, ...]] = {
    "linux": (
        "sysctl -a",
        "cat /sys/kernel/mm/transparent_hugepage/enabled",
        "tuned-adm active",
        "grep -H . /sys/block/*/queue/*",
    ),
    "aix": ("vmo -a", "ioo -a", "lsattr -El hdisk0 (each disk)"),
}


@dataclass(frozen=True)
class CurrentRead:
    kind: Kind
    source: str  # where the inventory was read; "" for a typed one
    commands: tuple[str, ...]  # what to give for the current values

    @property
    def typed(self) -> bool:
        return self.kind == "typed"

    @property
    def none_read(self) -> bool:
        return self.kind == "none_read"


def current_read(inventory: Mapping[str, Any], os_name: str) -> CurrentRead:
    """Typed (no `current` block), read with no setting in it, or read with settings."""
    commands = (*COMMANDS.get(os_name, ()), SAS_FILES)
    block = inventory.get("current")
    if not isinstance(block, Mapping):
        return CurrentRead("typed", "", commands)
    source = str(block.get("source") or "")
    held = any(block.get(key) is not None for key, _ in specs(Current) if key != "source")
    return CurrentRead("read" if held else "none_read", source, commands)
