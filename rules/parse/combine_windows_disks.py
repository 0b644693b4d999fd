"""Windows disks → the media of the drives, and a note of the disks and their sizes.

`Get-PhysicalDisk` prints each disk's MediaType: SSD (solid state) or HDD (rotational);
Unspecified says nothing (a virtual disk, a USB drive), and older Storage modules print no
MediaType at all. Neither it nor `Get-Disk` says which disk holds which drive letter
(`Get-Partition -DriveLetter D | Get-Disk` does), so a medium is put on every drive only
where every disk listed has that one medium; where the disks differ, or some say nothing,
the medium stays a guess whose reason says what was read. `Get-Disk`'s and
`Get-PhysicalDisk`'s sizes are named in a note: the inventory's size is the drive's, and a
drive on a Storage Spaces or dynamic volume may span disks.
"""

from __future__ import annotations

from rules.parse import Found, Parsed
from rules.parse.combine_storage import printable
from rules.parse.windows_disks import Disk

MEDIA = {"SSD": "ssd", "HDD": "hdd"}  # Get-PhysicalDisk's MediaType → the contract's media
NOT_READ = "whether the drive is SSD, NVMe or spinning disk was not read (Get-PhysicalDisk)"
WHICH = "which disk holds which drive is not printed (Get-Partition -DriveLetter X | Get-Disk)"
MAX_NAMED = 8


def physical(parsed: Parsed) -> list[tuple[Disk, Found]]:
    """Every disk `Get-PhysicalDisk` listed, with the section that listed it."""
    found = parsed.all("windows_disks")
    return [(d, f) for f in found if f.value.command == "get-physicaldisk" for d in f.value.disks]


def media(parsed: Parsed) -> tuple[str, Found | None, str]:
    """The medium every drive is on: (media, the section read, why) when every disk listed
    has that one medium; else ("hdd", None, why it is a guess)."""
    disks = physical(parsed)
    if not disks:
        return "hdd", None, NOT_READ
    known = {MEDIA[d.media] for d, _ in disks if d.media in MEDIA}
    said = _media_words(disks)
    if len(known) == 1 and all(d.media in MEDIA for d, _ in disks):
        return known.pop(), disks[0][1], f"MediaType {said} of every disk Get-PhysicalDisk lists"
    line = disks[0][1].section.line
    if not known:
        why = "no MediaType column" if not any(d.media for d, _ in disks) else f"MediaType {said}"
        return "hdd", None, f"line {line}: Get-PhysicalDisk printed {why}: the medium is not said"
    guess = known.pop() if len(known) == 1 else "hdd"
    return guess, None, f"line {line}: Get-PhysicalDisk lists MediaType {said}; {WHICH}"


def _media_words(disks: list[tuple[Disk, Found]]) -> str:
    counted: dict[str, int] = {}
    for disk, _ in disks:
        word = disk.media or "not printed"
        counted[word] = counted.get(word, 0) + 1
    if len(counted) == 1:
        return next(iter(counted))
    return ", ".join(f"{word} ({count})" for word, count in counted.items())


def disk_notes(parsed: Parsed) -> list[str]:
    """A note a section of disks read: each disk's name and size, and what is not known."""
    notes = []
    for found in parsed.all("windows_disks"):
        disks = found.value.disks
        named = ", ".join(_named(d) for d in disks[:MAX_NAMED])
        more = f", and {len(disks) - MAX_NAMED} more" if len(disks) > MAX_NAMED else ""
        notes.append(
            f"line {found.section.line}: `{printable(found.section.command)[:60]}` lists "
            f"{len(disks)} disk{'s' if len(disks) != 1 else ''}: {named}{more}; {WHICH}"
        )
    return notes


def _named(disk: Disk) -> str:
    name = printable(disk.name) or (f"disk {disk.number}" if disk.number else "a disk")
    return f"{name} {printable(disk.size_text)}" if disk.size_text else name
