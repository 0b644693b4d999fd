"""Words the placement warnings share: a file system named as an admin names it, WORK and
UTILLOC in plain terms, and the OS's own way to give WORK a file system of its own."""

from __future__ import annotations

from rules.inventory import Inventory, Storage
from rules.kinds import is_windows_path

ROLE_WORDS = {
    "work": ("SAS WORK", "WORK"),
    "utilloc": ("UTILLOC, where SAS writes its sort utility files,", "UTILLOC"),
    "data": ("SAS data", "data"),
    "spds_data": ("SPD Server data", "SPD Server data"),
    "spds_index": ("SPD Server indexes", "SPD Server indexes"),
    "spds_meta": ("SPD Server metadata", "SPD Server metadata"),
    "spds_work": ("SPD Server's work space", "SPD Server's work space"),
}
# Where each OS gives WORK a file system of its own: its own disks, never the ones the OS
# boots from (AIX rootvg, HP-UX vg00, Solaris's root pool).
OWN_FILE_SYSTEM = {
    "aix": "a JFS2 file system of its own in a volume group other than rootvg, on disks "
    "nothing else uses (mkvg, mklv, crfs), mounted for example at /saswork",
    "linux": "a file system of its own (XFS) on disks or a logical volume nothing else uses, "
    "mounted for example at /saswork",
    "solaris": "a file system of its own on disks outside the root pool (a ZFS pool or UFS "
    "slice of its own), mounted for example at /saswork",
    "hpux": "a VxFS file system of its own on a logical volume outside vg00, mounted for "
    "example at /saswork",
    "windows": "a drive of its own, neither C: nor a data drive (NTFS or ReFS, for example "
    "W:\\saswork)",
}


def scratch_label(s: Storage, *, short: bool = False) -> str:
    """'SAS WORK' / 'WORK' for work; UTILLOC likewise; the data roles in words."""
    long_words, short_words = ROLE_WORDS.get(s.role, (s.role, s.role))
    return short_words if short else long_words


def fs_name(s: Storage) -> str:
    """'the root file system /', 'the /var file system', 'drive D:', 'the system drive C:'."""
    if is_windows_path(s.mount):
        if s.mount.startswith("\\\\"):
            return f"the share {s.mount}"
        letter = s.mount[:2].upper()
        return "the system drive C:" if letter == "C:" else f"drive {letter}"
    if s.mount == "/":
        return "the root file system /"
    return f"the {s.mount} file system"


def own_file_system(inv: Inventory) -> str:
    """How this server's OS gives WORK a file system of its own."""
    return OWN_FILE_SYSTEM.get(inv.server.os, OWN_FILE_SYSTEM["linux"])
