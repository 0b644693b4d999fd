"""uname -a and hostname on Linux, AIX, Solaris and HP-UX (tests/fixtures/parse/unix/)."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section
from rules.parse.unix import hostname, uname
from tests.rules.parse.fixtures import section


def test_linux_rhel6_insights() -> None:
    u = uname(section("unix/uname_rhel6.txt"))
    assert (u.system, u.hostname, u.machine) == ("Linux", "foo.example.com", "x86_64")
    assert u.release == "2.6.32-504.el6.x86_64"
    assert u.version == "#1 SMP Tue Sep 16 01:56:35 EDT 2014"
    assert u.os_version is None


def test_linux_debian_without_processor_and_platform() -> None:
    u = uname(section("unix/uname_debian12.txt"))
    assert (u.hostname, u.release, u.machine) == ("vm", "6.18.44-fc-v669", "x86_64")
    assert u.version == "#1 SMP PREEMPT_DYNAMIC @0"


def test_aix_release_is_the_minor_version() -> None:
    u = uname(section("unix/uname_aix_qemu.txt"))
    assert (u.system, u.release, u.version) == ("AIX", "2", "7")
    assert u.machine == "000000000000"
    assert u.os_version == "7.2"


def test_solaris_11_takes_the_version_field() -> None:
    u = uname(section("unix/uname_solaris114_sparc.txt"))
    assert (u.system, u.release, u.version, u.machine) == ("SunOS", "5.11", "11.4.33.94.0", "sun4v")
    assert u.os_version == "11.4"


def test_solaris_10_takes_the_release_minor() -> None:
    u = uname(section("unix/uname_solaris10_x86.txt"))
    assert (u.hostname, u.version, u.machine) == ("seahorse", "Generic_142910-17", "i86pc")
    assert u.os_version == "10"


def test_hpux() -> None:
    u = uname(section("unix/uname_hpux_ia64.txt"))
    assert (u.system, u.hostname, u.release, u.version, u.machine) == (
        "HP-UX",
        "sovmh336",
        "B.11.31",
        "U",
        "ia64",
    )
    assert u.os_version == "11.31"


def test_uname_without_a_system_line_is_garbled() -> None:
    with pytest.raises(Garbled):
        uname(Section("uname -a", ("uname", "-a"), ("", "   "), 1))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("unix/hostname_debian12.txt", "vm"), ("unix/hostname_rhel7_fqdn.txt", "rhel7.example.com")],
)
def test_hostname(name: str, expected: str) -> None:
    assert hostname(section(name)).name == expected


def test_hostname_error_message_is_garbled() -> None:
    lines = ("hostname: Name or service not known",)
    with pytest.raises(Garbled) as raised:
        hostname(Section("hostname", ("hostname",), lines, 1))
    assert raised.value.offset == 0
