"""The OS as its vendor names it, wherever a page or report names the server."""

from __future__ import annotations

import pytest

from rules.derive.labels import os_name


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("linux", "12", "debian"), "Debian 12"),
        (("linux", "8.6", "rhel"), "RHEL 8.6"),
        (("linux", "15.5", "sles"), "SLES 15.5"),
        (("linux", "9"), "Linux 9"),
        (("aix", "7.2"), "AIX 7.2"),
        (("solaris", "11.4"), "Solaris 11.4"),
        (("windows", "10.0", None, "2022"), "Windows Server 2022"),
        (("windows", "10.0"), "Windows 10.0 (Server 2016-2025)"),
        (("windows", "6.3"), "Windows 6.3"),
    ],
)
def test_os_name(args: tuple[str, ...], expected: str) -> None:
    assert os_name(*args) == expected
