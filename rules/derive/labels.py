"""How people write the names the contract spells in lower case."""

from __future__ import annotations

from rules.inventory import Server

OS_LABELS: dict[str, str] = {
    "aix": "AIX",
    "linux": "Linux",
    "solaris": "Solaris",
    "hpux": "HP-UX",
    "windows": "Windows",
}


def os_label(os: str) -> str:
    """'aix' -> 'AIX'."""
    return OS_LABELS[os]


DISTRIBUTION_LABELS: dict[str, str] = {
    "rhel": "RHEL", "ol": "Oracle Linux", "centos": "CentOS", "rocky": "Rocky Linux",
    "alma": "AlmaLinux", "sles": "SLES", "opensuse": "openSUSE", "ubuntu": "Ubuntu",
    "debian": "Debian", "other": "Linux",
}  # fmt: skip
# openSUSE's releases since 42.1 (2015) are openSUSE Leap: 42.x, 15.x, 16.x, each built
# from the SUSE Linux Enterprise release of its generation; 13.2 and before were openSUSE.
OPENSUSE_LEAP_MAJORS = ("15", "16", "42")


def distribution_label(distribution: str, version: str = "") -> str:
    """The product's own name: 'Oracle Linux', 'openSUSE Leap' (at 15.5), 'openSUSE' (12.2)."""
    if distribution == "opensuse" and version.split(".")[0] in OPENSUSE_LEAP_MAJORS:
        return "openSUSE Leap"
    return DISTRIBUTION_LABELS.get(distribution, "Linux")


# Windows Server 2016, 2019, 2022 and 2025 all report version 10.0 (their builds differ:
# 10.0.14393, 10.0.17763, 10.0.20348, 10.0.26100; Microsoft Learn, Windows Server release
# information).
WINDOWS_10_SERVERS = "Server 2016-2025"  # ASCII: config files are read in the session encoding


def os_name(
    os: str, version: str, distribution: str | None = None, release_name: str | None = None
) -> str:
    """The OS as its vendor names it: 'AIX 7.2', 'RHEL 8.6', 'Debian 12', 'Windows Server
    2022' ('Windows 10.0 (Server 2016-2025)' where only the version is known)."""
    if os == "windows":
        if release_name:
            return f"Windows Server {release_name}"
        releases = f" ({WINDOWS_10_SERVERS})" if version == "10.0" else ""
        return f"Windows {version}{releases}"
    name = OS_LABELS.get(os, os)
    if os == "linux" and distribution:
        name = distribution_label(distribution, version)
    return f"{name} {version}".strip()


def os_release(server: Server) -> str:
    """'AIX 5.3', 'Linux 9', 'RHEL 9.4 (kernel 5.14.0)', 'Windows Server 2022'."""
    name = os_name(server.os, server.os_version, server.distribution, server.os_release_name)
    kernel = f" (kernel {server.kernel})" if server.kernel and server.os != "windows" else ""
    return name + kernel
