"""`mount` on Linux, AIX (LPAR and WPAR) and Solaris (tests/fixtures/parse/unix/)."""

from __future__ import annotations

import pytest

from rules.parse.registry import Garbled, Section
from rules.parse.unix import Mount, mount
from tests.rules.parse.fixtures import section


def test_linux_mount_with_a_space_in_the_target() -> None:
    rows = {m.target: m for m in mount(section("unix/mount_debian12.txt"))}
    assert rows["/"] == Mount(
        "/",
        "/dev/vda",
        "ext4",
        ("rw", "relatime", "discard", "resv_strict", "resuid=65534", "resgid=65534"),
    )
    assert rows["/tmp/sas work"].fstype == "tmpfs"


def test_linux_mount_with_labels_in_brackets() -> None:
    rows = {m.target: m for m in mount(section("unix/mount_fedora_insights.txt"))}
    assert rows["/etc/shadow"].source == "/dev/mapper/HostVG-Config"
    assert rows["/run/media/root/VMware Tools"].fstype == "iso9660"
    assert rows["/run/user/1000/gvfs"].fstype == "fuse.gvfsd-fuse"


def test_aix_lpar_with_an_nfs_node_column() -> None:
    rows = mount(section("unix/mount_aix_lpar_nfs.txt"))
    assert rows[0] == Mount("/", "/dev/hd4", "jfs2", ("rw", "log=/dev/hd8"))
    assert rows[-1] == Mount(
        "/stage/middleware2",
        "192.168.1.11:/stage/middleware1",
        "nfs3",
        ("ro", "bg", "hard", "intr", "sec=sys"),
    )
    assert len(rows) == 9


def test_aix_wpar_mounts_come_from_global() -> None:
    rows = mount(section("unix/mount_aix_wpar.txt"))
    assert {m.source for m in rows[:7]} == {"Global"}
    assert rows[3] == Mount("/proc", "Global", "namefs", ("rw",))


def test_solaris_options_keep_a_path_valued_option_whole() -> None:
    rows = mount(section("unix/mount_solaris11_zone.txt"))
    root, var = rows[0], rows[1]
    assert (root.target, root.source, root.fstype) == ("/", "rpool/ROOT/solaris-0", None)
    assert "mountpoint=/zones/servername.chef.internal.dns/root/" in root.options
    assert "mountpoint=/zones/servername.chef.internal.dns/root/var" in var.options
    assert var.options[-1] == "dev=4bd0b7f"
    assert len(rows) == 19


def test_aix_header_alone_is_an_empty_table() -> None:
    lines = (
        "  node       mounted        mounted over    vfs       date        options",
        "-------- ---------------  ---------------  ------ ------------ ---------------",
    )
    assert mount(Section("mount", ("mount",), lines, 1)) == ()


def test_usage_text_is_garbled() -> None:
    lines = ("Usage:", " mount [-lhV]")
    with pytest.raises(Garbled):
        mount(Section("mount", ("mount",), lines, 1))
