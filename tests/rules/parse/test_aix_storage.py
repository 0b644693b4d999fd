"""AIX storage entries from real captures: NFS mounts, and the LV → hdisk mapping of
`lspv -l` and `lslv -l` (so each file system gets its disks and their max transfer)."""

from __future__ import annotations

from typing import Any

from rules.parse import parse_text
from rules.parse.builder import Builder
from rules.parse.combine_aix import aix_storage
from tests.rules.parse.fixtures import transcript


def _storage(*names: str) -> tuple[Builder, dict[str, tuple[int, dict[str, Any]]]]:
    b = Builder()
    aix_storage(parse_text(transcript(*names)), b)
    return b, {e["mount"]: (i, e) for i, e in enumerate(b.doc.get("storage", []))}


def test_nfs_mounts_are_kept_with_their_node_and_path() -> None:
    b, by_mount = _storage("aix/mount_aix_nfs3_stroika.txt")
    i, toolbox = by_mount["/toolbox"]
    assert (toolbox["name"], toolbox["filesystem"]) == ("toolbox_20110809", "nfs")
    assert (
        b.provenance[f"storage[{i}].name"].raw
        == "192.168.253.81:/usr/sys/inst.images/toolbox_20110809"
    )
    assert {f"storage[{i}].{f}" for f in ("disks", "raid", "media")} <= set(b.missing)
    assert "devices" not in toolbox
    assert by_mount["/resgrp156"][1]["filesystem"] == "jfs2"
    assert "/proc" not in by_mount


def test_an_nfs_row_of_df_and_of_lsfs() -> None:
    b, by_mount = _storage("aix/df_512_nfs_long_name_ansible.txt")
    i, test = by_mount["/test"]
    assert (test["filesystem"], test["size_gb"]) == ("nfs", 31.0)
    assert (
        b.provenance[f"storage[{i}].filesystem"].raw == "nimitz.aus.stglabs.ibm.com:/nim/build_net"
    )
    b, by_mount = _storage("aix/lsfs_table_nfs_ansible.txt")
    i, client = by_mount["/tmp/clientnfs"]
    assert client["filesystem"] == "nfs"
    assert b.provenance[f"storage[{i}].name"].raw == "carribean-lp4:/tmp/lp4nfs"


def test_lspv_l_maps_the_lv_of_a_mount_to_its_disk() -> None:
    """One LPAR's mount and lspv -l hdisk2 (both quoted in Stroika's AIX instrument)."""
    b, by_mount = _storage("aix/mount_aix_nfs3_stroika.txt", "aix/lspv_l_hdisk2_stroika.txt")
    i, data = by_mount["/resgrp156"]
    assert (data["name"], data["devices"], data["disks"]) == ("resgrp156lv", ["hdisk2"], 1)
    assert b.provenance[f"storage[{i}].devices"].note == "disks whose lspv -l lists the LV"
    assert b.provenance[f"storage[{i}].devices"].command == "lspv -l hdisk2"


def test_lspv_l_alone_names_the_file_systems_on_the_disk() -> None:
    b, by_mount = _storage("aix/lspv_l_hdisk2_stroika.txt")
    assert sorted(by_mount) == ["/opt", "/resgrp156"]  # the paging LVs have no mount point
    i, opt = by_mount["/opt"]
    assert (opt["name"], opt["devices"]) == ("hd10opt", ["hdisk2"])
    assert f"storage[{i}].filesystem" in b.missing  # lspv -l prints no type
    assert any("file systems read from `lspv -l hdisk2`" in n for n in b.notes)


def test_lslv_l_heading_gives_the_mount_and_the_disk() -> None:
    b, by_mount = _storage("aix/lslv_l_ora10g_cnblogs.txt")
    i, ora = by_mount["/ora10g"]
    assert (ora["name"], ora["devices"], ora["disks"]) == ("ora10g", ["hdisk1"], 1)
    assert b.provenance[f"storage[{i}].devices"].note == "hdisks under the LV"


def test_lslv_l_without_its_heading_names_no_file_system() -> None:
    b, by_mount = _storage("aix/lslv_l_testlv_ibm_support.txt")
    assert by_mount == {}
    assert any("no mount, lsfs, lsvg -l, lslv, lspv -l or df output" in n for n in b.notes)
