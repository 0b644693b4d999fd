"""What the inventory says about the machine's processors, in the papers' terms."""

from __future__ import annotations

from rules.inventory import Inventory


def physical_cores(inv: Inventory) -> tuple[int, str] | None:
    """Physical cores and where the figure comes from: `server.cores` as given, else
    logical CPUs over SMT threads per core (64 logical CPUs at SMT8 are 8 cores); None
    where neither is known."""
    server = inv.server
    if server.cores:
        return server.cores, f"{server.cores} cores ({server.cpus} logical CPUs)"
    smt = server.smt_threads
    if smt and server.cpus >= smt:
        cores = server.cpus // smt
        return cores, f"{cores} cores ({server.cpus} logical CPUs / SMT{smt})"
    return None


def processors(inv: Inventory) -> tuple[int, str]:
    """The CPUs the papers counted, and how to say it: physical cores where the inventory
    gives them (the papers' 2005–2012 CPUs ran one thread each, so an SMT thread is not one
    of their CPUs), else the logical CPUs, saying that they stand in for cores."""
    found = physical_cores(inv)
    if found is not None:
        return found
    cpus = inv.server.cpus
    return cpus, f"{cpus} logical CPUs (physical cores unknown; with SMT this overcounts)"
