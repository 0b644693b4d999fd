"""Rule aix.vmo: keep the file cache from paging SAS out, by AIX release (bartucca2005;
ibm-aix72-vmm, oracle19c-aix for 6.1+)."""

from __future__ import annotations

from rules.catalog.aix.common import (
    AIX61,
    AIX71,
    MAXCLIENT_53,
    ON_AIX,
    VMO_PAPER,
    check,
    tune,
)
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule


def _vmo_53(inv: Inventory, out: Emitter) -> None:
    ram = inv.server.ram_gb
    cache = ram * int(VMO_PAPER["maxperm%"][1]) / 100
    why = (
        f"The largest table ({inv.workload.largest_table_gb:g} GB) exceeds RAM ({ram:g} GB): "
        f"on AIX {inv.server.os_version} the file cache may take 80 % and pages SAS out. "
        f"maxperm% 60 with strict_maxperm 1 caps file pages at {cache:g} GB, leaving "
        f"{ram - cache:g} GB for SAS and other programs."
    )
    evidence = "bartucca2005 'Initial adjustments' (maxperm 80→60, strict_maxperm 0→1)"
    effect = "bartucca2005: SAS then held 39.2 % of real memory without paging."
    tune(
        out, "vmo", "maxclient%", MAXCLIENT_53[1], MAXCLIENT_53[0],
        rationale="JFS2 caches file data as client pages, capped by maxclient%, which IBM "
        "says should stay ≤ maxperm%; lowering it to 60 with maxperm% is an inference, not "
        "a paper figure.",
        sources=("bartucca2005", "ibm-aix72-vmm"),
    )  # fmt: skip
    for name, (default, new) in VMO_PAPER.items():
        tune(out, "vmo", name, new, default, rationale=why, evidence=evidence, effect=effect)


def _vmstat_expect(inv: Inventory) -> str:
    if inv.server.version >= AIX61:
        return (
            "minperm percentage 3.0 and maxperm percentage 90.0 (defaults); paging space "
            "page outs not growing while SAS runs"
        )
    return "numperm percentage below maxperm percentage; paging space page outs not growing"


def _vmo_61(inv: Inventory, out: Emitter) -> None:
    version = inv.server.os_version
    if inv.server.version >= AIX71:
        keeps = "the file-page-first LRU of 5.3 is gone"
    else:
        keeps = "lru_file_repage 0 makes the LRU steal file pages first"
    rationale = (
        f"AIX {version} defaults (minperm% 3, maxperm% 90) already protect SAS's "
        f"computational pages — {keeps} — so the 2005 change for 5.3 is not repeated. "
        "maxperm% is a restricted tunable here; lower it only if vmstat shows SAS paging "
        "(pi/po) during large sorts."
    )
    check(out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv), rationale)
    if inv.server.version < AIX71:
        check(
            out, "check:vmo -o lru_file_repage", "vmo -o lru_file_repage",
            "lru_file_repage = 0 (a 5.3 nextboot file can carry 1 over a migration)",
            "AIX 6.1 protects computational pages only with lru_file_repage at its default 0.",
        )  # fmt: skip


@rule(
    id="aix.vmo",
    title="Keep the file cache from paging SAS out (vmo, by AIX release)",
    sources=("bartucca2005", "ibm-aix72-vmm", "oracle19c-aix", "aix-defaults-secondary"),
    settings=(
        (AIX_SCRIPT, "maxclient%"),
        (AIX_SCRIPT, "maxperm%"),
        (AIX_SCRIPT, "strict_maxperm"),
        (AIX_SCRIPT, "check:vmstat -v"),
        (AIX_SCRIPT, "check:vmo -o lru_file_repage"),
    ),
    applies=ON_AIX,
    inputs=("server.os_version", "server.ram_gb", "workload.largest_table_gb"),
)
def vmo(inv: Inventory, out: Emitter) -> None:
    """5.3: the paper's maxperm change when sort data outgrows RAM; 6.1+: a check only."""
    if inv.server.version >= AIX61:
        _vmo_61(inv, out)
    elif inv.workload.largest_table_gb > inv.server.ram_gb:
        _vmo_53(inv, out)
    else:
        check(
            out, "check:vmstat -v", "vmstat -v", _vmstat_expect(inv),
            f"The largest table ({inv.workload.largest_table_gb:g} GB) fits in RAM "
            f"({inv.server.ram_gb:g} GB), so the paper's maxperm change is not needed; "
            "watch for paging instead.",
        )  # fmt: skip


RULES: tuple[Rule, ...] = (vmo,)
