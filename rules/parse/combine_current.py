"""Parsed facts → the contract's `current` block: what the server runs now.

SAS options and SPD Server parameters merge over the sasv9*.cfg and spdsserv.parm files in
the order they were read (a later file wins, as SAS's own -CONFIG chain does); AIX ioo/vmo
over every reading kept (`-a`, `-L`, `-o name`), the most complete one's value first;
Linux sysctl limited to the families the rules and tuned touch (vm.*, kernel.sched*,
kernel.numa*, kernel.shm*/sem, fs limits), THP and the tuned profile; per-device
attributes from lsattr (AIX), lsblk's queue columns and /sys/block/*/queue (Linux). Each
value's provenance names the section and line it was read from
(`current.linux_sysctl.vm.swappiness`, `current.devices.hdisk4.max_transfer`), and that
section is credited with the field, so the accounting tells which section gave what. A
name or value the contract would refuse is left out with a note, so a hostile bundle
cannot smuggle it into a generated file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.draft import Provenance
from rules.parse.duplicates import completeness, source_of
from rules.parse.registry import Section
from rules.parse.wiring import reads

SYSCTL_FAMILIES = (
    "vm.", "kernel.sched", "kernel.numa", "kernel.shm", "kernel.sem", "fs.file-max",
    "fs.aio-max-nr", "fs.nr_open",
)  # fmt: skip
PSEUDO_DEVICES = ("loop", "ram", "zram", "sr", "fd", "nbd")
# The block's setting tables, by the parser each is read from.
BLOCK = {"sas_config": "sas_options", "spds_parm": "spds_parameters", "ioo": "aix_ioo",
         "vmo": "aix_vmo"}  # fmt: skip


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


# The section every entry of a table was read from, or each entry's own.
Where = Section | Mapping[str, Section]
Layer = tuple[Mapping[str, Any], Where]  # values as printed, and where each was printed


def _clean(
    table: Mapping[str, Any], where: Where, kinds: tuple[Sieve, Sieve], what: str, b: Builder,
    path: str,
) -> dict[str, str]:  # fmt: skip
    """The entries the contract accepts, each checked by the contract's own kinds, each
    with its provenance at `path.<name>` and credited to the section it was read from (a
    sysctl name holds dots, so these are not paths `Builder.put` could set). A device's
    hundreds of attributes share one section: its list of fields is looked up once."""
    key, value = kinds
    names, texts = key.seen, value.seen  # the verdicts so far, read without a call
    out: dict[str, str] = {}
    provenance = b.provenance
    last, fields = None, []
    for name, raw in table.items():
        if len(out) == MAX_SETTINGS:
            b.notes.append(f"kept the first {MAX_SETTINGS} {what} values")
            break
        printed = raw if type(raw) is str else str(raw)
        text = " ".join(printed.split()) if "\t" in printed or "  " in printed else printed
        checked_name = names[name] if name in names else key(name)
        checked = texts[text] if text in texts else value(text)  # kernel.sem: tabs to spaces
        if checked_name is None or checked is None:
            b.notes.append(
                f"left out {what} {str(name)[:64]!r}: a name or value the contract refuses"
            )
            continue
        out[checked_name] = checked
        section = where if isinstance(where, Section) else where[name]
        at = f"{path}.{checked_name}"
        shown = "" if printed == checked else printed
        provenance[at] = Provenance(at, checked, section.command, section.line, shown)
        if section is not last:
            last, fields = section, b.used.setdefault((section.line, section.command), [])
        fields.append(at)
    return out


def _sas(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    return _files(parsed, "sas_config", "options", OPTION, "SAS option", b)


def _spds(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    return _files(parsed, "spds_parm", "parameters", OPTION, "SPD Server parameter", b)


def _files(
    parsed: Parsed, name: str, attr: str, key: Kind, what: str, b: Builder
) -> dict[str, str] | None:
    """Settings merged over the files read, in the order they were read: a later file
    wins, as SAS's own -CONFIG chain does."""
    readings = parsed.all(name)
    if not readings:
        return None
    layers = [(getattr(found.value, attr), found.section) for found in readings]
    table, where = _layered(layers)
    return _clean(table, where, (Sieve(key), Sieve(VALUE)), what, b, f"current.{BLOCK[name]}")


def _tunables(parsed: Parsed, name: str, b: Builder) -> dict[str, str] | None:
    """ioo or vmo over every reading kept (`ioo -a`, `ioo -o j2_maxPageReadAhead`), each
    tunable from the most complete reading that prints it."""
    readings = parsed.all(name)
    if not readings:
        return None
    ordered = sorted(readings, key=completeness, reverse=True)  # the most complete last, wins
    table, where = _layered([(found.value.values, found.section) for found in ordered])
    kinds = (Sieve(TUNABLE), Sieve(VALUE))
    return _clean(table, where, kinds, f"{name} tunable", b, f"current.{BLOCK[name]}")


