"""Rules memory.ram_per_core and memory.numa: the machine's memory against its cores and nodes.

Past the papers. SAS's Performance Lab I/O test for RHEL (rhel_iotest.sh, SAS KB0039548;
sas-ram-per-core) counts physical cores (sockets × cores per socket), stops below 4 GB of
RAM per physical core and warns below 8 GB, which it calls SAS's minimum. Physical cores are
`server.cores`, else logical CPUs over SMT threads; on a virtual server without either,
each vCPU is a hardware thread and two make a core (azure-sas-guide: 2 vCPU per physical
core), an assumption the rule states.

On a NUMA machine a session whose MEMSIZE is as large as one node's memory (a node is never
all free: the OS, other sessions and the page cache hold part of it) must reach
memory on other nodes, which is slower than its own. Linux moves pages and tasks towards
each other with automatic NUMA balancing (kernel.numa_balancing, on by default on NUMA
machines; kernel-numa-balancing, rhel-numa). The rule shows the topology and that setting;
it changes nothing (a binding such as numactl --cpunodebind would be per job).
"""

from __future__ import annotations

from rules.derive.hardware import physical_cores
from rules.derive.memory import memsize_mb
from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SYSTEM, Rule, rule
from rules.units import gb, size_text

RAM_PER_CORE_MIN_GB = 8  # rhel_iotest.sh: warns below 8 GB per physical core ("SAS minimum")
RAM_PER_CORE_STOP_GB = 4  # rhel_iotest.sh: stops below 4 GB per physical core
VCPU_PER_CORE = 2  # azure-sas-guide: 2 vCPU per physical core


def _cores(inv: Inventory) -> tuple[int, str] | None:
    """Physical cores and how they are known; None on bare metal without cores or SMT."""
    found = physical_cores(inv)
    if found is not None:
        return found
    cpus, virtual = inv.server.cpus, inv.server.virtual
    if virtual and virtual != "none":
        cores = max(1, cpus // VCPU_PER_CORE)
        return cores, (
            f"{cores} cores ({cpus} vCPU on {virtual}, taken as {VCPU_PER_CORE} threads per "
            "core: azure-sas-guide; record server.cores to be exact)"
        )
    return None


@rule(
    id="memory.ram_per_core",
    title="RAM per physical core against SAS's 8 GB minimum",
    sources=("sas-ram-per-core", "azure-sas-guide"),
    settings=(),
    inputs=(
        "server.ram_gb", "server.cpus", "server.cores", "server.smt_threads",
        "server.virtual",
    ),
)  # fmt: skip
def ram_per_core(inv: Inventory, out: Emitter) -> None:
    """Warn below 8 GB of RAM per physical core (high below 4 GB, where the test stops)."""
    found = _cores(inv)
    if found is None:  # bare metal without cores or SMT: logical CPUs would overcount
        return
    cores, how = found
    per_core = inv.server.ram_gb / cores
    if per_core >= RAM_PER_CORE_MIN_GB:
        return
    stop = per_core < RAM_PER_CORE_STOP_GB
    out.warn(
        f"{gb(inv.server.ram_gb)} of RAM over {how} is {per_core:.1f} GB per physical core, "
        f"below the {RAM_PER_CORE_MIN_GB} GB per core SAS's Performance Lab test calls SAS's "
        f"minimum (rhel_iotest.sh, SAS KB0039548, later guidance, not the papers'"
        + (f"; below {RAM_PER_CORE_STOP_GB} GB it stops" if stop else "")
        + "): SAS sessions on these cores will be short of memory for sorts and summaries "
        "before they are short of CPU.",
        action=f"Grow RAM to at least {RAM_PER_CORE_MIN_GB * cores} GB "
        f"({RAM_PER_CORE_MIN_GB} GB × {cores} cores), or give SAS fewer cores (a smaller "
        "LPAR or VM), so each core SAS uses has its 8 GB.",
        severity="high" if stop else "medium",
    )


def _numa_applies(inv: Inventory) -> str | None:
    reason = on_os("linux")(inv)
    if reason is not None:
        return reason
    nodes = inv.server.numa_nodes
    if not nodes:
        return "server.numa_nodes not recorded (lscpu: NUMA node(s))"
    if nodes < 2:
        return "one NUMA node: every session's memory is local"
    return None


@rule(
    id="memory.numa",
    title="Sessions larger than a NUMA node: see the topology and NUMA balancing (Linux)",
    sources=("kernel-numa-balancing", "rhel-numa"),
    settings=((SYSTEM, "NUMA: sessions span nodes"),),
    applies=_numa_applies,
    inputs=("server.numa_nodes", "server.ram_gb", "workload.concurrent_sessions"),
)
def numa(inv: Inventory, out: Emitter) -> None:
    """Advice, not a setting, where a session's MEMSIZE reaches one node's RAM."""
    nodes = inv.server.numa_nodes or 1
    node_mb = inv.server.ram_mb / nodes
    memsize = memsize_mb(inv)
    if memsize < node_mb:
        return
    out.set(
        SYSTEM, "NUMA: sessions span nodes", "numactl --hardware; sysctl kernel.numa_balancing",
        kind="advice",
        rationale=f"MEMSIZE {size_text(memsize)} is as much as one NUMA node's memory or more "
        f"({gb(inv.server.ram_gb)} over {nodes} nodes = {size_text(node_mb)} each): a session "
        "that grows past its node reads and writes memory on other nodes, which is slower "
        "than its own. numactl --hardware shows the nodes, their free memory and the "
        "distances between them; kernel.numa_balancing = 1 (the default on NUMA machines) "
        "lets the kernel move pages towards the CPUs that use them (kernel-numa-balancing; "
        "Red Hat's performance guide, rhel-numa). Keep it on for many short SAS sessions; "
        "numastat -p <SAS PID> during a big step shows how much of a session's memory is "
        "remote. Binding a job to nodes (numactl --cpunodebind --membind) is per job and "
        "only where it fits in those nodes; then the kernel documentation says to turn "
        "balancing off for that bound work. Later guidance, not the papers'; nothing is "
        "changed here.",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (ram_per_core, numa)
