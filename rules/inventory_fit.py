"""Checks across fields that a document must pass to describe a server that can exist: the
largest table within the total data that holds it (a total of 0 is none given), a stripe
unit in whole 4 KB pages up to AIX LVM's largest, a file system the server's OS mounts.

`rules.validate.parse` runs them on the raw document whatever else is wrong with it, so
every entry point (the form, the API, the CLI, fleets) refuses the same documents and lists
these problems with the contract's own. A value of the wrong type is left to the contract,
and a problem at a path the contract already faults is not repeated. Device and adapter
names of another system are a judgement (AIX's rendev and Linux multipath aliases rename
devices), so they are a warning of the rule `storage.device_names`, not a refusal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from rules.derive.labels import OS_LABELS
from rules.problems import Problem

# A stripe unit is at least a 4 KB page and at most AIX LVM's largest strip (mklv -S 128M),
# in whole 4 KB pages. Controllers and LVM (AIX, Linux) set a strip per disk as a power of
# two, but the unit a site reads off its storage need not be one: Linux md takes for RAID 0
# any multiple of 4 KB (mdadm --chunk), and arrays report full-stripe sizes such as 3 data
# disks × 32 KB = 96 KB. Such a unit is flagged by placement.stripe_alignment, not refused.
STRIPE_MIN_KB = 4
STRIPE_MAX_KB = 128 * 1024
STRIPE_STEP_KB = 4
# What each OS mounts (the contract's names); NFS and Other fit every OS.
FILESYSTEMS: dict[str, tuple[str, ...]] = {
    "aix": ("jfs2", "jfs", "gpfs", "vxfs"),
    "linux": ("xfs", "ext4", "jfs", "gpfs", "vxfs", "zfs", "ntfs"),  # jfs: Linux's JFS
    "solaris": ("zfs", "ufs", "vxfs"),
    "hpux": ("vxfs", "jfs"),  # HP's JFS is VxFS
    "windows": ("ntfs", "refs", "gpfs"),  # IBM Storage Scale has Windows nodes
}
ANY_OS = ("nfs", "other")
FS_LABELS: dict[str, str] = {
    "jfs2": "JFS2", "jfs": "JFS", "xfs": "XFS", "ext4": "ext4", "zfs": "ZFS", "ufs": "UFS",
    "vxfs": "VxFS", "gpfs": "GPFS", "ntfs": "NTFS", "refs": "ReFS", "nfs": "NFS",
    "other": "Other",
}  # fmt: skip


def fit_problems(document: Any) -> list[Problem]:
    """Every problem of these checks, each at its JSON path ('storage[2].stripe_kb')."""
    if not isinstance(document, Mapping):
        return []
    found = _largest_table(document.get("workload"))
    server = document.get("server")
    os_name = server.get("os") if isinstance(server, Mapping) else None
    storage = document.get("storage")
    for i, entry in enumerate(storage if isinstance(storage, list) else []):
        if isinstance(entry, Mapping):
            found += _stripe(entry, f"storage[{i}]")
            found += _filesystem(entry, f"storage[{i}]", os_name)
    return found


def without_repeats(problems: list[Problem], found: list[Problem]) -> list[Problem]:
    """The contract's problems, then those of `found` at a path the contract left alone."""
    faulted = {p.path for p in problems}
    return problems + [p for p in found if p.path not in faulted]


def _is_number(value: Any) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _gb(value: float) -> str:
    return f"{value:g}"


def _largest_table(work: Any) -> list[Problem]:
    if not isinstance(work, Mapping):
        return []
    largest, total = work.get("largest_table_gb"), work.get("total_data_gb")
    # A total of 0 is no data yet, or none given: the SPD Server layout then scales nothing.
    if not (_is_number(largest) and _is_number(total) and 0 < total < largest):
        return []
    message = (
        f"is larger than the total data ({_gb(total)} GB), which holds it: at most {_gb(total)} GB"
    )
    return [Problem("workload.largest_table_gb", message)]


def _stripe(entry: Mapping[str, Any], at: str) -> list[Problem]:
    stripe = entry.get("stripe_kb")
    if type(stripe) is not int:
        return []
    if STRIPE_MIN_KB <= stripe <= STRIPE_MAX_KB and stripe % STRIPE_STEP_KB == 0:
        return []
    allowed = (
        f"a multiple of {STRIPE_STEP_KB} KB (… 32, 64, 96, 128, 256 …) from {STRIPE_MIN_KB} KB "
        f"to {STRIPE_MAX_KB} KB (128 MB)"
    )
    return [Problem(f"{at}.stripe_kb", f"is not a stripe a RAID can have: {allowed}")]


def _filesystem(entry: Mapping[str, Any], at: str, os_name: Any) -> list[Problem]:
    fits = FILESYSTEMS.get(os_name) if isinstance(os_name, str) else None
    fs = entry.get("filesystem")
    if fits is None or not isinstance(fs, str) or fs in fits + ANY_OS:
        return []
    choose = ", ".join(repr(f) for f in fits + ANY_OS)
    message = f"{fs!r} does not run on {OS_LABELS[os_name]}: one of {choose}"
    return [Problem(f"{at}.filesystem", message)]
