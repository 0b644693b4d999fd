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
from rules.fields import Invalid, Pattern, Text
from rules.parse import Parsed
from rules.parse.builder import Builder

SYSCTL_FAMILIES = (
    "vm.", "kernel.sched", "kernel.numa", "kernel.shm", "kernel.sem", "fs.file-max",
    "fs.aio-max-nr", "fs.nr_open",
)  # fmt: skip
PSEUDO_DEVICES = ("loop", "ram", "zram", "sr", "fd", "nbd")


def _clean(
    table: dict[str, Any], key: Pattern, value: Text, what: str, b: Builder
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
        try:
            out[key.convert(name)] = value.convert(text)
        except Invalid:
            b.notes.append(
                f"left out {what} {str(name)[:64]!r}: a name or value the contract refuses"
            )
    return out


def _sas(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    configs = parsed.all("sas_config")
    if not configs:
        return None
    merged: dict[str, str] = {}
    for found in configs:
        merged |= found.value.options
    return _clean(merged, OPTION, VALUE, "SAS option", b)


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
    queue = parsed.first("block_queue")
    if queue is not None:
        for device, attrs in queue.value.items():
            if device.startswith(PSEUDO_DEVICES):
                continue
            devices.setdefault(device, {}).update({k: str(v) for k, v in attrs.items()})
    if not devices:
        return None
    out: dict[str, dict[str, str]] = {}
    for device, attrs in devices.items():
        if DEVICE_NAME.accepts(device):
            out[device] = _clean(attrs, ATTRIBUTE, ATTRIBUTE_VALUE, f"{device} attribute", b)
        else:
            b.notes.append(f"left out device {device[:64]!r}: a name the contract refuses")
    return out


def _sysctl(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    table = _first(parsed, "sysctl")
    if table is None:
        return None
    kept = {k: v for k, v in table.items() if k.startswith(SYSCTL_FAMILIES)}
    return _clean(kept, SYSCTL, VALUE, "sysctl", b)


def _source(parsed: Parsed) -> str:
    if parsed.header is None:
        return "pasted terminal transcript"
    values = parsed.header.values
    return f"collector {values.get('collector', '?')} bundle, started {values.get('started', '?')}"[
        :200
    ]


def current_block(parsed: Parsed, b: Builder) -> None:
    spds = _first(parsed, "spds_parm", "parameters")
    ioo, vmo = _first(parsed, "ioo"), _first(parsed, "vmo")
    block: dict[str, Any] = {
        "sas_options": _sas(parsed, b),
        "spds_parameters": None
        if spds is None
        else _clean(spds, OPTION, VALUE, "SPD Server parameter", b),
        "aix_ioo": None if ioo is None else _clean(ioo.values, TUNABLE, VALUE, "ioo tunable", b),
        "aix_vmo": None if vmo is None else _clean(vmo.values, TUNABLE, VALUE, "vmo tunable", b),
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
