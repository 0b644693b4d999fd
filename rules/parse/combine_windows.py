"""Windows facts → the server and its drives.

The server: `systeminfo` gives the OS version (10.0 for every Windows Server from 2016 to
2025), the release in its OS Name (`Microsoft Windows Server 2022 Datacenter` → 2022), the
host name and the memory; `wmic cpu get NumberOfCores,NumberOfLogicalProcessors` or
PowerShell's Win32_Processor the cores and logical CPUs, summed over sockets (systeminfo's
`N Processor(s) Installed.` counts sockets, so it gives neither).

`fsutil fsinfo ntfsinfo D:` gives a drive's allocation unit, said in a note where it is
below the 64 KB SAS wants (the contract has no field for it). A format is advised only for
a drive whose role is SAS data, WORK or UTILLOC, and never for the system drive (the
`Windows Directory` systeminfo prints, else C:): for it, WORK moves to a volume of its own.
`Get-PhysicalDisk` gives the drives' medium where every disk has the same one, and the
disks it and `Get-Disk` list are named in a note (combine_windows_disks).

The storage: a storage entry a fixed local drive with a letter and an NTFS or ReFS file
system (`Get-Volume`, `wmic logicaldisk`; the first section naming a letter gives it), its
mount the drive's root as typed Windows inventories write it (`D:\\`), its size the
volume's. Removable, network and CD drives, volumes without a letter (recovery
partitions) and FAT file systems are no place for SAS files and are named in a note.
`Get-CimInstance Win32_LogicalDisk`'s default table prints no FileSystem: a fixed local
drive (DriveType 3) with a size is then kept, its file system held as "other" and asked
for (never guessed NTFS), and a note names the drives whose type was not read.
"""

from __future__ import annotations

from rules.kinds import DEVICE, HOSTNAME, OS_VERSION
from rules.parse import Found, Parsed
from rules.parse.builder import Builder
from rules.parse.combine_storage import common_fields, printable, within_reach
from rules.parse.combine_windows_disks import disk_notes, media
from rules.parse.windows_volumes import Volume
from rules.parse.wiring import reads

GIB = 1024**3
MIB_PER_GIB = 1024
FILESYSTEMS = {"ntfs": "ntfs", "refs": "refs"}
LOCAL = ("fixed", "")  # "" where the command printed no drive type
SAS_CLUSTER = 64 * 1024  # the NTFS allocation unit SAS on Windows wants
UNTYPED = "other"  # the contract's file system for one not read
WHY_RAID = "Windows shows the volume, not the disks or RAID behind it"
# Roles whose drive's allocation unit matters to SAS: its data, WORK and UTILLOC.
SAS_ROLES = ("data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work")
SYSTEM_DRIVE = "C"  # the drive holding \Windows where systeminfo does not say


@reads("systeminfo", "windows_cpu")
def windows_server(parsed: Parsed, b: Builder) -> None:
    info = parsed.first("systeminfo")
    if info is not None:
        _system(b, info)
    else:
        b.needs("server.os_version", "no systeminfo was read: give the OS version (10.0)")
    _cpus(parsed, b, info)
    if info is None or info.value.memory_mb is None:
        b.guess("server.ram_gb", 1, "no systeminfo `Total Physical Memory` was read")


def _system(b: Builder, info: Found) -> None:
    value = info.value
    if value.os_version and OS_VERSION.accepts(value.os_version):
        raw = f"{value.os_version}.{value.build}"
        b.put("server.os_version", value.os_version, info, raw=raw, note="OS Version")
    if value.release_name in ("2016", "2019", "2022", "2025"):
        b.put("server.os_release_name", value.release_name, info, raw=value.os_name)
    elif value.os_name:
        b.notes.append(
            f"line {info.section.line}: {printable(value.os_name)!r} is no Windows Server "
            "release the contract names (2016, 2019, 2022, 2025)"
        )
    if value.host and HOSTNAME.accepts(value.host) and "server.hostname" in b.missing:
        b.put("server.hostname", value.host, info, note="Host Name")
    if value.memory_mb is not None:
        gb = round(value.memory_mb / MIB_PER_GIB, 2)
        b.put("server.ram_gb", gb, info, raw=f"{value.memory_mb} MB", note="Total Physical Memory")


