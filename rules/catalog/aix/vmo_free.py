"""Rule aix.vmo_free: minfree and maxfree scaled with the logical CPUs and the read-ahead.

The papers leave the free list alone. IBM's page "Values for minfree and maxfree
parameters" (ibm-aix-minfree) gives the formula per memory pool: minfree = max(960, 120 ×
logical CPUs / memory pools) and maxfree = minfree + (max read-ahead × logical CPUs) /
memory pools, the max read-ahead being j2_maxPageReadAhead for JFS2; its values are per
pool, as vmo shows them from AIX 5.3, and maxfree − minfree stays ≥ j2_maxPageReadAhead.
IBM's SAS guidance for AIX 7.1 (ibm-sas-aix71) gives the same sizing from the logical CPUs.
The memory pools come from `vmo -a` (mempools, in current.aix_vmo) where the inventory has
it; else the rule says so and takes one pool, which gives the largest per-pool values, and
asks for `vmstat -v | grep "memory pools"`. A larger value the server runs is never lowered.

A larger minfree the server already runs is kept, and maxfree follows it: maxfree = the
kept minfree + j2_maxPageReadAhead × logical CPUs, so the pair stays in the order vmo
enforces (minfree < maxfree). IBM gives no upper bound beyond the RAM (`vmo -L` shows
maxfree's MAX near the memory's page count); free pages sit idle, so the rule holds maxfree
to 1/32 of the RAM (about 3 %; the advisor's own bound, unconfirmed) and warns instead of
changing anything when the formula needs more.
"""

from __future__ import annotations

from rules.catalog.aix.common import J2_MAX_PAGE_READ_AHEAD_DEFAULT, check, tune
from rules.catalog.aix.common import with_tuning_commands as _tuning
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule

AIX53 = (5, 3)
MINFREE_DEFAULT, MAXFREE_DEFAULT = 960, 1088  # 4 KB pages per memory pool, AIX 5.3+
PAGES_PER_LCPU = 120  # ibm-aix-minfree: minfree = max(960, 120 × lcpus / mempools)
PAGE_BYTES = 4096  # minfree and maxfree count 4 KB pages (vmo -L: "4KB pages")
# The advisor's own ceiling for maxfree, unconfirmed (no IBM figure): 1/32 of the RAM.
RAM_SHARE_DIVISOR = 32


def _applies(inv: Inventory) -> str | None:
    reason = _tuning(inv)
    if reason is None and inv.server.version < AIX53:
        reason = f"AIX {inv.server.os_version}: the 960/1088 free-list defaults came with 5.3"
    return reason


def _table(inv: Inventory, command: str) -> dict[str, str]:
    current = inv.current
    table = getattr(current, f"aix_{command}", None) if current is not None else None
    return table or {}


def _read_ahead(inv: Inventory, out: Emitter) -> tuple[int, str]:
    """The j2_maxPageReadAhead the plan leaves: set by aix.ioo, else the server's, else 128."""
    planned = out.get(AIX_SCRIPT, "j2_maxPageReadAhead")
    if planned is not None and planned.kind == "change":
        return int(planned.value), "set by aix.ioo"
    now = _table(inv, "ioo").get("j2_maxPageReadAhead", "")
    if now.isdigit():
        return int(now), "the server's, ioo -a"
    return J2_MAX_PAGE_READ_AHEAD_DEFAULT, "AIX's default"


