"""Recommended against current: what each recommendation changes on the server.

A recommendation's current value comes from the inventory's `current` block (what the
collector read: SAS options, SPD Server parameters, AIX ioo/vmo, device attributes). Its
status is `keep` when the server already runs the recommended value, `change` when it runs
another one (or when the value was read as absent from its file, `NOT_SET`: the product's
default then gives way to the recommendation), `unknown` when nothing was read (the
generated file sets the value whatever it is now; whether that changes anything is not
known), and `check` for read-only checks and advice, which change no line. `verify` holds a saved
result against a newer reading of the server: recommended, actual, compliant.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from rules.current import Current
from rules.inventory import Inventory
from rules.model import AIX_SCRIPT, SPDSSERV, Recommendation
from rules.payloads import Check, LinuxTunable, Tunable

Status = Literal["change", "unknown", "keep", "check"]
NOT_SET = "(not set)"  # read, and not in the file: the product's default applies
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)B?", re.I)
_FACTOR = {"": 1 / (1024 * 1024), "K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}
_PART = re.compile(r"nvme[0-9]+n[0-9]+p[0-9]+$")  # a partition: no queue of its own
_ON_OFF = {"on": True, "off": False, "yes": True, "no": False}


@dataclass(frozen=True)
class Row:
    """One line of a current → recommended (or verify) table."""

    rule: str
    target: str
    setting: str
    recommended: str
    current: str | None  # None: not read
    status: Status
    how: str | None = None  # verify: how a row not verified could be (rules.verify_how)

    @property
    def compliant(self) -> bool | None:
        """For verify: does the server run the recommendation? None where it can't say."""
        if self.status in ("check", "unknown"):
            return None
        return self.status == "keep"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "target": self.target,
            "setting": self.setting,
            "recommended": self.recommended,
            "current": self.current,
            "status": self.status,
            "compliant": self.compliant,
            "how": self.how,
        }


def _lookup(table: dict[str, str] | None, setting: str, boolean: bool) -> str | None:
    if table is None:
        return None
    name = setting.upper()
    if name in table:
        return table[name] if not boolean or table[name] else "on"
    if boolean and "NO" + name in table:
        return "off"
    return NOT_SET


def _check_value(current: Current, payload: Check) -> str | None:
    argv = payload.argv
    if argv[:2] == ("lsattr", "-El") and len(argv) == 5 and current.devices is not None:
        return current.devices.get(argv[2], {}).get(argv[4])
    if argv[:2] in (("ioo", "-o"), ("vmo", "-o")) and len(argv) == 3:
        table = current.aix_ioo if argv[0] == "ioo" else current.aix_vmo
        return table.get(argv[2]) if table is not None else None
    return None


def current_value(inv: Inventory, rec: Recommendation, current: Current | None) -> str | None:
    """What the server runs now for this recommendation; None where nothing says."""
    return value_read(inv.config_file, rec, current)


def value_read(config_file: str, rec: Recommendation, current: Current | None) -> str | None:
    """As `current_value`, the SAS options' file named (verify reads it from stored advice)."""
    if current is None:
        return None
    boolean = rec.value.lower() in _ON_OFF or rec.value == ""
    if rec.target == config_file:
        return _lookup(current.sas_options, rec.setting, boolean)
    if rec.target == SPDSSERV:
        return _lookup(current.spds_parameters, rec.setting, boolean)
    if rec.target == AIX_SCRIPT and isinstance(rec.payload, Tunable):
        table = current.aix_ioo if rec.payload.command == "ioo" else current.aix_vmo
        return table.get(rec.setting) if table is not None else None
    if isinstance(rec.payload, Check):
        return _check_value(current, rec.payload)
    if isinstance(rec.payload, LinuxTunable):
        return _linux_value(current, rec, rec.payload)
    return None


def _linux_value(current: Current, rec: Recommendation, tunable: LinuxTunable) -> str | None:
    """A Linux setting as the collector read it: sysctl -a, the THP choice, /sys/block."""
    if tunable.path.startswith("/proc/sys/"):
        key = tunable.path[len("/proc/sys/") :].replace("/", ".")
        return None if current.linux_sysctl is None else current.linux_sysctl.get(key)
    if tunable.path == "/sys/kernel/mm/transparent_hugepage/enabled":
        return current.linux_thp
    if tunable.devices and "/queue/" in tunable.path and current.devices is not None:
        attribute = tunable.path.rsplit("/", 1)[-1]
        names = _device_names(tunable.devices, current.devices)
        values = [current.devices.get(d, {}).get(attribute) for d in names]
        if not values or None in values:
            return None
        # The first device that falls short speaks for the set; else their common value.
        return next((v for v in values if v is not None and not same(rec.value, v)), values[0])
    return None


def _device_names(devices: Iterable[str], read: dict[str, dict[str, str]]) -> list[str]:
    """Kernel names as given, a pattern (nvme*) as every disk read that it matches."""
    names: list[str] = []
    for device in devices:
        if device.endswith("*"):
            matched = (d for d in read if fnmatch.fnmatchcase(d, device))
            names += sorted(d for d in matched if not _PART.match(d))
        else:
            names.append(device)
    return names


def _size_mb(text: str) -> float | None:
    found = _SIZE.fullmatch(text.strip())
    if found is None:
        return None
    return float(found.group(1)) * _FACTOR[found.group(2).upper()]


def _normal(text: str) -> str:
    return " ".join(text.strip().strip("'\"").split()).lower()


def same(recommended: str, current: str) -> bool:
    """Equal as settings: '4G' is '4096M', 'on' is a bare flag, case and spacing aside;
    tuned's '>N' (at least N) holds for any number from N up."""
    if recommended.startswith(">") and recommended[1:].isdigit():
        return current.strip().isdigit() and int(current) >= int(recommended[1:])
    if recommended == "" or recommended.lower() in _ON_OFF:
        want = _ON_OFF.get(recommended.lower(), True)
        return current != NOT_SET and _ON_OFF.get(current.lower(), True) == want
    a, b = _size_mb(recommended), _size_mb(current)
    if a is not None and b is not None:
        return abs(a - b) < 1e-9
    return _normal(recommended) == _normal(current)


def status_of(rec: Recommendation, current: str | None) -> Status:
    """`unknown` where nothing was read: an unread value is never a guessed change."""
    if rec.kind != "change":
        return "check"
    if current is None:
        return "unknown"
    if current == NOT_SET:
        return "change"
    return "keep" if same(rec.value, current) else "change"


def rows(
    inv: Inventory, recs: Iterable[Recommendation], current: Current | None = None
) -> list[Row]:
    """One row per recommendation, against `current` (the inventory's own by default)."""
    now = inv.current if current is None else current
    out = []
    for rec in recs:
        value = current_value(inv, rec, now)
        out.append(Row(rec.rule, rec.target, rec.setting, rec.value, value, status_of(rec, value)))
    return out
