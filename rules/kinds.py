"""The contract's leaf kinds: the choices and the patterns its fields are held to.

Names that end up in generated files (host names, mount points, device names) are held
to strict character sets here, so no renderer ever sees a hostile value. `rules.inventory`
declares the fields with them.
"""

from __future__ import annotations

from rules.fields import Choice, Int, Pattern

MAX_KB = 1048576
OS_CHOICE = Choice(("aix", "linux", "solaris", "hpux", "windows"))
SAS_CHOICE = Choice(("9.1.3", "9.2", "9.3", "9.4"))
ROLE_CHOICE = Choice(
    ("data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work", "other")
)
RAID_CHOICE = Choice(("0", "1", "5", "6", "10", "jbod"))
MEDIA_CHOICE = Choice(("hdd", "ssd", "nvme", "ram"))
FS_CHOICE = Choice(
    ("jfs2", "jfs", "xfs", "ext4", "zfs", "ufs", "vxfs", "gpfs", "ntfs", "refs", "nfs", "other")
)
DISTRIBUTION_CHOICE = Choice(
    ("rhel", "ol", "centos", "rocky", "alma", "sles", "opensuse", "ubuntu", "debian", "other")
)
KERNEL = Pattern(r"[0-9]{1,4}(?:\.[0-9]{1,6}){1,3}", "must be a kernel release such as '5.14.0'")

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
HOSTNAME = Pattern(
    rf"{_LABEL}(?:\.{_LABEL})*",
    "must be an RFC 1123 host name: labels of letters, digits and '-', "
    "1-63 characters each, at most 253 in all",
    max_len=253,
)
DOTTED = r"[0-9]{1,4}(?:\.[0-9]{1,4}){0,3}"
OS_VERSION = Pattern(DOTTED, "must be a dotted version number such as '7.2'")
# Not starting with "-": the generated scripts pass device names to lsattr, chdev and the
# like, where a name such as "-a" would be read as an option, however it is quoted.
DEVICE = Pattern(
    r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}",
    "must be 1-64 characters of [A-Za-z0-9_.-], not starting with '-'",
)
_MOUNT_MESSAGE = (
    "must be an absolute path: /saswork of [A-Za-z0-9/_.-], or for Windows a drive path "
    "(D:\\saswork) or a UNC path (\\\\server\\share) of [A-Za-z0-9_.$-]"
)
_WIN_PART = r"[A-Za-z0-9_.$-]{1,255}"
WINDOWS_MOUNT = (
    rf"[A-Za-z]:\\(?:{_WIN_PART}(?:\\{_WIN_PART})*\\?)?"
    rf"|\\\\{_WIN_PART}\\{_WIN_PART}(?:\\{_WIN_PART})*\\?"
)


def is_windows_path(path: str) -> bool:
    return not path.startswith("/")


def _mount_components(value: str) -> str | None:
    if is_windows_path(value):
        parts = value.lstrip("\\").split("\\")
        if any(p in (".", "..") for p in parts):
            return _MOUNT_MESSAGE + ", without '.' or '..' components"
        return None
    if value != "/" and any(p in ("", ".", "..") for p in value.split("/")[1:]):
        return _MOUNT_MESSAGE + ", without empty, '.' or '..' components"
    return None


MOUNT = Pattern(
    rf"/[A-Za-z0-9/_.-]*|{WINDOWS_MOUNT}", _MOUNT_MESSAGE, max_len=1024, check=_mount_components
)
KB = Int(1, MAX_KB)
