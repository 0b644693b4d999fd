"""Rule aix.vmo_free: minfree and maxfree scaled with the logical CPUs and the read-ahead.

The papers leave the free list alone. IBM's later SAS guidance for AIX 7.1 (ibm-sas-aix71)
sizes it from the logical CPUs: minfree = max(960, 128 × logical CPUs) and maxfree =
minfree + j2_maxPageReadAhead × logical CPUs, and IBM's own rule (ibm-aix-minfree, "Values
for minfree and maxfree parameters") keeps maxfree − minfree ≥ j2_maxPageReadAhead, which
that formula always meets. The defaults (960 and 1088 pages, from AIX 5.3) are IBM's per
memory pool; the guidance's formula counts logical CPUs of the whole LPAR and is applied as
given (how it divides over memory pools is unconfirmed), never lowering a larger value.
"""

from __future__ import annotations

from rules.catalog.aix.common import J2_MAX_PAGE_READ_AHEAD_DEFAULT, check, tune
from rules.catalog.aix.common import with_tuning_commands as _tuning
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, Rule, rule

AIX53 = (5, 3)
MINFREE_DEFAULT, MAXFREE_DEFAULT = 960, 1088  # 4 KB pages per memory pool, AIX 5.3+
PAGES_PER_LCPU = 128  # ibm-sas-aix71: minfree 120-128 per logical CPU; 128 used


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


def free_targets(lcpus: int, read_ahead: int) -> tuple[int, int]:
    """(minfree, maxfree) by IBM's SAS guidance for AIX 7.1 (ibm-sas-aix71)."""
    minfree = max(MINFREE_DEFAULT, PAGES_PER_LCPU * lcpus)
    return minfree, minfree + read_ahead * lcpus


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
    inputs=("server.os_version", "server.cpus", "current.aix_vmo", "current.aix_ioo"),
    reads=((AIX_SCRIPT, "j2_maxPageReadAhead"),),
)
def vmo_free(inv: Inventory, out: Emitter) -> None:
    """maxfree first (the script checks minfree < maxfree at every step), then minfree."""
    lcpus = inv.server.cpus
    read_ahead, whence = _read_ahead(inv, out)
    minfree, maxfree = free_targets(lcpus, read_ahead)
    now = _table(inv, "vmo")
    why = (
        f"{lcpus} logical CPUs and j2_maxPageReadAhead {read_ahead} ({whence}): IBM's SAS "
        f"guidance for AIX 7.1 sizes the free list as minfree = max(960, {PAGES_PER_LCPU} × "
        f"{lcpus}) = {minfree} and maxfree = minfree + {read_ahead} × {lcpus} = {maxfree} "
        "pages, so page stealing starts before every CPU's read-ahead has to wait for a free "
        "page; IBM keeps maxfree − minfree ≥ j2_maxPageReadAhead (ibm-aix-minfree). The "
        "defaults 960/1088 are per memory pool (vmstat -v: memory pools); applying the "
        "formula per pool is unconfirmed, so compare free memory (vmstat fre) before and "
        "after."
    )
    changed = False
    for name, value, default in (("maxfree", maxfree, MAXFREE_DEFAULT),
                                 ("minfree", minfree, MINFREE_DEFAULT)):  # fmt: skip
        held = now.get(name, "")
        if held.isdigit() and int(held) >= value:
            continue
        tune(out, inv, "vmo", name, str(value), str(default), rationale=why,
             evidence="IBM 'Values for minfree and maxfree parameters'; ibm-sas-aix71")  # fmt: skip
        changed = True
    if not changed:
        expect = f"minfree ≥ {minfree} and maxfree ≥ {maxfree} (kept: already as large)"
        check(out, "check:vmo -o minfree", "vmo -o minfree -o maxfree", expect, why)


RULES: tuple[Rule, ...] = (vmo_free,)
