"""The contract's fields for the estates SAS runs on now (issue 24, item 2): shared and
cloud storage, the md/LVM layer, each file system's settings, the Windows Server release,
the SAS maintenance release, NUMA nodes and what the server runs on. Each is optional
(schema_version stays 1), validates its values, refuses others by its path, is listed by
the JSON Schema, echoes when set, and leaves every document that does not use it
advised byte for byte as before (tests/rules/test_golden.py holds the golden files)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import rules
from rules.echo import field_paths
from rules.inventory import Inventory
from rules.schema import inventory_schema
from tests.conftest import EXAMPLES, example
from tests.rules.test_golden import INVENTORIES

Doc = dict[str, Any]

SERVER_FIELDS = ("os_release_name", "numa_nodes", "virtual", "zfs_arc_max_gb", "gpfs_pagepool_gb")
SAS_FIELDS = ("maintenance",)
STORAGE_FIELDS = (
    "volume", "volume_kind", "shared", "mount_options", "measured_is_cluster_total",
    "ephemeral", "throughput_cap_mb_s", "zfs_recordsize_kb", "gpfs_block_size_kb",
    "nfs_rsize_kb", "nfs_wsize_kb", "nfs_read_ahead_kb", "nfs_nconnect",
)  # fmt: skip
NEW_PATHS = (
    *(f"server.{f}" for f in SERVER_FIELDS),
    *(f"sas.{f}" for f in SAS_FIELDS),
    *(f"storage[].{f}" for f in STORAGE_FIELDS),
)


def linux_nfs() -> Doc:
    """RHEL 9 with WORK local and the data on an NFS mount."""
    doc = example("linux-rhel9-sas94")
    doc["storage"][1]["filesystem"] = "nfs"
    return doc


def with_all() -> Doc:
    """A document that uses every new field: WORK on instance-store NVMe under md RAID 0,
    data on NFS, a GPFS scratch and a ZFS file system, on an AWS VM."""
    doc = linux_nfs()
    doc["server"] |= {
        "numa_nodes": 2, "virtual": "aws", "zfs_arc_max_gb": 32, "gpfs_pagepool_gb": 16,
    }  # fmt: skip
    doc["sas"]["maintenance"] = "M8"
    work, data = doc["storage"]
    work |= {
        "volume": "md0", "volume_kind": "md", "shared": "none", "ephemeral": True,
        "throughput_cap_mb_s": 1250, "mount_options": "rw,noatime,inode64",
    }  # fmt: skip
    data |= {
        "shared": "nfs", "mount_options": "rw,hard,rsize=1048576,wsize=1048576,nconnect=8",
        "measured_mb_s": 2400, "measured_is_cluster_total": True, "nfs_rsize_kb": 1024,
        "nfs_wsize_kb": 1024, "nfs_read_ahead_kb": 15360, "nfs_nconnect": 8,
    }  # fmt: skip
    gpfs = dict(data, name="scratch", mount="/gpfs/scratch", role="other", filesystem="gpfs")
    for key in [k for k in gpfs if k.startswith("nfs_") or k == "mount_options"]:
        del gpfs[key]
    gpfs |= {"shared": "gpfs", "gpfs_block_size_kb": 4096}
    zfs = dict(work, name="tank", mount="/tank", role="other", filesystem="zfs")
    for key in ("volume", "volume_kind", "ephemeral", "throughput_cap_mb_s", "mount_options"):
        del zfs[key]
    zfs |= {"zfs_recordsize_kb": 1024, "volume": "tank/sas", "volume_kind": "other"}
    doc["storage"] += [gpfs, zfs]
    return doc


def windows_2022() -> Doc:
    doc = example("windows-sas94")
    doc["server"]["os_release_name"] = "2022"
    return doc


def problems(doc: Doc) -> dict[str, str]:
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    return {p.path: p.message for p in caught.value.problems}


def put(doc: Doc, path: str, value: Any) -> Doc:
    """`doc` with `value` at 'server.numa_nodes' or 'storage[1].nfs_nconnect'."""
    doc = copy.deepcopy(doc)
    part, key = path.rsplit(".", 1)
    target = doc[part[:-3]][int(part[-2])] if part.endswith("]") else doc[part]
    target[key] = value
    return doc


def test_every_new_field_is_declared_optional() -> None:
    paths = set(field_paths(Inventory))
    assert set(NEW_PATHS) <= paths
    schema = inventory_schema()["properties"]
    assert not set(SERVER_FIELDS) & set(schema["server"]["required"])
    assert not set(SAS_FIELDS) & set(schema["sas"]["required"])
    assert not set(STORAGE_FIELDS) & set(schema["storage"]["items"]["required"])


def test_the_schema_lists_each_new_field_with_its_title_and_description() -> None:
    schema = inventory_schema()["properties"]
    objects = {"server": schema["server"], "sas": schema["sas"]}
    objects["storage[]"] = schema["storage"]["items"]
    for path in NEW_PATHS:
        part, name = path.split(".")
        field = objects[part]["properties"][name]
        assert field["title"] and field["description"], path
        assert field["nullable"] is True, path
        assert "default" not in field, path  # null: not given


def test_the_schema_gives_choices_and_powers_of_two() -> None:
    schema = inventory_schema()["properties"]
    storage = schema["storage"]["items"]["properties"]
    assert storage["shared"]["enum"] == ["none", "nfs", "gpfs", "lustre", "cifs", "other", None]
    assert storage["zfs_recordsize_kb"]["enum"][:-1] == [2**n for n in range(15)]
    assert storage["gpfs_block_size_kb"]["enum"][:-1] == [2**n for n in range(4, 15)]
    assert storage["throughput_cap_mb_s"]["exclusiveMinimum"] is True
    server = schema["server"]["properties"]
    assert server["os_release_name"]["enum"] == ["2016", "2019", "2022", "2025", None]
    assert "aws" in server["virtual"]["enum"] and "lpar" in server["virtual"]["enum"]
    assert server["numa_nodes"]["minimum"] == 1
    assert schema["sas"]["properties"]["maintenance"]["enum"][:-1] == [f"M{n}" for n in range(10)]


def test_a_document_using_every_new_field_round_trips_through_validate_and_echo() -> None:
    doc = with_all()
    echo = rules.inventory_from(doc).to_dict()
    assert rules.inventory_from(echo).to_dict() == echo
    assert json.loads(json.dumps(echo)) == echo
    for name in SERVER_FIELDS[1:]:
        assert echo["server"][name] == doc["server"][name], name
    assert echo["sas"]["maintenance"] == "M8"
    for given, echoed in zip(doc["storage"], echo["storage"], strict=True):
        for name in STORAGE_FIELDS:
            if name in given:
                assert echoed[name] == given[name], name
    used = {name for entry in echo["storage"] for name in entry}
    assert set(STORAGE_FIELDS) <= used
    assert rules.inventory_from(windows_2022()).to_dict()["server"]["os_release_name"] == "2022"


def test_the_echo_leaves_out_a_new_field_not_given_or_null() -> None:
    doc = example("linux-rhel9-sas94")
    before = rules.inventory_from(doc).to_dict()
    nulls = copy.deepcopy(doc)
    for name in SERVER_FIELDS:
        nulls["server"][name] = None
    nulls["sas"]["maintenance"] = None
    for entry in nulls["storage"]:
        entry |= dict.fromkeys(STORAGE_FIELDS)
    assert rules.inventory_from(nulls).to_dict() == before
    assert not set(SERVER_FIELDS) & set(before["server"])
    assert not set(STORAGE_FIELDS) & set(before["storage"][0])


@pytest.mark.parametrize("stem", sorted(INVENTORIES))
def test_every_example_and_golden_inventory_is_still_valid_and_echoes_only_new_fields_given(
    stem: str,
) -> None:
    # The examples of today's estates give new fields; the others give none: either way the
    # echo carries exactly the new fields the document gives.
    doc = json.loads(INVENTORIES[stem].read_text("utf-8"))
    echo = rules.inventory_from(doc).to_dict()
    assert set(SERVER_FIELDS) & set(echo["server"]) == set(SERVER_FIELDS) & set(doc["server"])
    assert set(SAS_FIELDS) & set(echo["sas"]) == set(SAS_FIELDS) & set(doc["sas"])
    for entry, given in zip(echo["storage"], doc["storage"], strict=True):
        assert set(STORAGE_FIELDS) & set(entry) == set(STORAGE_FIELDS) & set(given)


def test_examples_folder_is_covered() -> None:
    assert {p.stem for p in EXAMPLES.glob("*.json")} <= set(INVENTORIES)


GOOD: list[tuple[str, Any]] = [
    ("server.numa_nodes", 1), ("server.numa_nodes", 8), ("server.virtual", "none"),
    ("server.virtual", "lpar"), ("server.virtual", "kvm"), ("server.virtual", "oci"),
    ("server.zfs_arc_max_gb", 0.5), ("sas.maintenance", "M0"), ("sas.maintenance", "M9"),
    ("storage[0].volume", "vg_sas/lv_work"), ("storage[0].volume", "dm-3"),
    ("storage[0].shared", "none"), ("storage[0].shared", "lustre"),
    ("storage[0].shared", "cifs"), ("storage[0].mount_options", "defaults"),
    ("storage[0].ephemeral", False), ("storage[0].throughput_cap_mb_s", 0.5),
    ("storage[0].measured_is_cluster_total", False),
    ("storage[1].nfs_rsize_kb", 64), ("storage[1].nfs_read_ahead_kb", 0),
    ("storage[1].nfs_nconnect", 16), ("storage[1].shared", "nfs"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value"), GOOD)
def test_each_new_field_takes_a_good_value(path: str, value: Any) -> None:
    echo = rules.inventory_from(put(linux_nfs(), path, value)).to_dict()
    part, key = path.rsplit(".", 1)
    target = echo[part[:-3]][int(part[-2])] if part.endswith("]") else echo[part]
    assert target[key] == value


BAD: list[tuple[str, Any, str]] = [
    ("server.numa_nodes", 0, "must be between 1 and 1024"),
    ("server.numa_nodes", "2", "must be an integer"),
    ("server.virtual", "bare", "must be one of 'none', 'lpar'"),
    ("server.zfs_arc_max_gb", 0, "must be greater than 0"),
    ("server.gpfs_pagepool_gb", -1, "must be greater than 0"),
    ("server.os_release_name", "2012 R2", "must be one of '2016', '2019'"),
    ("sas.maintenance", "9.4M8", "must be one of 'M0'"),
    ("sas.maintenance", 8, "must be one of 'M0'"),
    ("storage[0].volume", "/dev/md0", "must be a volume name such as 'md0'"),
    ("storage[0].volume", "-md0", "not starting with '-'"),
    ("storage[0].volume", "a/b/c", "at most one '/'"),
    ("storage[0].volume_kind", "raid", "must be one of 'md', 'lvm'"),
    ("storage[0].shared", "yes", "must be one of 'none', 'nfs'"),
    ("storage[0].mount_options", "rw; rm -rf /", "must be mount options"),
    ("storage[0].mount_options", "-o,rw", "must be mount options"),
    ("storage[0].mount_options", "rw,,hard", "must be mount options"),
    ("storage[0].ephemeral", "yes", "must be true or false"),
    ("storage[0].measured_is_cluster_total", 1, "must be true or false"),
    ("storage[0].throughput_cap_mb_s", 0, "must be greater than 0"),
    ("storage[0].throughput_cap_mb_s", -5, "must be greater than 0"),
    ("storage[0].zfs_recordsize_kb", 96, "must be a power of two from 1 to 16384"),
    ("storage[0].zfs_recordsize_kb", 32768, "must be between 1 and 16384"),
    ("storage[0].gpfs_block_size_kb", 8, "must be between 16 and 16384"),
    ("storage[1].nfs_rsize_kb", 0, "must be between 1 and 16384"),
    ("storage[1].nfs_wsize_kb", 1.5, "must be an integer"),
    ("storage[1].nfs_read_ahead_kb", -1, "must be between 0 and 1048576"),
    ("storage[1].nfs_nconnect", 17, "must be between 1 and 16"),
]


@pytest.mark.parametrize(("path", "value", "says"), BAD)
def test_each_new_field_refuses_a_bad_value_by_its_path(path: str, value: Any, says: str) -> None:
    found = problems(put(linux_nfs(), path, value))
    assert list(found) == [path]
    assert says in found[path]


def test_the_type_hints_name_the_same_choices_as_the_contract() -> None:
    from typing import get_args

    from rules import inventory as c
    from rules import kinds_estate as k

    assert get_args(c.Shared) == k.SHARED_CHOICE.options
    assert get_args(c.VolumeKind) == k.VOLUME_KIND_CHOICE.options
    assert get_args(c.Virtual) == k.VIRTUAL_CHOICE.options
    assert get_args(c.WindowsRelease) == k.WINDOWS_RELEASE_CHOICE.options
    assert get_args(c.Maintenance) == k.MAINTENANCE_CHOICE.options
