"""The corpus's `## expect:` lines, checked against a draft inventory.

An expect line names one fact in the vocabulary of tests/fixtures/parse/CORPUS.md
(`mount=/sasdata fstype=jfs2 size_gb=4096 device=/dev/saslv`). `check(line, draft)` says
whether the draft (`rules.parse.draft(text)`) holds it: None when it does, else one line
for a person ("expected mount=/sasdata size_gb=4096, draft has size_gb=1 (from `df -h`
line 3)"). `verdict` gives the same with its category, so a report can group failures:

    wrong              the draft holds another value
    missing            the draft holds nothing there (no entry, field or block)
    guessed            the draft holds only a guess (listed in `missing`), not a read value
    left out           the draft left the thing out and says so in a note
    not representable  the contract has no place for the fact (swap, a disk's size, rows)
    bad expect         the line is not in the vocabulary (a corpus error, never a gap)

A guess never counts as the fact: `os=linux` guessed for want of `uname` is not read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.parse.combine_storage import FILESYSTEMS
from rules.parse.draft import Draft

WRONG, MISSING, GUESSED = "wrong", "missing", "guessed"
LEFT_OUT, UNREPRESENTABLE, BAD = "left out", "not representable", "bad expect"
KEYS = (
    "os", "os_release", "distribution", "hostname", "cpus_online", "cores", "smt", "ram_mb",
    "ram_gb", "mount", "fstype", "size_gb", "device", "rotational", "max_transfer_kb",
    "scheduler", "read_ahead_kb", "lv", "devices", "stripe_kb", "stripes", "md", "level",
    "chunk_kb", "tunable", "value", "zfs", "recordsize_kb", "swap_mb", "path_count", "rows",
    "xfs", "agcount", "sunit_blks", "swidth_blks",
)  # fmt: skip
# A value runs to the next ` key=`, so a mount point with blanks ('/V M T o o l s') stays whole.
_KEY = re.compile(r"(?:^|(?<= ))(" + "|".join(sorted(KEYS, key=len, reverse=True)) + r")=")
SERVER = {
    "os": "os", "os_release": "os_version", "distribution": "distribution",
    "hostname": "hostname", "cpus_online": "cpus", "cores": "cores", "smt": "smt_threads",
}  # fmt: skip
# The corpus names a distribution as people do; the contract by os-release's family.
DISTRIBUTIONS = {"oracle": "ol", "opensuse": "sles", "almalinux": "alma"}
CONTRACT_FS = ("jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "nfs")
# Keys the contract has no place for: what the draft cannot hold, however well it parses.
NOWHERE = {
    "swap_mb": "the contract holds no swap size",
    "path_count": "the contract holds no path count (only storage[].san)",
    "rows": "a row count is the parser's, the draft keeps only the file systems it uses",
    "zfs": "the contract holds no ZFS data set property",
    "xfs": "the contract holds no xfs_info geometry (agcount, sunit, swidth)",
}
RELATIVE_SIZE = 0.05  # df -h prints 3 significant digits and rounds
ROUNDING_GB = 0.5  # the corpus writes sizes in whole GB
RAM_RELATIVE = 0.02
RAM_ROUNDED_GB = 1.0  # free -g / free -h round to whole GB


@dataclass(frozen=True)
class Verdict:
    category: str
    message: str


class BadExpect(ValueError):
    pass


def parse_expect(line: str) -> list[tuple[str, str]]:
    """'mount=/x size_gb=4' → [('mount', '/x'), ('size_gb', '4')]; BadExpect otherwise."""
    marks = list(_KEY.finditer(line))
    if not marks or marks[0].start() != 0:
        raise BadExpect(f"not in the expect vocabulary: {line!r}")
    ends = [m.start() for m in marks[1:]] + [len(line)]
    return [(m.group(1), line[m.end() : end].strip()) for m, end in zip(marks, ends, strict=True)]


def check(line: str, draft: Draft) -> str | None:
    """None when `draft` holds the fact of expect line `line`, else why not."""
    found = verdict(line, draft)
    return None if found is None else found.message


def verdict(line: str, draft: Draft) -> Verdict | None:
    try:
        pairs = parse_expect(line)
    except BadExpect as exc:
        return Verdict(BAD, str(exc))
    head, subject = pairs[0]
    view = _View(draft, line)
    if head in NOWHERE:
        return view.nowhere(head, NOWHERE[head])
    if head in SERVER or head in ("ram_mb", "ram_gb"):
        return _server(view, head, subject)
    handler = {"mount": _mount, "device": _device, "lv": _volume, "md": _volume}.get(head)
    if handler is not None:
        return handler(view, head, subject, dict(pairs[1:]))
    if head == "tunable":
        return _tunable(view, subject, dict(pairs[1:]).get("value", ""))
    return Verdict(BAD, f"{head}= cannot open an expect line: {line!r}")


class _View:
    """The draft, read by path, with where each value came from."""

    def __init__(self, draft: Draft, line: str) -> None:
        self.doc = draft.document
        self.draft = draft
        self.line = line
        self.guesses = {m.path: m.reason for m in draft.missing}

    def where(self, path: str) -> str:
        if path in self.guesses:
            return f" (a guess: {self.guesses[path]})"
        p = self.draft.provenance.get(path)
        if p is None:
            return ""
        return f" (from `{p.command}` line {p.line})" if p.line else f" (from `{p.command}`)"

    def fail(self, category: str, what: str) -> Verdict:
        return Verdict(category, f"expected {self.line}, {what}")

    def nowhere(self, key: str, why: str) -> Verdict:
        return Verdict(
            UNREPRESENTABLE, f"{self.line}: not representable in the draft: {key} ({why})"
        )

    def compare(self, path: str, name: str, same: bool, have: Any) -> Verdict | None:
        """The verdict on one field already read: None when it holds."""
        if have is None:
            return self.fail(MISSING, f"draft has no {name} ({path})")
        if path in self.guesses:
            return self.fail(GUESSED, f"draft only guesses {name}={have}{self.where(path)}")
        if not same:
            return self.fail(WRONG, f"draft has {name}={have}{self.where(path)}")
        return None


def _dotted(text: str) -> tuple[int, ...] | str:
    parts = text.split(".")
    if not all(p.isdigit() for p in parts):
        return text
    numbers = [int(p) for p in parts]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def _near(have: Any, want: float, relative: float, absolute: float) -> bool:
    if isinstance(have, bool) or not isinstance(have, int | float):
        return False
    return abs(have - want) <= max(relative * want, absolute)


def _server(view: _View, key: str, want: str) -> Verdict | None:
    server = view.doc.get("server") or {}
    if key in ("ram_mb", "ram_gb"):
        gb = float(want) / 1024 if key == "ram_mb" else float(want)
        slack = 0.0 if key == "ram_mb" else RAM_ROUNDED_GB
        have = server.get("ram_gb")
        return view.compare("server.ram_gb", "ram_gb", _near(have, gb, RAM_RELATIVE, slack), have)
    field = SERVER[key]
    have = server.get(field)
    if key == "os_release":
        same = have is not None and _dotted(str(have)) == _dotted(want)
    elif key == "distribution":
        same = have == DISTRIBUTIONS.get(want, want)
    else:
        same = str(have) == want
    return view.compare(f"server.{field}", field, same, have)


def _entry(view: _View, test: Any) -> tuple[int, dict[str, Any]] | None:
    storage = view.doc.get("storage") or []
    return next(((i, e) for i, e in enumerate(storage) if test(e)), None)


def _left_out(view: _View, subject: str) -> str | None:
    return next((n for n in view.draft.notes if n.startswith("left out") and subject in n), None)


def _contract_fs(fstype: str) -> str:
    name = FILESYSTEMS.get(fstype.lower(), fstype.lower())
    if name.startswith("nfs"):
        return "nfs"
    return name if name in CONTRACT_FS else "other"


def _bare(device: str) -> str:
    """'/dev/mapper/centos-root' → 'centos-root', '/dev/hd2' → 'hd2'."""
    return device.rstrip("/").rsplit("/", 1)[-1] if device.startswith("/dev/") else device


def _names(view: _View, i: int, entry: dict[str, Any]) -> set[str]:
    """What the entry is called: its name, the device path it was read from, its devices."""
    raw = getattr(view.draft.provenance.get(f"storage[{i}].name"), "raw", "")
    return {str(entry.get("name")), raw, _bare(raw), *map(str, entry.get("devices") or ())}


def _mount(view: _View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    found = _entry(view, lambda e: e.get("mount") == subject)
    if found is None:
        note = _left_out(view, subject)
        if note is not None:
            return view.fail(LEFT_OUT, f"draft leaves it out: {note}")
        mounts = ", ".join(str(e.get("mount")) for e in view.doc.get("storage") or []) or "none"
        why = next((f"; {n}" for n in view.draft.notes if "file systems read" in n), "")
        return view.fail(MISSING, f"draft has no storage entry for {subject} (has: {mounts}{why})")
    i, entry = found
    at = f"storage[{i}]"
    for key, want in attrs.items():
        if key == "fstype":
            have = entry.get("filesystem")
            bad = view.compare(f"{at}.filesystem", "filesystem", have == _contract_fs(want), have)
        elif key == "size_gb":
            have = entry.get("size_gb")
            near = _near(have, float(want), RELATIVE_SIZE, ROUNDING_GB)
            bad = view.compare(f"{at}.size_gb", "size_gb", near, have)
        elif key == "device":
            names = _names(view, i, entry)
            same = want in names or _bare(want) in names
            bad = view.compare(f"{at}.name", "device", same, entry.get("name"))
        else:
            return Verdict(BAD, f"{key}= does not go with mount=: {view.line!r}")
        if bad is not None:
            return bad
    return None


_PARTITION = re.compile(r"(?<=[a-z])p?[0-9]{1,3}$")


def _same_devices(want: str, have: Any) -> bool:
    """The same disks, in any order; a partition (sda2) stands for its disk (sda)."""
    wanted, held = set(want.split(",")), {str(d) for d in have or ()}
    return wanted == held or {_PARTITION.sub("", w) for w in wanted} == held


def _active(text: str) -> str:
    """sysfs's '[mq-deadline] kyber none' → 'mq-deadline'."""
    found = re.search(r"\[([^\]]{1,64})\]", text)
    return found.group(1) if found else text.strip()