def _layered(layers: Sequence[Layer]) -> Layer:
    """Values printed by several sections as one table, a later section's winning, with
    the section each was read from."""
    if len(layers) == 1:
        return layers[0]
    table: dict[str, Any] = {}
    where: dict[str, Section] = {}
    for values, printed in layers:
        table.update(values)
        where.update(dict.fromkeys(values, printed) if isinstance(printed, Section) else printed)
    return table, where


def _devices(parsed: Parsed, b: Builder) -> dict[str, dict[str, str]] | None:
    devices = _device_values(parsed)
    for device in [d for d in devices if d.startswith(PSEUDO_DEVICES)]:
        del devices[device]
    if not devices:
        return None
    out: dict[str, dict[str, str]] = {}
    kinds = (Sieve(ATTRIBUTE), Sieve(ATTRIBUTE_VALUE))
    for device, layers in devices.items():
        if DEVICE_NAME.accepts(device):
            table, where = _layered(layers)
            what, path = f"{device} attribute", f"current.devices.{device}"
            out[device] = _clean(table, where, kinds, what, b, path)
        else:
            b.notes.append(f"left out device {device[:64]!r}: a name the contract refuses")
    return out


def _device_values(parsed: Parsed) -> dict[str, list[Layer]]:
    """Each device's attributes as printed, a later layer winning: lsattr's (a later
    section of one device over an earlier), lsblk's ROTA, SCHED, RA… columns of each whole
    disk, then every /sys/block/X/queue value (one `cat` a device and attribute)."""
    devices: dict[str, list[Layer]] = {}
    for name in ("aix_lsattr_disk", "aix_lsattr_fcs"):
        for found in parsed.all(name):
            devices.setdefault(found.value.device, []).append((found.value.attrs, found.section))
    for found in sorted(parsed.all("lsblk"), key=lambda f: len(f.value)):
        for dev in found.value:
            if dev.queue and dev.type in (None, "disk", "mpath") and dev.parent is None:
                devices.setdefault(dev.name, []).append((dev.queue, found.section))
    for found in parsed.all("block_queue"):
        for device, attrs in found.value.items():
            where = {k: source_of(found, device, k) for k in attrs}
            values = {k: str(v) for k, v in attrs.items()}
            devices.setdefault(device, []).append((values, where))
    return devices


def _sysctl(parsed: Parsed, b: Builder) -> dict[str, str] | None:
    """The families the rules and tuned touch, each value from the section that printed
    it (a paste's sysctl sections are merged into one reading)."""
    found = parsed.first("sysctl")
    if found is None:
        return None
    table = {k: v for k, v in found.value.items() if k.startswith(SYSCTL_FAMILIES)}
    where = {k: source_of(found, k) for k in table} if found.origins else found.section
    kinds = (Sieve(SYSCTL), Sieve(VALUE))
    return _clean(table, where, kinds, "sysctl", b, "current.linux_sysctl")


def _source(parsed: Parsed) -> str:
    if parsed.header is None:
        return "pasted terminal transcript"
    values = parsed.header.values
    return f"collector {values.get('collector', '?')} bundle, started {values.get('started', '?')}"[
        :200
    ]


@reads(
    "sas_config", "spds_parm", "ioo", "vmo", "sysctl", "thp", "tuned_active", "aix_lsattr_disk",
    "aix_lsattr_fcs", "lsblk", "block_queue",
)  # fmt: skip
def current_block(parsed: Parsed, b: Builder) -> None:
    block: dict[str, Any] = {
        "sas_options": _sas(parsed, b),
        "spds_parameters": _spds(parsed, b),
        "aix_ioo": _tunables(parsed, "ioo", b),
        "aix_vmo": _tunables(parsed, "vmo", b),
        "linux_sysctl": _sysctl(parsed, b),
        "linux_thp": _thp(parsed, b),
        "tuned_profile": _tuned(parsed, b),
        "devices": _devices(parsed, b),
    }
    # Kept with every map null when none was in the reading: the inventory was still read
    # from the server, and the result says so, naming what to read for the current values.
    if b.provenance or any(v is not None for v in block.values()):
        block["source"] = _source(parsed)
        b.doc["current"] = block


def _thp(parsed: Parsed, b: Builder) -> str | None:
    for found in parsed.all("thp"):
        active, enabled = found.value.active, found.value.setting == "enabled"
        if enabled and active is not None and _one(b, "current.linux_thp", THP, found, active):
            return str(active)
    return None


def _tuned(parsed: Parsed, b: Builder) -> str | None:
    for found in parsed.all("tuned_active"):
        profile = found.value.profile
        if profile is not None and _one(b, "current.tuned_profile", TUNED_PROFILE, found, profile):
            return str(profile)
    return None


def _one(b: Builder, path: str, kind: Kind, found: Found, text: str) -> bool:
    """A single current value (THP, the tuned profile) read from `found`, or a note where
    the contract refuses it."""
    if not kind.accepts(text):
        name = path.rsplit(".", 1)[-1]
        b.notes.append(f"left out {name} {text[:64]!r}: a value the contract refuses")
        return False
    b.provenance[path] = Provenance(path, text, found.section.command, found.section.line)
    b.used.setdefault((found.section.line, found.section.command), []).append(path)
    return True