def free_targets(
    lcpus: int, read_ahead: int, kept_minfree: int = 0, pools: int = 1
) -> tuple[int, int]:
    """(minfree, maxfree) per memory pool by IBM's formula (ibm-aix-minfree); a larger
    minfree the server keeps raises maxfree with it."""
    minfree = max(MINFREE_DEFAULT, PAGES_PER_LCPU * lcpus // pools, kept_minfree)
    return minfree, minfree + read_ahead * lcpus // pools


def memory_pools(inv: Inventory) -> tuple[int, str]:
    """(pools, how it is known): vmo -a's mempools where recorded, else one, stated."""
    held = _held(_table(inv, "vmo"), "mempools")
    if held:
        return held, f"{held} memory pools (vmo -a: mempools)"
    return 1, (
        "memory pools not recorded, taken as 1, which gives the largest per-pool values "
        "(vmstat -v | grep 'memory pools' shows them; with N pools divide both by N)"
    )


def maxfree_ceiling(inv: Inventory) -> int:
    """The largest maxfree the rule plans: 1/32 of the RAM in 4 KB pages (unconfirmed)."""
    return int(inv.server.ram_gb * 1024**3 / PAGE_BYTES) // RAM_SHARE_DIVISOR


def _held(now: dict[str, str], name: str) -> int | None:
    value = now.get(name, "")
    return int(value) if value.isdigit() else None


def _why(inv: Inventory, read_ahead: int, whence: str, targets: tuple[int, int], kept: bool) -> str:
    lcpus, (minfree, maxfree) = inv.server.cpus, targets
    pools, pools_how = memory_pools(inv)
    formula = f"max(960, {PAGES_PER_LCPU} × {lcpus} / {pools})"
    base = f"{formula} = {minfree}"
    if kept:
        base = f"{minfree}, the server's (above {formula}, kept)"
    return (
        f"{lcpus} logical CPUs, j2_maxPageReadAhead {read_ahead} ({whence}) and {pools_how}: "
        "IBM's 'Values for minfree and maxfree parameters' sizes the free list of each "
        f"memory pool as minfree = {base} and maxfree = minfree + ({read_ahead} × {lcpus}) / "
        f"{pools} = {maxfree} pages (ibm-aix-minfree; IBM's SAS guidance for AIX 7.1, "
        "ibm-sas-aix71, sizes it the same way), so page stealing starts before every CPU's "
        "read-ahead has to wait for a free page, and maxfree − minfree stays ≥ "
        "j2_maxPageReadAhead. vmo shows and sets the values per pool from AIX 5.3. maxfree "
        f"is held to 1/{RAM_SHARE_DIVISOR} of the RAM ({maxfree_ceiling(inv)} pages): pages "
        "kept free are idle memory, and IBM gives no bound but the RAM, so this one is the "
        "advisor's own (unconfirmed)."
    )


def _warn_too_large(inv: Inventory, out: Emitter, maxfree: int, why: str) -> None:
    ceiling = maxfree_ceiling(inv)
    out.warn(
        f"The free list IBM's formula asks for (maxfree {maxfree} pages, "
        f"{maxfree * PAGE_BYTES / 1024**3:.1f} GB) is more than 1/{RAM_SHARE_DIVISOR} of the "
        f"{inv.server.ram_gb:g} GB of RAM ({ceiling} pages), the advisor's own bound "
        "(unconfirmed: IBM gives none but the RAM): pages held free are idle memory, so the "
        f"script leaves minfree and maxfree as they are. {why}",
        action="Check the logical CPU count (lparstat -i) and j2_maxPageReadAhead (ioo -o "
        "j2_maxPageReadAhead); if both are right, raise maxfree by hand only while vmstat "
        "shows free-list waits (fre near minfree during SAS reads), keeping maxfree − "
        "minfree ≥ j2_maxPageReadAhead.",
        severity="medium",
    )


@rule(
    id="aix.vmo_free",
    title="Free list (minfree, maxfree) scaled with logical CPUs and read-ahead (vmo)",
    sources=("ibm-sas-aix71", "ibm-aix-minfree"),
    settings=(
        (AIX_SCRIPT, "maxfree"),
        (AIX_SCRIPT, "minfree"),
        (AIX_SCRIPT, "check:vmo -o minfree"),
    ),
    applies=_applies,
    inputs=(
        "server.os_version", "server.cpus", "server.ram_gb", "current.aix_vmo",
        "current.aix_ioo",
    ),
    reads=((AIX_SCRIPT, "j2_maxPageReadAhead"),),
)  # fmt: skip
def vmo_free(inv: Inventory, out: Emitter) -> None:
    """maxfree first (the script checks minfree < maxfree at every step), then minfree."""
    lcpus, now = inv.server.cpus, _table(inv, "vmo")
    read_ahead, whence = _read_ahead(inv, out)
    kept, pools = _held(now, "minfree") or 0, memory_pools(inv)[0]
    minfree, maxfree = free_targets(lcpus, read_ahead, kept, pools)
    formula_min = free_targets(lcpus, read_ahead, pools=pools)[0]
    why = _why(inv, read_ahead, whence, (minfree, maxfree), kept > formula_min)
    expect = f"minfree ≥ {minfree} and maxfree ≥ {maxfree}"
    if maxfree > maxfree_ceiling(inv):
        _warn_too_large(inv, out, maxfree, why)
        check(out, "check:vmo -o minfree", "vmo -o minfree -o maxfree", expect, why)
        return
    changed = False
    for name, value, default in (("maxfree", maxfree, MAXFREE_DEFAULT),
                                 ("minfree", minfree, MINFREE_DEFAULT)):  # fmt: skip
        held = _held(now, name)
        if held is not None and held >= value:
            continue
        tune(out, inv, "vmo", name, str(value), str(default), rationale=why,
             evidence="IBM 'Values for minfree and maxfree parameters'; ibm-sas-aix71")  # fmt: skip
        changed = True
    if not changed:
        check(out, "check:vmo -o minfree", "vmo -o minfree -o maxfree",
              expect + " (kept: already as large)", why)  # fmt: skip


RULES: tuple[Rule, ...] = (vmo_free,)