def _cpus(parsed: Parsed, b: Builder, info: Found | None) -> None:
    cpu = parsed.first("windows_cpu")
    count = cpu.value if cpu is not None else None
    if cpu is not None and count is not None and count.logical:
        note = f"NumberOfLogicalProcessors over {count.sockets} processor(s)"
        b.put("server.cpus", count.logical, cpu, note=note)
    else:
        sockets = info.value.sockets if info is not None else None
        why = f"{sockets} processor(s) installed, " if sockets else ""
        b.guess("server.cpus", 1, f"{why}no NumberOfLogicalProcessors was read (wmic cpu)")
    if cpu is not None and count is not None and count.cores:
        b.put("server.cores", count.cores, cpu, note="NumberOfCores, summed")
        if count.logical and count.logical % count.cores == 0 and count.logical > count.cores:
            b.put("server.smt_threads", count.logical // count.cores, cpu,
                  note="logical processors per core")  # fmt: skip


@reads("windows_volumes", "windows_fsinfo", "windows_disks", "systeminfo")
def windows_storage(parsed: Parsed, b: Builder) -> None:
    drives, left = _drives(parsed)
    if left:
        b.notes.append(f"left out {', '.join(left[:8])}{', …' if len(left) > 8 else ''}")
    if not parsed.all("windows_volumes"):
        b.notes.append("no Get-Volume or wmic logicaldisk output: no drives read")
    kept = within_reach(list(drives.values()), b, lambda d: f"{d[0].letter}:\\")
    medium = media(parsed)
    for i, (volume, found) in enumerate(kept):
        _entry(b, i, volume, found)
        _media(b, i, medium)
    b.notes.extend(disk_notes(parsed))
    b.notes.extend(_health_note(v, f) for v, f in kept if v.health)
    untyped = [(v, f) for v, f in kept if v.filesystem is None]
    if untyped:
        b.notes.append(_untyped_note(untyped))
    _clusters(parsed, b)


def _drives(parsed: Parsed) -> tuple[dict[str, tuple[Volume, Found]], list[str]]:
    """Each usable drive by letter, from the first section naming it, or from a later one
    that prints the file system an earlier one did not; and what was left out, and why."""
    drives: dict[str, tuple[Volume, Found]] = {}
    left: list[tuple[str, str]] = []
    for found in parsed.all("windows_volumes"):
        for volume in found.value:
            held = drives.get(volume.letter)
            typed_now = (
                held is not None and held[0].filesystem is None and volume.filesystem is not None
            )
            why = _unusable(volume)
            if why:
                left.append((volume.letter, f"{_named(volume)} ({why})"))
                if typed_now:
                    del drives[volume.letter]  # its file system, read now, is no place for SAS
            elif held is None or typed_now:
                drives[volume.letter] = (volume, found)
    # a drive one listing could not use and another gave whole is kept, not left out
    return drives, [why for letter, why in left if not letter or letter not in drives]


def _named(volume: Volume) -> str:
    """'D:', or a volume without a letter by its label, file system and size."""
    if volume.letter:
        return f"{volume.letter}:"
    said = ", ".join(s for s in (volume.label, volume.filesystem, volume.size_text) if s)
    return f"a volume ({said})" if said else "a volume"


def _health_note(volume: Volume, found: Found) -> str:
    line = found.section.line_of(volume.offset)
    return (
        f"line {line}: {volume.letter}:\\ reports {volume.health}: repair it (`Repair-Volume "
        f"-DriveLetter {volume.letter} -Scan`, then chkdsk) before measuring or tuning it"
    )


def _untyped_note(untyped: list[tuple[Volume, Found]]) -> str:
    drives = ", ".join(f"{v.letter}:\\" for v, _ in untyped)
    found = untyped[0][1]
    return (
        f"line {found.section.line}: the file system of {drives} was not read: "
        f"`{printable(found.section.command)[:80]}` prints no FileSystem column; held as "
        f"{UNTYPED!r} until it is given (`Get-Volume` prints it)"
    )


