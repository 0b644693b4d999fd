"""Rules windows.*: the Windows host around SAS.

Sources: SAS 9.4 Companion for Windows, "Windows Features That Optimize Performance"
(sas-win-performance: background services for batch SAS); Microsoft's Windows Server
performance tuning guidelines (ms-power-plan: the High performance power plan); field
practice for the NTFS allocation unit of SASWORK and antivirus exclusions (win-sas-field,
unconfirmed). These are advice for the administrator: the advisor writes no Windows script.
"""

from __future__ import annotations

from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import SYSTEM, Rule, rule

ON_WINDOWS = on_os("windows")
WORK_ROLES = ("work", "utilloc")
# win-sas-field (unconfirmed): 64 KB clusters, as Crevar aligns stripes and pages at 64K.
NTFS_UNIT_KB = 64


@rule(
    id="windows.processor_scheduling",
    title="Processor scheduling for background services on a batch SAS server",
    sources=("sas-win-performance",),
    settings=((SYSTEM, "processor scheduling"),),
    applies=ON_WINDOWS,
    inputs=("workload.concurrent_sessions",),
)
def processor_scheduling(inv: Inventory, out: Emitter) -> None:
    """SAS's own Windows guide: background services for batch, programs for interactive."""
    out.set(
        SYSTEM, "processor scheduling", "Background services", kind="advice",
        rationale="System Properties > Advanced > Performance Settings > Advanced: Background "
        "services, so batch SAS sessions and SAS servers get the longer time slices; choose "
        "Programs only on a desktop where SAS runs interactively (SAS 9.4 Companion for "
        "Windows, 'Windows Features That Optimize Performance').",
    )  # fmt: skip


@rule(
    id="windows.power_plan",
    title="High performance power plan",
    sources=("ms-power-plan",),
    settings=((SYSTEM, "power plan"),),
    applies=ON_WINDOWS,
    inputs=("server.os",),
)
def power_plan(inv: Inventory, out: Emitter) -> None:
    """Balanced lets cores park and clock down between SAS steps."""
    out.set(
        SYSTEM, "power plan", "High performance", kind="advice",
        rationale="powercfg /setactive SCHEME_MIN (High performance): the Balanced plan parks "
        "cores and lowers clocks between bursts, which Microsoft's performance tuning "
        "guidelines name as the cost of Balanced for throughput-critical servers. Check "
        "with powercfg /getactivescheme; undo with powercfg /setactive SCHEME_BALANCED.",
    )  # fmt: skip


@rule(
    id="windows.work_volumes",
    title="SASWORK volumes: 64 KB NTFS allocation units, no antivirus scanning",
    sources=("win-sas-field",),
    settings=((SYSTEM, "NTFS allocation unit"), (SYSTEM, "antivirus exclusions")),
    applies=ON_WINDOWS,
    inputs=("storage[].role", "storage[].mount", "storage[].filesystem"),
)
def work_volumes(inv: Inventory, out: Emitter) -> None:
    """WORK and UTILLOC see large sequential I/O to files that live minutes."""
    work = inv.by_role(*WORK_ROLES)
    if not work:
        out.skip("storage", "no work or utilloc storage entry")
        return
    mounts = ", ".join(s.mount for s in work)
    out.set(
        SYSTEM, "NTFS allocation unit", f"{NTFS_UNIT_KB} KB", kind="advice",
        rationale=f"Format the volumes of {mounts} with {NTFS_UNIT_KB} KB allocation units "
        "(format X: /FS:NTFS /A:64K; fsutil fsinfo ntfsinfo X: shows 'Bytes Per Cluster'): "
        "SAS reads and writes WORK in large pages, and 64K matches the stripe and page "
        "alignment SAS's I/O guidance uses. Only a reformat changes it. Field practice: "
        "unconfirmed.",
    )  # fmt: skip
    out.set(
        SYSTEM, "antivirus exclusions", mounts, kind="advice",
        rationale=f"Exclude {mounts} from on-access antivirus scanning: every SAS step "
        "creates, writes and deletes its WORK and utility files there, and a scan of each "
        "one costs time for files that never leave the server. Field practice: unconfirmed.",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (processor_scheduling, power_plan, work_volumes)
