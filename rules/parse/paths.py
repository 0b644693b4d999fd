"""Which file system holds a directory: POSIX mount points and Windows drive paths.

A POSIX directory is held by the longest mount point that equals it or is a prefix of it
at a `/` boundary, compared as written (POSIX names are case-sensitive). A Windows
directory (`D:\\saswork\\iotest.dat`, `d:/saswork`, `\\\\server\\share\\sas`) is held by the
longest Windows mount (`D:\\`, `D:`, `E:\\sasdata`, `\\\\server\\share`) that is a prefix of it
at a separator, compared without regard to case and with `\\` and `/` as one separator, as
Windows compares them. A POSIX directory is never held by a Windows mount, nor the reverse.
"""

from __future__ import annotations

import re

_DRIVE = re.compile(r"[A-Za-z]:(?:[\\/]|$)")


def is_windows(path: str) -> bool:
    """A drive path (`D:`, `D:\\x`, `d:/x`) or a UNC path (`\\\\server\\share`)."""
    return bool(_DRIVE.match(path)) or path.startswith("\\\\")


def _windows_parts(path: str) -> list[str]:
    """The path's components, lower-cased, empty ones dropped: `D:\\SASwork\\` → d:, saswork."""
    return [p for p in path.replace("/", "\\").lower().split("\\") if p]


def _posix_holds(mount: str, directory: str) -> bool:
    return directory == mount or directory.startswith(mount.rstrip("/") + "/")


def _windows_holds(mount: list[str], directory: list[str]) -> bool:
    return bool(mount) and directory[: len(mount)] == mount


def holder(directory: str, mounts: list[str]) -> int | None:
    """The index of the mount point holding `directory` (the longest that is a prefix; the
    first of equals), or None where none does."""
    if is_windows(directory):
        return _windows_holder(directory, mounts)
    best: int | None = None
    for i, mount in enumerate(mounts):
        if is_windows(mount) or not _posix_holds(mount, directory):
            continue
        if best is None or len(mount) > len(mounts[best]):
            best = i
    return best


def _windows_holder(directory: str, mounts: list[str]) -> int | None:
    wanted = _windows_parts(directory)
    best: int | None = None
    best_depth = 0
    for i, mount in enumerate(mounts):
        if not is_windows(mount):
            continue
        parts = _windows_parts(mount)
        if _windows_holds(parts, wanted) and (best is None or len(parts) > best_depth):
            best, best_depth = i, len(parts)
    return best