def _clusters(parsed: Parsed, b: Builder) -> None:
    """Each drive's allocation unit against the 64 KB SAS on Windows wants; the contract
    has no field for it, so it is said in a note. A format is advised only for a drive
    holding SAS data, WORK or UTILLOC, and never for the system drive (the one holding
    \\Windows): reformatting it means reinstalling Windows, so WORK moves off it instead."""
    info = parsed.first("systeminfo")
    system = (info.value.system_drive if info is not None else "") or SYSTEM_DRIVE
    roles = {str(e.get("mount", "")): str(e.get("role", "")) for e in b.doc.get("storage", [])}
    for found in parsed.all("windows_fsinfo"):
        value, line = found.value, found.section.line
        drive = f"{value.drive}:\\" if value.drive else "the volume"
        size = f"{value.cluster_bytes / 1024:g} KB"
        if value.cluster_bytes >= SAS_CLUSTER:
            b.notes.append(f"line {line}: {drive} has {size} allocation units, as SAS wants")
            continue
        said = f"line {line}: {drive} has {size} allocation units (`Bytes Per Cluster`)"
        fs = "ReFS" if "refsinfo" in (a.lower() for a in found.section.argv) else "NTFS"
        advice = _cluster_advice(value.drive, system, roles.get(drive, ""), fs)
        b.notes.append(f"{said}; {advice}")


def _cluster_advice(letter: str, system: str, role: str, fs: str) -> str:
    """What to do about small allocation units on this drive, by what it holds."""
    if letter and letter == system:
        return (
            f"{letter}: is the system drive (it holds \\Windows), which is not reformatted "
            "without reinstalling Windows: if SAS WORK or UTILLOC is there, move it to a "
            "dedicated volume formatted with 64 KB allocation units"
        )
    if role in SAS_ROLES:
        return (
            "SAS on Windows wants 64 KB for its data and WORK; only a format changes it, and a "
            f"format erases the volume: with its files moved off, format {letter}: /FS:{fs} /A:64K"
        )
    where = f"{letter}:\\" if letter else "it"
    return (
        "64 KB units matter on a drive holding SAS data, WORK or UTILLOC, and none is known "
        f"to be on {where}: give its role if one is"
    )


def _unusable(volume: Volume) -> str:
    if not volume.letter and (volume.filesystem or "").upper() == "CSVFS":
        return "a cluster shared volume: no drive letter, under C:\\ClusterStorage on each node"
    if not volume.letter:
        return "no drive letter"
    if volume.drive_type.lower() not in LOCAL:
        return f"a {printable(volume.drive_type)} drive"
    if volume.filesystem is None:
        return _untyped_unusable(volume)
    if volume.filesystem.lower() not in FILESYSTEMS:
        return f"file system {printable(volume.filesystem) or 'none'}, not NTFS or ReFS"
    return ""


def _untyped_unusable(volume: Volume) -> str:
    """A drive listed without its file system is kept only as a fixed local disk with a
    size: one whose drive type was not printed may be a share or a CD."""
    if volume.drive_type.lower() != "fixed":
        return "neither its drive type nor its file system printed"
    if not volume.size_bytes:
        return "a fixed drive without its size or file system printed"
    return ""


def _entry(b: Builder, i: int, volume: Volume, found: Found) -> None:
    at, mount = f"storage[{i}]", f"{volume.letter}:\\"
    name = volume.label if DEVICE.accepts(volume.label) else f"drive_{volume.letter.lower()}"
    b.put(f"{at}.name", name, found, raw=volume.label)
    b.put(f"{at}.mount", mount, found)
    if volume.filesystem is None:
        why = f"its type was not read: `{printable(found.section.command)[:80]}` does not print it"
        b.guess(f"{at}.filesystem", UNTYPED, f"{why} (Get-Volume does)")
    else:
        fs = FILESYSTEMS[volume.filesystem.lower()]
        b.put(f"{at}.filesystem", fs, found, raw=volume.filesystem)
    if volume.size_bytes:
        gb = max(0.01, round(volume.size_bytes / GIB, 2))
        b.put(f"{at}.size_gb", gb, found, raw=volume.size_text)
    else:
        b.guess(f"{at}.size_gb", 1, "no size was read for this drive")
    common_fields(b, i, role_from=f"{volume.label} {mount}")
    b.guess(f"{at}.raid", "jbod", WHY_RAID)
    b.guess(f"{at}.disks", 1, WHY_RAID)


def _media(b: Builder, i: int, medium: tuple[str, Found | None, str]) -> None:
    value, found, why = medium
    if found is None:
        b.guess(f"storage[{i}].media", value, why)
    else:
        b.put(f"storage[{i}].media", value, found, note=why)