def _device(view: _View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    name = _bare(subject)
    for key, want in attrs.items():
        if key == "size_gb":
            return view.nowhere("device size_gb", "the contract sizes file systems, not disks")
        bad = _device_attr(view, name, key, want)
        if bad is not None:
            return bad
    if not attrs:
        return Verdict(BAD, f"device= needs an attribute: {view.line!r}")
    return None


def _device_attr(view: _View, name: str, key: str, want: str) -> Verdict | None:
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


def _media(view: _View, name: str, want: str) -> Verdict | None:
    """A disk's rotational flag as the media of a storage entry on it."""
    found = _entry(view, lambda e: name in (e.get("devices") or ()))
    if found is None:
        return view.fail(MISSING, f"draft has no rotational flag for {name}")
    i, entry = found
    have = entry.get("media")
    same = (have == "hdd") == (want == "1")
    return view.compare(f"storage[{i}].media", "media", same, have)


MD_LEVELS = {"raid0": "0", "raid1": "1", "raid5": "5", "raid6": "6", "raid10": "10"}


def _volume(view: _View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    """An LV or md array: the storage entry named for it (LVM's dm name is vg-lv)."""
    found = _entry(
        view, lambda e: e.get("name") == subject or str(e.get("name")).endswith(f"-{subject}")
    )
    if found is None:
        why = f"held only as a mounted file system's storage entry, and none is {subject}"
        return view.nowhere(head, why)
    i, entry = found
    at = f"storage[{i}]"
    for key, want in attrs.items():
        if key == "devices":
            have = entry.get("devices")
            bad = view.compare(f"{at}.devices", "devices", _same_devices(want, have), have)
        elif key == "level":
            have = entry.get("raid")
            bad = view.compare(f"{at}.raid", "raid", have == MD_LEVELS.get(want), have)
        elif key == "stripes":
            have = entry.get("raid")
            same = (have == "0") if int(want) > 1 else have in ("jbod", "1")
            bad = view.compare(f"{at}.raid", "raid", same, have)
        elif key in ("chunk_kb", "stripe_kb"):
            have = entry.get("stripe_kb")
            bad = view.compare(f"{at}.stripe_kb", "stripe_kb", str(have) == want, have)
        else:
            return Verdict(BAD, f"{key}= does not go with {head}=: {view.line!r}")
        if bad is not None:
            return bad
    return None


def _tunable(view: _View, name: str, want: str) -> Verdict | None:
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
