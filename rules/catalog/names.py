"""Rule storage.device_names: device and adapter names another system gives (source:
device-names, each system's own naming: AIX lsdev/lspv, the Linux kernel's device list,
Solaris and HP-UX cXtYdZ, Windows' PhysicalDriveN).

A name like hdisk4 in a Linux inventory, or sdb on AIX, is most often a slip (an inventory
copied from another server); the per-device lines made from it (chdev, tuned's
`devices=`) then name a device the server does not have. It is a warning, not a refusal:
AIX's rendev and Linux multipath aliases can give a device any name.
"""

from __future__ import annotations

import functools
import re

from rules.derive.labels import OS_LABELS
from rules.emitter import Emitter
from rules.inventory import Inventory
from rules.model import Rule, rule

# Names only one family of systems gives its devices and adapters.
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


@functools.lru_cache(maxsize=4096)  # a fleet repeats the same few names on every server
def owner(name: str) -> tuple[tuple[str, ...], str] | None:
    """The systems that give a name like this one, if only some do."""
    return next(((oses, who) for p, oses, who in NAMED_BY if p.fullmatch(name)), None)


def foreign_names(inv: Inventory) -> list[tuple[str, str, str]]:
    """(path, name, whose name it is) for each name another system gives."""
    os_name, found = inv.server.os, []
    for s in inv.storage:
        for key, names in (("adapters", s.adapters), ("devices", s.devices)):
            for i, name in enumerate(names):
                whose = owner(name)
                if whose is not None and os_name not in whose[0]:
                    found.append((f"{s.path}.{key}[{i}]", name, whose[1]))
    return found


@rule(
    id="storage.device_names",
    title="Device and adapter names the server's OS gives",
    sources=("device-names",),
    inputs=("server.os", "storage[].adapters", "storage[].devices"),
)
def device_names(inv: Inventory, out: Emitter) -> None:
    """Warn on each name of another system's pattern, with how this OS names them."""
    system = OS_LABELS[inv.server.os]
    for path, name, whose in foreign_names(inv):
        key = path.rsplit(".", 1)[1].split("[")[0]
        hint = NAME_HINTS[key].get(inv.server.os)
        like = f"; {system} names them like {hint}" if hint else ""
        out.warn(
            f"{path}: {name} is {whose} name, not one {system} gives{like}.",
            action=f"Give the names {system} lists. A device renamed with rendev, or a "
            "multipath alias, can look like another system's: if it is one, it may stay.",
            severity="low",
        )


RULES: tuple[Rule, ...] = (device_names,)
