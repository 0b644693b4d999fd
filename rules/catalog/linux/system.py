"""Rules linux.filesystems, linux.limits and linux.governor: what SAS data and WORK sit on,
how many files and processes the SAS accounts may open, and the CPU frequency governor.

Sources: XFS for large files, in each distribution's own words (rules.catalog.linux.distro:
rhel-filesystems, suse-filesystems, oracle-linux-xfs); no local file system type is advised
on a shared or cluster file system (NFS, Spectrum Scale, Lustre, CIFS: its server or cluster
chose it); no SASWORK on NFS (sas-nfs-work); open-file and process limits (sas-limits, unconfirmed);
the performance governor is throughput-performance's (tuned-profiles, [cpu] governor).
"""

from __future__ import annotations

from rules.catalog.linux.common import ON_LINUX, PARENT_GOVERNOR, SAS_ROLES, check, tune
from rules.catalog.linux.distro import xfs_guidance
from rules.derive.linux import linux_release
from rules.emitter import Emitter
from rules.inventory import Inventory, Storage
from rules.model import LINUX_SCRIPT, SYSTEM, TUNED, Rule, rule
from rules.payloads import LinuxTunable

GOVERNOR_PATH = "/sys/devices/system/cpu/{cpu}/cpufreq/scaling_governor"
# sas-limits (unconfirmed): at least 10240 open files for SAS server accounts; grid nodes
# run with far more (nofile 500000, nproc 131072).
NOFILE_MIN = 10240
NPROC_MIN = 10240
WORK_ROLES = ("work", "utilloc", "spds_work")


@rule(
    id="linux.filesystems",
    title="SAS data and WORK on XFS, never WORK on NFS",
    sources=("rhel-filesystems", "suse-filesystems", "oracle-linux-xfs", "sas-nfs-work"),
    settings=(),
    applies=ON_LINUX,
    inputs=(
        "storage[].filesystem", "storage[].role", "storage[].mount", "server.distribution",
    ),
)  # fmt: skip
def filesystems(inv: Inventory, out: Emitter) -> None:
    """Warn where WORK is on NFS or SAS storage is not XFS; check each mount read-only."""
    for entry in inv.by_role(*WORK_ROLES):
        if entry.filesystem == "nfs":
            out.warn(
                f"{entry.mount} ({entry.role}) is on NFS. SAS WORK traffic is about half "
                "writes, half reads, and all of it is deleted: NFS's close-to-open "
                "consistency and network round trips make it the slowest place for it.",
                action="Move WORK and UTILLOC to local or SAN block storage (XFS).",
                severity="high", sources=("sas-nfs-work",),
            )  # fmt: skip
    guidance = xfs_guidance(linux_release(inv))
    for entry in inv.by_role(*SAS_ROLES):
        if entry.filesystem in ("ext4", "other") and entry.shared_kind is None:
            out.warn(
                f"{entry.mount} ({entry.role}) is {entry.filesystem}: {guidance.text}.",
                action="Use XFS for new SAS file systems.", severity="low",
                sources=guidance.sources,
            )  # fmt: skip


def _expect(entries: tuple[Storage, ...]) -> str:
    """What df -T should show: xfs advised only for the local file systems."""
    local = [s.mount for s in entries if s.shared_kind is None]
    shared = [f"{s.mount} {s.shared_kind}" for s in entries if s.shared_kind is not None]
    said = "each SAS mount on its own file system, of the type recorded"
    if not shared:
        return said + " (xfs advised)"
    if local:
        said += f" (xfs advised for the local {', '.join(local)})"
    if shared:
        said += (
            f"; shared: {', '.join(shared)}, whose type its server or cluster chose (no local "
            "file system type is advised for it)"
        )
    return said


@rule(
    id="linux.mount_checks",
    title="Check what each SAS file system is mounted as",
    sources=("rhel-filesystems",),
    settings=((LINUX_SCRIPT, "check:df -T"),),
    applies=ON_LINUX,
    inputs=("storage[].mount", "storage[].filesystem"),
)
def mount_checks(inv: Inventory, out: Emitter) -> None:
    """One read-only `df -T` over the SAS mounts, run and printed by linux_tuning.sh."""
    entries = inv.by_role(*SAS_ROLES)
    if not entries:
        out.skip("storage", "no SAS storage entry to check")
        return
    recorded = ", ".join(f"{s.mount} {s.filesystem}" for s in entries)
    check(
        out,
        "check:df -T",
        ("df", "-T", *(s.mount for s in entries)),
        _expect(entries),
        f"The inventory records {recorded}; df -T shows what is mounted there now.",
    )


@rule(
    id="linux.limits",
    title="Open files and processes for the SAS accounts",
    sources=("sas-limits",),
    settings=((SYSTEM, "limits:nofile"), (SYSTEM, "limits:nproc")),
    applies=ON_LINUX,
    inputs=("workload.concurrent_sessions",),
)
def limits(inv: Inventory, out: Emitter) -> None:
    """Each SAS session holds many WORK and utility files open at once."""
    sessions = inv.workload.concurrent_sessions
    why = (
        f"{sessions} concurrent SAS sessions each hold WORK, utility and data set files open; "
        "the distribution's default of 1024 open files per process is too low for a SAS "
        "server account. The figure rests on SAS deployment material read second-hand: "
        "unconfirmed."
    )
    for name, low in (("nofile", NOFILE_MIN), ("nproc", NPROC_MIN)):
        out.set(
            SYSTEM, f"limits:{name}", f"{name} {low}", kind="advice",
            rationale=f"In /etc/security/limits.d/99-sas.conf for the SAS accounts (sas, the "
            f"installer and server accounts): soft and hard {name} at least {low}. " + why,
        )  # fmt: skip


@rule(
    id="linux.governor",
    title="CPU frequency governor: performance",
    sources=("tuned-profiles",),
    settings=((TUNED, "governor"),),
    applies=ON_LINUX,
    inputs=("server.os",),
)
def governor(inv: Inventory, out: Emitter) -> None:
    """Written out although the parent sets it, so the script applies it without tuned."""
    tune(
        out, LinuxTunable("cpu", "governor", GOVERNOR_PATH), PARENT_GOVERNOR,
        setting="governor",
        rationale="throughput-performance's governor: CPUs stay at their rated frequency "
        "instead of ramping up under each SAS step. Virtual machines often have no cpufreq "
        "driver; linux_tuning.sh then says so and changes nothing.",
        evidence="tuned profiles/throughput-performance/tuned.conf [cpu] governor=performance",
    )  # fmt: skip


RULES: tuple[Rule, ...] = (filesystems, mount_checks, limits, governor)
