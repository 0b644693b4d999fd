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

What the draft has no place for and one command's parser reads (rows=, swap_mb=,
path_count=, xfs=, zfs=, a device's size_gb=, an lv= or md= its parser read) is
checked against the parsers' own values when `readings` are given
(tests/rules/parse/parser_facts.py); without them it is "not representable".
"""

from __future__ import annotations

import re
from typing import Any

from rules.parse.combine_storage import FILESYSTEMS
from rules.parse.draft import Draft
from tests.rules.parse import parser_facts
from tests.rules.parse.fact_current import device, tunable
from tests.rules.parse.fact_view import (
    BAD,
    GUESSED,
    LEFT_OUT,
    MISSING,
    UNREPRESENTABLE,
    WRONG,
    Readings,
    Verdict,
    View,
    bare,
    close,
    storage_entry,
)
from tests.rules.parse.parser_facts import RAM_RELATIVE, RELATIVE_SIZE, ROUNDING_GB

__all__ = [
    "BAD", "GUESSED", "LEFT_OUT", "MISSING", "UNREPRESENTABLE", "WRONG", "Readings", "Verdict",
]  # fmt: skip
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
DISTRIBUTIONS = {"oracle": "ol", "almalinux": "alma"}
CONTRACT_FS = ("jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "nfs")
# Keys the contract has no place for: what the draft cannot hold, however well it parses
# (each is checked against the parsers' own values where readings are given).
NOWHERE = {
    "swap_mb": "the contract holds no swap size",
    "path_count": "the contract holds no path count (only storage[].san)",
    "rows": "a row count is the parser's, the draft keeps only the file systems it uses",
    "zfs": "the contract holds no ZFS data set property",
    "xfs": "the contract holds no xfs_info geometry (agcount, sunit, swidth)",
}
PARSER_KEYS = frozenset(NOWHERE)
RAM_ROUNDED_GB = 1.0  # free -g / free -h round to whole GB


class BadExpect(ValueError):
    pass


def parse_expect(line: str) -> list[tuple[str, str]]:
    """'mount=/x size_gb=4' → [('mount', '/x'), ('size_gb', '4')]; BadExpect otherwise."""
    marks = list(_KEY.finditer(line))
    if not marks or marks[0].start() != 0:
        raise BadExpect(f"not in the expect vocabulary: {line!r}")
    ends = [m.start() for m in marks[1:]] + [len(line)]
    return [(m.group(1), line[m.end() : end].strip()) for m, end in zip(marks, ends, strict=True)]


def check(line: str, draft: Draft, readings: Readings | None = None) -> str | None:
    """None when `draft` (or, for a parser's own fact, `readings`) holds the fact of
    expect line `line`, else why not."""
    found = verdict(line, draft, readings)
    return None if found is None else found.message


def verdict(line: str, draft: Draft, readings: Readings | None = None) -> Verdict | None:
    try:
        pairs = parse_expect(line)
    except BadExpect as exc:
        return Verdict(BAD, str(exc))
    head, subject = pairs[0]
    view = View(draft, line, readings)
    if head in NOWHERE:
        if head in PARSER_KEYS and readings is not None:
            return view.parsers(pairs)
        return view.nowhere(head, NOWHERE[head])
    if head in SERVER or head in ("ram_mb", "ram_gb"):
        return _server(view, head, subject)
    handler = {"mount": _mount, "device": device, "lv": _volume, "md": _volume}.get(head)
    if handler is not None:
        return handler(view, head, subject, dict(pairs[1:]))
    if head == "tunable":
        return tunable(view, subject, dict(pairs[1:]).get("value", ""))
    return Verdict(BAD, f"{head}= cannot open an expect line: {line!r}")


def _dotted(text: str) -> tuple[int, ...] | str:
    parts = text.split(".")
    if not all(p.isdigit() for p in parts):
        return text
    numbers = [int(p) for p in parts]
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def _server(view: View, key: str, want: str) -> Verdict | None:
    server = view.doc.get("server") or {}
    if key in ("ram_mb", "ram_gb"):
        gb = float(want) / 1024 if key == "ram_mb" else float(want)
        slack = 0.0 if key == "ram_mb" else RAM_ROUNDED_GB
        have = server.get("ram_gb")
        return view.compare("server.ram_gb", "ram_gb", close(have, gb, RAM_RELATIVE, slack), have)
    field = SERVER[key]
    have = server.get(field)
    if key == "os_release":
        same = have is not None and _dotted(str(have)) == _dotted(want)
    elif key == "distribution":
        same = have == DISTRIBUTIONS.get(want, want)
    else:
        same = str(have) == want
    return view.compare(f"server.{field}", field, same, have)


def _left_out(view: View, subject: str) -> str | None:
    return next((n for n in view.draft.notes if n.startswith("left out") and subject in n), None)


def _contract_fs(fstype: str) -> str:
    name = FILESYSTEMS.get(fstype.lower(), fstype.lower())
    if name.startswith("nfs"):
        return "nfs"
    return name if name in CONTRACT_FS else "other"


def _names(view: View, i: int, entry: dict[str, Any]) -> set[str]:
    """What the entry is called: its name, the device path it was read from, its devices."""
    raw = getattr(view.draft.provenance.get(f"storage[{i}].name"), "raw", "")
    return {str(entry.get("name")), raw, bare(raw), *map(str, entry.get("devices") or ())}


def _mount(view: View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    found = storage_entry(view, lambda e: e.get("mount") == subject)
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
            near = close(have, float(want), RELATIVE_SIZE, ROUNDING_GB)
            bad = view.compare(f"{at}.size_gb", "size_gb", near, have)
        elif key == "device":
            names = _names(view, i, entry)
            same = want in names or bare(want) in names
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


MD_LEVELS = {"raid0": "0", "raid1": "1", "raid5": "5", "raid6": "6", "raid10": "10"}


def _volume(view: View, head: str, subject: str, attrs: dict[str, str]) -> Verdict | None:
    """An LV or md array: what its parser read where a reading names it (lvs, lslv,
    mdadm --detail, /proc/mdstat), else the storage entry named for it (LVM's dm name is
    vg-lv): the draft's raid says the array's layout, not an LV's own."""
    if view.readings is not None and parser_facts.names(subject, view.readings):
        return view.parsers([(head, subject), *attrs.items()])
    found = storage_entry(
        view, lambda e: e.get("name") == subject or str(e.get("name")).endswith(f"-{subject}")
    )
    if found is None and view.readings is not None:  # no file system is named for it
        return view.parsers([(head, subject), *attrs.items()])
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
