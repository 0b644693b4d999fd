"""What the inventory says about the machine's processors, in the papers' terms."""

from __future__ import annotations

from rules.inventory import Inventory


def processors(inv: Inventory) -> tuple[int, str]:
    """The CPUs the papers counted, and how to say it: physical cores where the inventory
    gives them (the papers' 2005–2012 CPUs ran one thread each, so an SMT thread is not one
    of their CPUs), else the logical CPUs as listed."""
    server = inv.server
    if server.cores:
        return server.cores, f"{server.cores} cores ({server.cpus} logical CPUs)"
    return server.cpus, f"{server.cpus} CPUs"
