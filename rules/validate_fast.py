"""A fast acceptance path for storage entries, the bulk of an inventory (up to 512).

`accept_storage` builds a `Storage` straight from an entry that is valid, with none of the
per-field bookkeeping of the full checker. It only ever accepts what `rules.validate`
accepts: anything it does not recognise as valid — a wrong type, a value out of range, an
unknown key — returns None and goes through the full checker, which alone words the
problems. The equivalence is a property test (tests/rules/test_validate.py).
"""

from __future__ import annotations

import re
from typing import Any, cast

from rules.inventory import FILESYSTEMS, MEDIA, RAID_LEVELS, ROLES, Storage

_KEYS = frozenset(
    ("name", "mount", "role", "raid", "disks", "stripe_kb", "max_transfer_kb",
     "size_gb", "media", "filesystem", "adapters")
)  # fmt: skip
_ROLES, _RAID = frozenset(ROLES), frozenset(RAID_LEVELS)
_MEDIA, _FILESYSTEMS = frozenset(MEDIA), frozenset(FILESYSTEMS)
# Absolute, of [A-Za-z0-9/_.-], and no empty, '.' or '..' component (or exactly "/").
_MOUNT = re.compile(r"/|(?:/(?!\.{1,2}(?:/|$))[A-Za-z0-9_.-]+)+")
_DEVICE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_KB_MAX = 1048576


def _kb(value: Any) -> bool:
    return value is None or (type(value) is int and 1 <= value <= _KB_MAX)


def _adapters(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return ()
    if type(value) is not list or len(value) > 64:
        return None
    for item in value:
        if type(item) is not str or not _DEVICE.fullmatch(item):
            return None
    return tuple(value)


def accept_storage(raw: Any) -> Storage | None:
    """The entry as a Storage when it is valid; None means "let the full checker decide"."""
    if type(raw) is not dict or not raw.keys() <= _KEYS:
        return None
    get: Any = raw.get
    name, mount, disks, size = get("name"), get("mount"), get("disks"), get("size_gb")
    role, raid, media, fs = get("role"), get("raid"), get("media"), get("filesystem")
    stripe, xfer = get("stripe_kb"), get("max_transfer_kb")
    valid = (
        type(name) is str and _DEVICE.fullmatch(name)
        and type(mount) is str and len(mount) <= 1024 and _MOUNT.fullmatch(mount)
        and type(role) is str and role in _ROLES
        and type(raid) is str and raid in _RAID
        and type(media) is str and media in _MEDIA
        and type(fs) is str and fs in _FILESYSTEMS
        and type(disks) is int and 1 <= disks <= 100000
        and type(size) in (int, float) and 0 < size <= 1e9
        and _kb(stripe) and _kb(xfer)
    )  # fmt: skip
    adapters = _adapters(get("adapters")) if valid else None
    if adapters is None:
        return None
    return Storage(
        name=cast(str, name), mount=cast(str, mount), role=cast(Any, role),
        raid=cast(Any, raid), disks=cast(int, disks), size_gb=float(cast(float, size)),
        media=cast(Any, media), filesystem=cast(Any, fs), stripe_kb=stripe,
        max_transfer_kb=xfer, adapters=adapters,
    )  # fmt: skip
