"""Parse and validate an inventory document (contract v1) in one pass.

Every problem is collected with its JSON path (`storage[3].mount: …`) and reported
together; a document with any problem yields no `Inventory` at all. Unknown keys are
errors. Names that end up in generated shell scripts (hostnames, mount points, device
names) are held to strict character sets here, so no renderer ever sees a hostile value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from rules.checker import InventoryError, _Checker, _join
from rules.inventory import (
    FILESYSTEMS,
    MEDIA,
    MIX_KEYS,
    OS_NAMES,
    RAID_LEVELS,
    ROLES,
    SAS_VERSIONS,
    SCHEMA_VERSION,
    Inventory,
    Mix,
    Sas,
    Server,
    Spds,
    Storage,
    Workload,
)
from rules.validate_fast import accept_storage

MAX_STORAGE = 512
MAX_NAME = 200
MIX_TOLERANCE = 0.01
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
_DOTTED = re.compile(r"^[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}$")
_MOUNT = re.compile(r"^/[A-Za-z0-9/_.-]*$")
_DEVICE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")

T = TypeVar("T")


def _hostname(c: _Checker, value: Any, path: str) -> str | None:
    message = (
        "must be an RFC 1123 host name: labels of letters, digits and '-', "
        "1-63 characters each, at most 253 in all"
    )
    if not isinstance(value, str) or not 0 < len(value) <= 253:
        c.fail(path, message)
        return None
    if not all(_LABEL.fullmatch(label) for label in value.split(".")):
        c.fail(path, message)
        return None
    return value


def _mount(c: _Checker, value: Any, path: str) -> str | None:
    message = "must be an absolute path of the characters [A-Za-z0-9/_.-]"
    if not isinstance(value, str) or not _MOUNT.fullmatch(value) or len(value) > 1024:
        c.fail(path, message)
        return None
    parts = value.split("/")[1:]
    if value != "/" and any(p in ("", ".", "..") for p in parts):
        c.fail(path, message + ", without empty, '.' or '..' components")
        return None
    return value


def _opt(
    c: _Checker,
    raw: Mapping[str, Any],
    key: str,
    path: str,
    fn: Callable[..., T | None],
    *args: Any,
    **kwargs: Any,
) -> T | None:
    if key not in raw:
        return None
    return fn(raw[key], _join(path, key), *args, **kwargs)


def _server(c: _Checker, raw: Any) -> Server | None:
    keys = ("hostname", "os", "os_version", "cpus", "ram_gb")
    if not c.obj(raw, "server", keys, keys):
        return None
    hostname = _opt(c, raw, "hostname", "server", lambda v, p: _hostname(c, v, p))
    os = _opt(c, raw, "os", "server", c.choice, OS_NAMES)
    os_version = _opt(
        c, raw, "os_version", "server", c.pattern, _DOTTED,
        "must be a dotted version number such as '7.2'",
    )  # fmt: skip
    cpus = _opt(c, raw, "cpus", "server", c.integer, 1, 4096)
    ram_gb = _opt(c, raw, "ram_gb", "server", c.number, 0, 65536, exclusive_lo=True)
    if None in (hostname, os, os_version, cpus, ram_gb):
        return None
    return Server(
        cast(str, hostname), cast(Any, os), cast(str, os_version), cast(int, cpus),
        cast(float, ram_gb),
    )  # fmt: skip


def _sas(c: _Checker, raw: Any) -> Sas | None:
    keys = ("version", "connect_licensed", "spds")
    if not c.obj(raw, "sas", keys, keys):
        return None
    version = _opt(c, raw, "version", "sas", c.choice, SAS_VERSIONS)
    connect = raw.get("connect_licensed")
    if "connect_licensed" in raw and not isinstance(connect, bool):
        c.fail("sas.connect_licensed", "must be true or false")
        connect = None
    spds: Spds | None = None
    spds_ok = True
    raw_spds = raw.get("spds")
    if raw_spds is not None:
        spds_ok = c.obj(raw_spds, "sas.spds", ("version",), ("version",))
        if spds_ok:
            v = _opt(
                c, raw_spds, "version", "sas.spds", c.pattern, _DOTTED,
                "must be a dotted version number such as '5.3'",
            )  # fmt: skip
            spds = Spds(v) if v is not None else None
            spds_ok = v is not None
    if version is None or connect is None or not spds_ok:
        return None
    return Sas(version, connect, spds)


def _optional_int(c: _Checker, raw: Mapping[str, Any], key: str, path: str) -> int | None:
    """An optional integer field in KB (null or absent means unknown)."""
    if raw.get(key) is None:
        return None
    return c.integer(raw[key], _join(path, key), 1, 1048576)


def _storage_entry(c: _Checker, raw: Any, path: str) -> Storage | None:
    keys = (
        "name", "mount", "role", "raid", "disks", "stripe_kb", "max_transfer_kb",
        "size_gb", "media", "filesystem", "adapters",
    )  # fmt: skip
    required = ("name", "mount", "role", "raid", "disks", "size_gb", "media", "filesystem")
    if not c.obj(raw, path, keys, required):
        return None
    device_msg = "must be 1-64 characters of [A-Za-z0-9_.-]"
    name = _opt(c, raw, "name", path, c.pattern, _DEVICE, device_msg)
    mount = _opt(c, raw, "mount", path, lambda v, p: _mount(c, v, p))
    role = _opt(c, raw, "role", path, c.choice, ROLES)
    raid = _opt(c, raw, "raid", path, c.choice, RAID_LEVELS)
    disks = _opt(c, raw, "disks", path, c.integer, 1, 100000)
    size_gb = _opt(c, raw, "size_gb", path, c.number, 0, 1e9, exclusive_lo=True)
    media = _opt(c, raw, "media", path, c.choice, MEDIA)
    fs = _opt(c, raw, "filesystem", path, c.choice, FILESYSTEMS)
    stripe = _optional_int(c, raw, "stripe_kb", path)
    xfer = _optional_int(c, raw, "max_transfer_kb", path)
    adapters: tuple[str, ...] = ()
    raw_adapters = raw.get("adapters")
    if raw_adapters is not None:
        if not isinstance(raw_adapters, list) or len(raw_adapters) > 64:
            c.fail(f"{path}.adapters", "must be a list of at most 64 adapter names")
        else:
            checked = [
                c.pattern(a, f"{path}.adapters[{i}]", _DEVICE, device_msg)
                for i, a in enumerate(raw_adapters)
            ]
            adapters = tuple(a for a in checked if a is not None)
    if None in (name, mount, role, raid, disks, size_gb, media, fs):
        return None
    return Storage(
        name=cast(str, name), mount=cast(str, mount), role=cast(Any, role),
        raid=cast(Any, raid), disks=cast(int, disks), size_gb=cast(float, size_gb),
        media=cast(Any, media), filesystem=cast(Any, fs), stripe_kb=stripe,
        max_transfer_kb=xfer, adapters=adapters,
    )  # fmt: skip


def _storage(c: _Checker, raw: Any) -> tuple[Storage, ...] | None:
    if not isinstance(raw, list):
        c.fail("storage", "must be a list")
        return None
    if len(raw) > MAX_STORAGE:
        c.fail("storage", f"must have at most {MAX_STORAGE} entries")
        return None
    entries = [
        accept_storage(item) or _storage_entry(c, item, f"storage[{i}]")
        for i, item in enumerate(raw)
    ]
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        if entry is None:
            continue
        if entry.mount in seen:
            c.fail(f"storage[{i}].mount", f"duplicates storage[{seen[entry.mount]}].mount")
        seen.setdefault(entry.mount, i)
    if any(e is None for e in entries):
        return None
    return tuple(cast(Storage, e) for e in entries)


def _mix(c: _Checker, raw: Any) -> Mix | None:
    if not c.obj(raw, "workload.mix", MIX_KEYS, ()):
        return None
    values = {k: c.number(raw[k], f"workload.mix.{k}", 0, 1) for k in MIX_KEYS if k in raw}
    if any(v is None for v in values.values()):
        return None
    total = sum(cast(float, v) for v in values.values())
    if abs(total - 1.0) > MIX_TOLERANCE:
        c.fail("workload.mix", f"fractions must sum to 1 (±{MIX_TOLERANCE:g}), got {total:g}")
        return None
    return Mix(**cast(dict[str, float], values))


def _workload(c: _Checker, raw: Any) -> Workload | None:
    keys = (
        "concurrent_sessions", "mix", "largest_table_gb", "total_data_gb", "growth_gb_per_week",
    )  # fmt: skip
    if not c.obj(raw, "workload", keys, keys[:4]):
        return None
    sessions = _opt(c, raw, "concurrent_sessions", "workload", c.integer, 1, 100000)
    mix = _mix(c, raw["mix"]) if "mix" in raw else None
    largest = _opt(c, raw, "largest_table_gb", "workload", c.number, 0, 1e9)
    total = _opt(c, raw, "total_data_gb", "workload", c.number, 0, 1e9)
    growth = 0.0
    if raw.get("growth_gb_per_week") is not None:
        path = "workload.growth_gb_per_week"
        growth = cast(float, c.number(raw["growth_gb_per_week"], path, 0, 1e9))
    if None in (sessions, mix, largest, total, growth):
        return None
    return Workload(
        cast(int, sessions), cast(Mix, mix), cast(float, largest), cast(float, total), growth
    )


def parse(document: Any) -> Inventory:
    """Validate a raw document against contract v1; raise `InventoryError` with every problem."""
    c = _Checker()
    top = ("schema_version", "name", "server", "sas", "storage", "workload")
    if not c.obj(document, "", top, top):
        raise InventoryError(c.problems)
    version = document.get("schema_version")
    if "schema_version" in document and (isinstance(version, bool) or version != SCHEMA_VERSION):
        c.fail("schema_version", f"must be {SCHEMA_VERSION}")
    name = _opt(c, document, "name", "", c.text, MAX_NAME)
    server = _server(c, document["server"]) if "server" in document else None
    sas = _sas(c, document["sas"]) if "sas" in document else None
    storage = _storage(c, document["storage"]) if "storage" in document else None
    workload = _workload(c, document["workload"]) if "workload" in document else None
    if c.problems:
        raise InventoryError(c.problems)
    return Inventory(
        SCHEMA_VERSION, cast(str, name), cast(Server, server), cast(Sas, sas),
        cast(tuple[Storage, ...], storage), cast(Workload, workload),
    )  # fmt: skip
