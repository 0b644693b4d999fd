"""The catalog: every rule, in the order the engine runs them.

The order matters only where a rule reads what an earlier one set (memory reads CPUCOUNT,
buffers read MEMSIZE); each rule declares those reads. `check` enforces, when this module
is imported, that each (target, setting) pair has exactly one owning rule, that every
setting a rule reads is set by an earlier rule, and that every contract field a rule says
it reads exists in the contract.
"""

from __future__ import annotations

from rules.catalog import (
    aix,
    cpu,
    io,
    linux,
    memory,
    monitoring,
    names,
    piping,
    placement_data,
    placement_system,
    solaris,
    spds,
    throughput,
    windows,
    work,
)
from rules.echo import field_paths
from rules.inventory import Inventory
from rules.model import Rule

CATALOG: tuple[Rule, ...] = (
    *cpu.RULES,
    *memory.RULES,
    *io.RULES,
    *work.RULES,
    *placement_system.RULES,
    *placement_data.RULES,
    *throughput.RULES,
    *aix.RULES,
    *linux.RULES,
    *windows.RULES,
    *solaris.RULES,
    *spds.RULES,
    *piping.RULES,
    *monitoring.RULES,
    *names.RULES,
)


def check(catalog: tuple[Rule, ...]) -> None:
    """Raise ValueError where the catalog contradicts its own declarations."""
    ids: set[str] = set()
    owners: dict[tuple[str, str], str] = {}
    fields = set(field_paths(Inventory))
    for r in catalog:
        if r.id in ids:
            raise ValueError(f"duplicate rule id {r.id}")
        ids.add(r.id)
        for pair in r.reads:
            if pair not in owners:
                raise ValueError(f"{r.id} reads {pair}, which no earlier rule sets")
        for pair in r.settings:
            if pair in owners:
                raise ValueError(f"{pair} is declared by both {owners[pair]} and {r.id}")
            owners[pair] = r.id
        unknown = [path for path in r.inputs if path not in fields]
        if unknown:
            raise ValueError(f"{r.id} reads {unknown}, which the contract does not have")


check(CATALOG)

BY_ID: dict[str, Rule] = {r.id: r for r in CATALOG}
