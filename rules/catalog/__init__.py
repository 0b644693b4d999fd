"""The catalog: every rule, in the order the engine runs them.

The order matters only where a rule reads what an earlier one set (memory reads CPUCOUNT,
buffers read MEMSIZE). Each (target, setting) pair has exactly one owning rule; `_check`
enforces that when this module is imported.
"""

from __future__ import annotations

from rules.catalog import aix, cpu, io, memory, monitoring, piping, spds, throughput, work
from rules.model import Rule

CATALOG: tuple[Rule, ...] = (
    *cpu.RULES,
    *memory.RULES,
    *io.RULES,
    *work.RULES,
    *throughput.RULES,
    *aix.RULES,
    *spds.RULES,
    *piping.RULES,
    *monitoring.RULES,
)


def _check(catalog: tuple[Rule, ...]) -> None:
    ids: set[str] = set()
    owners: dict[tuple[str, str], str] = {}
    for r in catalog:
        if r.id in ids:
            raise ValueError(f"duplicate rule id {r.id}")
        ids.add(r.id)
        for pair in r.settings:
            if pair in owners:
                raise ValueError(f"{pair} is declared by both {owners[pair]} and {r.id}")
            owners[pair] = r.id


_check(CATALOG)

BY_ID: dict[str, Rule] = {r.id: r for r in CATALOG}
