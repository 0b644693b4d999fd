"""Which file system holds a directory: POSIX paths exactly as before, Windows drive paths
without regard to case or separator."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.parse.paths import holder, is_windows


def old_holder(directory: str, mounts: list[str]) -> int | None:
    """combine_storage.holder as it is for POSIX paths: the longest prefix mount."""
    best: int | None = None
    for i, mount in enumerate(mounts):
        inside = directory == mount or directory.startswith(mount.rstrip("/") + "/")
        if inside and (best is None or len(mount) > len(mounts[best])):
            best = i
    return best


@pytest.mark.parametrize(
    ("directory", "mounts", "held"),
    [
        ("/saswork/iotest", ["/", "/saswork"], 1),
        ("/saswork2", ["/", "/saswork"], 0),
        ("/saswork", ["/saswork/"], None),  # as before: a trailing / on the mount only
        ("/SASWORK/x", ["/", "/saswork"], 0),  # POSIX names are case-sensitive
        ("/x", [], None),
        ("D:\\saswork\\iotest.dat", ["C:\\", "D:\\"], 1),
        ("D:\\saswork\\iotest.dat", ["C:", "D:"], 1),
        ("d:\\SASWORK", ["D:\\", "D:\\saswork"], 1),
        ("D:/saswork/iotest.dat", ["D:\\saswork\\"], 0),
        ("D:\\saswork2", ["D:\\", "D:\\saswork"], 0),
        ("c:\\diskspd", ["D:\\", "C:\\"], 1),
        ("E:\\data", ["C:\\", "D:\\"], None),
        ("\\\\nas\\sas\\work", ["C:\\", "\\\\NAS\\sas"], 1),
        ("D:\\saswork", ["/", "/D:"], None),  # a Windows path is never in a POSIX mount
        ("/saswork", ["D:\\", "C:"], None),
    ],
)  # fmt: skip
def test_the_longest_mount_holding_the_directory(
    directory: str, mounts: list[str], held: int | None
) -> None:
    assert holder(directory, mounts) == held


_POSIX = st.lists(st.sampled_from(["", "a", "b", "ab", "sas", "SAS", "."]), max_size=4).map(
    lambda parts: "/" + "/".join(parts)
)
_ANY = st.one_of(_POSIX, st.text(alphabet="/ab:\\.", max_size=8))


@settings(max_examples=400, deadline=None)
@given(directory=_ANY, mounts=st.lists(_ANY, max_size=6))
def test_every_posix_directory_is_held_as_before(directory: str, mounts: list[str]) -> None:
    if not is_windows(directory):
        assert holder(directory, mounts) == old_holder(directory, mounts)
