"""Rules windows.*: the Windows host around SAS.

Sources: SAS 9.4 Companion for Windows, "Windows Features That Optimize Performance"
(sas-win-performance: background services for batch SAS); Microsoft's Windows Server
performance tuning guidelines (ms-power-plan: the High performance power plan); field
practice for the allocation unit of SASWORK and antivirus exclusions (win-sas-field,
unconfirmed); Microsoft's cluster-size guidance and Format-Volume reference for ReFS
(ms-cluster-size, ms-format-volume). A volume is never told to change file system type: an
NTFS one gets NTFS advice, a ReFS one ReFS advice, any other a check. These are advice for
the administrator: the advisor writes no Windows script.
"""

from __future__ import annotations

from rules.derive.scope import on_os
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.inventory_fit import FS_LABELS
from rules.model import SYSTEM, Rule, rule

ON_WINDOWS = on_os("windows")
WORK_ROLES = ("work", "utilloc")
# win-sas-field (unconfirmed): 64 KB clusters, as Crevar aligns stripes and pages at 64K.
NTFS_UNIT_KB = 64
FIELD = ("win-sas-field",)
# The drive holding \Windows on a standard install: never told to reformat, since only
# reinstalling Windows changes its allocation unit; WORK is told to move off it instead.
SYSTEM_DRIVE = "c:"
MICROSOFT = ("ms-cluster-size", "ms-format-volume")
UNCONFIRMED = "Field practice: unconfirmed."


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


# (setting, value, rationale, sources) of one piece of advice.
Advice = tuple[str, str, str, tuple[str, ...]]


def _ntfs(mounts: list[str], system: list[str]) -> Advice:
    """`mounts` may be reformatted; `system` are on the system drive, which is not."""
    why = []
    if mounts:
        why.append(
            f"Format the volumes of {', '.join(mounts)} with {NTFS_UNIT_KB} KB allocation "
            "units (format X: /FS:NTFS /A:64K; fsutil fsinfo ntfsinfo X: shows 'Bytes Per "
            "Cluster'): SAS reads and writes WORK in large pages, and 64K matches the stripe "
            "and page alignment SAS's I/O guidance uses. Only a reformat changes it."
        )
    if system:
        why.append(
            f"{', '.join(system)} {'is' if len(system) == 1 else 'are'} on C:, the Windows "
            "system drive, which is never reformatted (only reinstalling Windows changes its "
            "allocation unit): move SAS WORK and UTILLOC to a dedicated volume formatted with "
            f"{NTFS_UNIT_KB} KB allocation units (format X: /FS:NTFS /A:64K on the new, empty "
            "volume) and point -WORK and -UTILLOC at it."
        )
    return "NTFS allocation unit", f"{NTFS_UNIT_KB} KB", " ".join([*why, UNCONFIRMED]), FIELD


def _refs(mounts: str) -> Advice:
    why = (
        f"Keep {mounts} on ReFS and check its cluster size first: fsutil fsinfo refsinfo X: "
        "shows 'Bytes Per Cluster'. ReFS offers 4K clusters, its default, and 64K, which "
        "Microsoft names for large sequential I/O (ms-cluster-size), the kind SAS WORK does; "
        "64K also matches the stripe and page alignment SAS's I/O guidance uses. Only a "
        "format changes it, and a format erases the volume: if it shows 4096 and the volume "
        "can be emptied, Format-Volume -DriveLetter X -FileSystem ReFS -AllocationUnitSize "
        "65536 (ms-format-volume). 64K for SAS WORK is field practice: unconfirmed."
    )
    return "ReFS allocation unit", f"{NTFS_UNIT_KB} KB", why, (*FIELD, *MICROSOFT)


def _other(volumes: list[Storage]) -> Advice:
    kinds = ", ".join(sorted({FS_LABELS[s.filesystem] for s in volumes}))
    why = (
        f"{', '.join(s.mount for s in volumes)} ({kinds}): the advisor has no allocation-unit "
        "advice for this file system and never advises formatting a volume as another "
        "type. Check its block or cluster size against SAS's 64K page alignment with its "
        "own tools (Get-Volume -DriveLetter X | Select-Object FileSystem, "
        "AllocationUnitSize shows a local volume's; a share's is set on its server) and "
        "record the file system type in the inventory (ntfs or refs) for advice of its own."
    )
    return "allocation unit check", "check, keep the file system", why, (*FIELD, *MICROSOFT)


def _antivirus(mounts: str) -> Advice:
    why = (
        f"Exclude {mounts} from on-access antivirus scanning: every SAS step creates, writes "
        "and deletes its WORK and utility files there, and a scan of each one costs time for "
        "files that never leave the server. Field practice: unconfirmed."
    )
    return "antivirus exclusions", mounts, why, FIELD


def _volume_advice(work: tuple[Storage, ...]) -> list[Advice]:
    """Each volume gets the advice of the file system it has; none is told to change type."""
    found: list[Advice] = []
    ntfs = [s.mount for s in work if s.filesystem == "ntfs"]
    refs = [s.mount for s in work if s.filesystem == "refs"]
    others = [s for s in work if s.filesystem not in ("ntfs", "refs")]
    if ntfs:
        system = [m for m in ntfs if m[:2].lower() == SYSTEM_DRIVE]
        found.append(_ntfs([m for m in ntfs if m not in system], system))
    if refs:
        found.append(_refs(", ".join(refs)))
    if others:
        found.append(_other(others))
    return [*found, _antivirus(", ".join(s.mount for s in work))]


@rule(
    id="windows.work_volumes",
    title="SASWORK volumes: 64 KB allocation units on their own file system, no antivirus scanning",
    sources=(*FIELD, *MICROSOFT),
    settings=(
        (SYSTEM, "NTFS allocation unit"),
        (SYSTEM, "ReFS allocation unit"),
        (SYSTEM, "allocation unit check"),
        (SYSTEM, "antivirus exclusions"),
    ),
    applies=ON_WINDOWS,
    inputs=("storage[].role", "storage[].mount", "storage[].filesystem"),
)
def work_volumes(inv: Inventory, out: Emitter) -> None:
    """WORK and UTILLOC see large sequential I/O to files that live minutes."""
    work = inv.by_role(*WORK_ROLES)
    if not work:
        out.skip("storage", "no work or utilloc storage entry")
        return
    for setting, value, why, sources in _volume_advice(work):
        out.set(SYSTEM, setting, value, kind="advice", rationale=why, sources=sources)


RULES: tuple[Rule, ...] = (processor_scheduling, power_plan, work_volumes)
