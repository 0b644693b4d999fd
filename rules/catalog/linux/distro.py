"""Each distribution's own guidance, so advice names the vendor of the server it is for.

File system for large data: Red Hat's "Managing file systems" (rhel-filesystems: XFS is
RHEL's default, recommended for large files); SUSE's Storage Administration Guide
(suse-filesystems: Btrfs for the operating system, XFS the default for all other uses);
Oracle Linux's file system guide (oracle-linux-xfs: XFS scales in I/O threads, bandwidth,
file and file system size, even across many storage devices). Ubuntu, Debian and the other
distributions publish no such guidance for data file systems, so the advice speaks of the
file systems themselves.

Transparent huge pages: the kernel's default (always or madvise) is chosen when it is built
(kernel-thp-config, commit 13ece886); Red Hat's kernels and Oracle's ship "always" (RHEL:
tuned's profiles leave it; Oracle: "enabled by default with Oracle Linux", oracle-linux-thp).
For the others no default is claimed: the script reads the current one.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.derive.linux import LinuxRelease


class Guidance(NamedTuple):
    text: str  # one sentence, the server's own vendor speaking
    sources: tuple[str, ...]


XFS_NEUTRAL = Guidance(
    "XFS allocates in parallel allocation groups and has higher file and file system size "
    "limits than ext4, which suits SAS's large sequential files; {name} publishes no "
    "guidance of its own on this, so keep ext4 where its limits and throughput suffice",
    ("rhel-filesystems",),
)
XFS_GUIDANCE = {
    "rhel": Guidance(
        "RHEL recommends XFS, its default, for large files and parallel I/O; ext4 has lower "
        "file and file system size limits",
        ("rhel-filesystems",),
    ),
    "sles": Guidance(
        "SUSE makes XFS the default for everything but the operating system's own Btrfs; ext4 "
        "has lower file and file system size limits",
        ("suse-filesystems",),
    ),
    "ol": Guidance(
        "Oracle's Oracle Linux file system guide describes XFS as scaling in I/O threads, "
        "bandwidth, file size and file system size, even across many storage devices; ext4 "
        "has lower file and file system size limits",
        ("oracle-linux-xfs",),
    ),
}
# openSUSE Leap is built from the SLES release of its generation, installer and file
# system proposal included (Btrfs for the system, XFS for the rest).
XFS_GUIDANCE["opensuse"] = XFS_GUIDANCE["sles"]
THP_ALWAYS = {"rhel", "ol", "centos", "rocky", "alma"}


def xfs_guidance(release: LinuxRelease) -> Guidance:
    """What this distribution's vendor says of XFS for data, or neutral wording."""
    found = XFS_GUIDANCE.get(release.distribution)
    if found is not None:
        return found
    return Guidance(XFS_NEUTRAL.text.format(name=release.name), XFS_NEUTRAL.sources)


def thp_default(release: LinuxRelease) -> str:
    """The THP mode the distribution's kernel ships with, '' where no source says."""
    return "always" if release.distribution in THP_ALWAYS else ""


def thp_sentence(release: LinuxRelease) -> str:
    """The default, said of this distribution, or how the script finds it out."""
    if release.is_rhel:
        return (
            "RHEL's default is always; throughput-performance leaves it (it sets never only "
            "on ThunderX aarch64)."
        )
    if thp_default(release):
        return (
            f"{release.name}'s kernels ship with always; throughput-performance leaves it (it "
            "sets never only on ThunderX aarch64)."
        )
    return (
        f"{release.name}'s kernel chose its default (always or madvise) when it was built; "
        "linux_tuning.sh shows the current one before changing it."
    )
