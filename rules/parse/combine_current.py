"""Parsed facts → the contract's `current` block: what the server runs now.

SAS options merge over the sasv9*.cfg files in the order they were read (a later file
wins, as SAS's own -CONFIG chain does); SPD Server parameters from spdsserv.parm; AIX
ioo/vmo from `-a`; Linux sysctl limited to the families the rules and tuned touch (vm.*,
kernel.sched*, kernel.numa*, kernel.shm*/sem, fs limits), THP and the tuned profile;
per-device attributes from lsattr (AIX) and /sys/block/*/queue (Linux). A name or value
the contract would refuse is left out with a note, so a hostile bundle cannot smuggle it
into a generated file.
"""

from __future__ import annotations

from typing import Any

from rules.current import (
    ATTRIBUTE,
    ATTRIBUTE_VALUE,
    DEVICE_NAME,
    MAX_SETTINGS,
    OPTION,
    SYSCTL,
    THP,
    TUNABLE,
    TUNED_PROFILE,
    VALUE,
)
from rules.fields import Invalid, Kind
from rules.parse import Parsed
from rules.parse.builder import Builder
from rules.parse.wiring import reads

SYSCTL_FAMILIES = (
    "vm.", "kernel.sched", "kernel.numa", "kernel.shm", "kernel.sem", "fs.file-max",
    "fs.aio-max-nr", "fs.nr_open",
)  # fmt: skip
PSEUDO_DEVICES = ("loop", "ram", "zram", "sr", "fd", "nbd")


class Sieve:
    """A kind's verdicts on texts, remembered: device listings repeat the same attribute
    names and values hundreds of times, and each is checked once."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self.seen: dict[str, str | None] = {}

    def __call__(self, text: Any) -> str | None:
        """The converted text, or None where the kind refuses it."""
        if type(text) is not str:
            return None
        found = self.seen.get(text, self)
        if found is self:
            try:
                found = self.kind.convert(text)
            except Invalid:
                found = None
            self.seen[text] = found
        return found  # type: ignore[return-value]


def _clean(
    table: dict[str, Any], key: Sieve, value: Sieve, what: str, b: Builder
) -> dict[str, str]:
    """The entries the contract accepts, each checked by the contract's own kinds."""
    out: dict[str, str] = {}
    for name, raw in table.items():
        if len(out) == MAX_SETTINGS:
            b.notes.append(f"kept the first {MAX_SETTINGS} {what} values")
            break
        text = str(raw)
        if "\t" in text or "  " in text:  # sysctl's kernel.sem: tabs become one space
            text = " ".join(text.split())
        checked_name, checked = key(name), value(text)
        if checked_name is None or checked is None:
            b.notes.append(
                f"left out {what} {str(name)[:64]!r}: a name or value the contract refuses"
            )
        else:
            out[checked_name] = checked
    return out


def _sas(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    configs = parsed.all("sas_config")
    if not configs:
        return None
    merged: dict[str, str] = {}
    for found in configs:
        merged |= found.value.options
    return _table(merged, OPTION, "SAS option", b)


def _first(parsed: Parsed, name: str, attr: str | None = None) -> Any:
    found = parsed.first(name)
    if found is None:
        return None
    return getattr(found.value, attr) if attr else found.value


def _devices(parsed: Parsed, b: Builder) -> dict[str, dict[str, str]] | None:
    devices: dict[str, dict[str, str]] = {}
    for name in ("aix_lsattr_disk", "aix_lsattr_fcs"):
        for found in parsed.all(name):
            devices[found.value.device] = dict(found.value.attrs)
    # lsblk's ROTA, SCHED, RA… columns of each whole disk, then every /sys/block/X/queue
    # value read (one `cat` a device and attribute, each its own section) over them.
    for found in sorted(parsed.all("lsblk"), key=lambda f: len(f.value)):
        for dev in found.value:
            if dev.queue and dev.type in (None, "disk", "mpath") and dev.parent is None:
                devices.setdefault(dev.name, {}).update(dev.queue)
    for found in parsed.all("block_queue"):
        for device, attrs in found.value.items():
            devices.setdefault(device, {}).update({k: str(v) for k, v in attrs.items()})
    for device in [d for d in devices if d.startswith(PSEUDO_DEVICES)]:
        del devices[device]
    if not devices:
        return None
    out: dict[str, dict[str, str]] = {}
    names, values = Sieve(ATTRIBUTE), Sieve(ATTRIBUTE_VALUE)
    for device, attrs in devices.items():
        if DEVICE_NAME.accepts(device):
            out[device] = _clean(attrs, names, values, f"{device} attribute", b)
        else:
            b.notes.append(f"left out device {device[:64]!r}: a name the contract refuses")
    return out


def _sysctl(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    table = _first(parsed, "sysctl")
    if table is None:
        return None
    kept = {k: v for k, v in table.items() if k.startswith(SYSCTL_FAMILIES)}
    return _table(kept, SYSCTL, "sysctl", b)


def _source(parsed: Parsed) -> str:
    if parsed.header is None:
        return "pasted terminal transcript"
    values = parsed.header.values
    return f"collector {values.get('collector', '?')} bundle, started {values.get('started', '?')}"[
        :200
    ]


def _table(table: dict[str, Any] | None, key: Kind, what: str, b: Builder) -> dict[str, str] | None:
    return None if table is None else _clean(table, Sieve(key), Sieve(VALUE), what, b)


@reads(
    "sas_config", "spds_parm", "ioo", "vmo", "sysctl", "thp", "tuned_active", "aix_lsattr_disk",
    "aix_lsattr_fcs", "lsblk", "block_queue",
)  # fmt: skip
def current_block(parsed: Parsed, b: Builder) -> None:
    spds = _first(parsed, "spds_parm", "parameters")
    ioo, vmo = _first(parsed, "ioo", "values"), _first(parsed, "vmo", "values")
    block: dict[str, Any] = {
        "sas_options": _sas(parsed, b),
        "spds_parameters": _table(spds, OPTION, "SPD Server parameter", b),
        "aix_ioo": _table(ioo, TUNABLE, "ioo tunable", b),
        "aix_vmo": _table(vmo, TUNABLE, "vmo tunable", b),
        "linux_sysctl": _sysctl(parsed, b),
        "linux_thp": _thp(parsed),
        "tuned_profile": _tuned(parsed),
        "devices": _devices(parsed, b),
    }
    if any(v is not None for v in block.values()):
        block["source"] = _source(parsed)
        b.doc["current"] = block


def _thp(parsed: Parsed) -> str | None:
    for found in parsed.all("thp"):
        if found.value.setting == "enabled" and THP.accepts(found.value.active):
            return str(found.value.active)
    return None


def _tuned(parsed: Parsed) -> str | None:
    name = getattr(_first(parsed, "tuned_active"), "profile", None)
    return str(name) if TUNED_PROFILE.accepts(name) else None
