"""Expect lines about what the server runs now: a device's attributes and the tunables
(the draft's `current` block, or the media of the storage entry on a disk)."""

from __future__ import annotations

import re
from typing import Any

from tests.rules.parse.fact_view import BAD, MISSING, Verdict, View, bare, storage_entry


def _active(text: str) -> str:
    """sysfs's '[mq-deadline] kyber none' → 'mq-deadline'."""
    found = re.search(r"\[([^\]]{1,64})\]", text)
    return found.group(1) if found else text.strip()


def device(view: View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    name = bare(subject)
    for key, want in attrs.items():
        if key == "size_gb" and view.readings is None:
            return view.nowhere("device size_gb", "the contract sizes file systems, not disks")
        if key == "size_gb":  # a disk's size is its parser's: the contract sizes file systems
            bad = view.parsers([(head, subject), (key, want)])
        else:
            bad = _device_attr(view, name, key, want)
        if bad is not None:
            return bad
    if not attrs:
        return Verdict(BAD, f"device= needs an attribute: {view.line!r}")
    return None


def _device_attr(view: View, name: str, key: str, want: str) -> Verdict | None:
    current = view.doc.get("current") or {}
    attrs = (current.get("devices") or {}).get(name)
    if key == "rotational" and attrs is not None and "rotational" not in attrs:
        return _media(view, name, want)
    if attrs is None:
        if key == "rotational":
            return _media(view, name, want)
        return view.fail(MISSING, f"draft has no current.devices.{name}")
    if key == "max_transfer_kb":
        have = attrs.get("max_sectors_kb") or _hex_kb(attrs.get("max_transfer"))
    else:
        have = attrs.get(key)
    path = f"current.devices.{name}.{key}"
    same = have is not None and (str(have) == want or _active(str(have)) == want)
    return view.compare(path, key, same, have)


def _hex_kb(text: Any) -> str | None:
    """AIX max_transfer '0x40000' (bytes) → '256' (KB)."""
    if not isinstance(text, str) or not re.fullmatch(r"0x[0-9a-fA-F]{1,12}", text):
        return None
    return str(int(text, 16) // 1024)


def _media(view: View, name: str, want: str) -> Verdict | None:
    """A disk's rotational flag as the media of a storage entry on it."""
    found = storage_entry(view, lambda e: name in (e.get("devices") or ()))
    if found is None:
        return view.fail(MISSING, f"draft has no rotational flag for {name}")
    i, entry = found
    have = entry.get("media")
    same = (have == "hdd") == (want == "1")
    return view.compare(f"storage[{i}].media", "media", same, have)


def tunable(view: View, name: str, want: str) -> Verdict | None:
    current = view.doc.get("current") or {}
    if name in ("transparent_hugepage", "tuned_profile"):
        field = "linux_thp" if name == "transparent_hugepage" else name
        have = current.get(field)
        return view.compare(f"current.{field}", field, have == want, have)
    if "." in name:
        table = current.get("linux_sysctl")
        if table is None:
            return view.fail(MISSING, "draft has no current.linux_sysctl")
        have = table.get(name)
        return view.compare(f"current.linux_sysctl.{name}", name, str(have) == want, have)
    devices = current.get("devices") or {}
    held = {d: a[name] for d, a in devices.items() if name in a}
    if held:
        same = want in map(str, held.values())
        return view.compare(f"current.devices.*.{name}", name, same, held)
    for block in ("aix_ioo", "aix_vmo"):
        if name in (current.get(block) or {}):
            have = current[block][name]
            return view.compare(f"current.{block}.{name}", name, str(have) == want, have)
    return view.fail(MISSING, f"draft has no current value named {name}")
