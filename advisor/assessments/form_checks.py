"""Checks across a storage entry's fields that the contract does not make: a stripe a RAID
can have, a file system the server's OS runs, device and adapter names that OS gives.
Each problem says what would fit instead. The inventory form runs them (with the largest
table against the total data, inventory_form.form_problems) before it saves or previews.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from advisor.assessments.forms import CHOICE_LABELS
from rules import Problem

# A RAID stripe unit is a power of two: 4 KB (the smallest page) up to the 128 MB of an
# AIX LVM strip (mklv -S); hardware arrays stay within 4 KB-1 MB.
STRIPE_KB = (4, 128 * 1024)
FILESYSTEMS = {
    "aix": ("jfs2", "jfs", "gpfs", "vxfs"),
    "linux": ("xfs", "ext4", "gpfs", "vxfs", "zfs"),
    "solaris": ("zfs", "ufs", "vxfs"),
    "hpux": ("vxfs", "jfs"),  # HP's JFS is VxFS
    "windows": ("ntfs",),  # ReFS: Other
}
ANY_OS = ("nfs", "other")
# Device and adapter names only one family of systems gives: elsewhere they are a slip.
NAMED_BY = (
    (re.compile(r"(?:fscsi|fcs|vscsi|sissas)[0-9]+|hdisk(?:power)?[0-9]+|vpath[0-9]+"),
     ("aix",), "an AIX"),
    (re.compile(r"host[0-9]+|sd[a-z]{1,3}|nvme[0-9]+n[0-9]+|dm-[0-9]+|x?vd[a-z]{1,3}|mpath[a-z]+"),
     ("linux",), "a Linux"),
    (re.compile(r"c[0-9]+(?:t[0-9A-Fa-f]+)?d[0-9]+(?:s[0-9]+)?"), ("solaris", "hpux"),
     "a Solaris or HP-UX"),
    (re.compile(r"(?i:physicaldrive)[0-9]+"), ("windows",), "a Windows"),
)  # fmt: skip
NAME_HINTS = {
    "adapters": {"aix": "fscsi0, vscsi0 (lsdev -Cc adapter)", "linux": "host0 (lsscsi -H)"},
    "devices": {"aix": "hdisk4 (lspv)", "linux": "sdb, nvme0n1, dm-3 (lsblk)",
                "solaris": "c0t1d0 (format)", "windows": "PhysicalDrive1 (Get-Disk)"},
}  # fmt: skip


def _choice(value: str) -> str:
    return CHOICE_LABELS.get(value, value)


def row_problems(entry: Mapping[str, Any], at: str, os_name: Any) -> list[Problem]:
    """The entry's problems, each at its path under `at` ('storage[2].stripe_kb')."""
    found = []
    stripe = entry.get("stripe_kb")
    low, high = STRIPE_KB
    if type(stripe) is int and not (low <= stripe <= high and stripe & (stripe - 1) == 0):
        message = f"is not a stripe a RAID can have: a power of two from {low} KB to {high} KB"
        found.append(Problem(f"{at}.stripe_kb", f"{message} (… 32, 64, 128, 256 …)"))
    fits = FILESYSTEMS.get(os_name) if isinstance(os_name, str) else None
    fs = entry.get("filesystem")
    if fits is not None and isinstance(fs, str) and fs not in fits + ANY_OS:
        choose = ", ".join(_choice(f) for f in fits + ANY_OS)
        found.append(
            Problem(f"{at}.filesystem", f"{_choice(fs)} does not run on {_choice(os_name)}: "
                    f"choose {choose}")
        )  # fmt: skip
    if fits is not None:
        found += _names(entry, at, os_name)
    return found


def _owner(name: Any) -> tuple[tuple[str, ...], str] | None:
    """The systems that give a device name like this one, if only some do."""
    if not isinstance(name, str):
        return None
    return next(((oses, who) for p, oses, who in NAMED_BY if p.fullmatch(name)), None)


def _names(entry: Mapping[str, Any], at: str, os_name: str) -> list[Problem]:
    found, system = [], _choice(os_name)
    for key, hints in NAME_HINTS.items():
        names = entry.get(key)
        for i, name in enumerate(names if isinstance(names, list) else []):
            owner = _owner(name)
            if owner is None or os_name in owner[0]:
                continue
            hint = f"; {system} names them like {hints[os_name]}" if os_name in hints else ""
            message = f"{name} is {owner[1]} name, not one {system} gives{hint}"
            found.append(Problem(f"{at}.{key}[{i}]", message))
    return found
