"""What the Linux rules share about a Linux server: its distribution family and release,
the kernel it runs (given, or the one its release ships), and what that kernel and the
release's tuned accept.

Kernels per release: RHEL 7 3.10, RHEL 8 4.18, RHEL 9 5.14, RHEL 10 6.12 (Red Hat, "Red Hat
Enterprise Linux Release Dates"); SLES 12 4.12 (SP5), SLES 15 5.14 (SP4+) (SUSE release
notes); Ubuntu LTS 20.04 5.4, 22.04 5.15, 24.04 6.8 (Ubuntu kernel release cycle). Oracle
Linux, CentOS, Rocky and AlmaLinux follow the RHEL release of the same major number.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.derive.labels import distribution_label
from rules.derive.memo import per_inventory
from rules.inventory import Inventory
from rules.versions import version_tuple

RHEL_LIKE = ("rhel", "ol", "centos", "rocky", "alma")
RHEL_KERNELS = {7: (3, 10), 8: (4, 18), 9: (5, 14), 10: (6, 12)}
SLES_KERNELS = {12: (4, 12), 15: (5, 14)}
UBUNTU_KERNELS = {20: (5, 4), 22: (5, 15), 24: (6, 8)}
# Linux 5.13 moved the CFS tunables (sched_min_granularity_ns, sched_wakeup_granularity_ns,
# sched_migration_cost_ns …) from /proc/sys/kernel to debugfs (kernel commit 8a99b6833c88,
# "sched: Move SCHED_DEBUG sysctl to debugfs"); tuned followed (tuned a936fb8).
SCHED_SYSCTLS_GONE = (5, 13)
# tuned 2.25 moved the dirty-page settings from [sysctl] to its [vm] plugin (tuned 155f232,
# "Adjust profiles to set dirty_(bytes|ratio) via the vm plugin"); RHEL 9.6 is the first
# RHEL release taken to ship tuned 2.25 (unconfirmed: from the tuned release dates).
TUNED_VM_DIRTY_SINCE = {"rhel": (9, 6)}


@dataclass(frozen=True)
class LinuxRelease:
    family: str  # "rhel" (and its rebuilds), "sles", "ubuntu", "other"
    major: int
    kernel: tuple[int, ...] | None  # None: neither given nor known for the release
    kernel_given: bool
    assumed: str  # what was assumed, for rationales ("" when nothing was)
    distribution: str = "rhel"  # the contract's name; "rhel" where none was given

    @property
    def name(self) -> str:
        """The distribution's own name: 'Oracle Linux', never its upstream's."""
        return distribution_label(self.distribution, str(self.major))

    @property
    def label(self) -> str:
        return f"{self.name} {self.major}"

    @property
    def is_rhel(self) -> bool:
        """Red Hat Enterprise Linux itself: only then may advice speak of RHEL's guidance."""
        return self.distribution == "rhel"

    def kernel_at_least(self, version: tuple[int, ...]) -> bool | None:
        return None if self.kernel is None else self.kernel >= version


def _family(distribution: str | None) -> str:
    if distribution is None or distribution in RHEL_LIKE:
        return "rhel"
    if distribution == "opensuse":  # Leap 15.x is built from SLES 15's sources, kernel too
        return "sles"
    return distribution if distribution in ("sles", "ubuntu") else "other"


def _shipped_kernel(family: str, major: int) -> tuple[int, ...] | None:
    table = {"rhel": RHEL_KERNELS, "sles": SLES_KERNELS, "ubuntu": UBUNTU_KERNELS}
    return table.get(family, {}).get(major)


@per_inventory
def linux_release(inv: Inventory) -> LinuxRelease:
    server = inv.server
    family, major = _family(server.distribution), server.version[0]
    notes = []
    if server.distribution is None:
        notes.append(f"no Linux distribution given: OS version {server.os_version} read as RHEL")
    kernel = version_tuple(server.kernel) if server.kernel else _shipped_kernel(family, major)
    if server.kernel is None and kernel is not None:
        notes.append(f"kernel taken as {'.'.join(map(str, kernel))}, the one it ships")
    return LinuxRelease(
        family, major, kernel, server.kernel is not None, "; ".join(notes),
        server.distribution or "rhel",
    )  # fmt: skip


def tuned_dirty_in_vm(inv: Inventory) -> bool:
    """Whether this release's tuned sets the dirty-page values in [vm] (tuned ≥ 2.25)."""
    release = linux_release(inv)
    since = TUNED_VM_DIRTY_SINCE.get(release.family)
    return since is not None and inv.server.version >= since
