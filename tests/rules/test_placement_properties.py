"""Metamorphic properties of the placement warnings (issue 27, item 3), over generated
mount points, roles and orders:

1. a dedicated WORK file system (disks of its own) renamed to any mount point that is not
   one of the OS's own and not inside another listed file system is never warned of;
2. WORK moved onto a data or SPD Server file system (the same volume, or a directory
   inside its mount) always is, by one placement rule;
3. the order of the storage entries never changes the warnings.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.catalog.placement_system import SYSTEM_MOUNTS
from tests.conftest import example

Doc = dict[str, Any]
PLACEMENT = (
    "placement.system_file_system",
    "placement.scratch_with_data",
    "placement.work_in_data",
    "work.placement",
)
DATA_ROLES = ("data", "spds_data", "spds_index", "spds_meta", "spds_work")
PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEGMENT = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
MOUNTS = st.lists(SEGMENT, min_size=1, max_size=3).map(lambda parts: "/" + "/".join(parts))


def fs(name: str, mount: str, role: str, devices: list[str] | None = None) -> Doc:
    entry = {"name": name, "mount": mount, "role": role, "raid": "0", "disks": 2,
             "size_gb": 500, "media": "ssd", "filesystem": "xfs"}  # fmt: skip
    return entry | ({"devices": devices} if devices else {})


def base(work_mount: str) -> Doc:
    doc = example("linux-rhel9-sas94")
    doc["sas"]["install_path"] = "/opt/sas/SASHome"
    doc["storage"] = [
        fs("root", "/", "other", ["sda"]),
        fs("opt", "/opt", "other", ["sda"]),
        fs("work", work_mount, "work", ["nvme0n1"]),
        fs("data", "/sasdata", "data", ["sdb"]),
        fs("spds", "/spds01", "spds_data", ["sdc"]),
    ]
    return doc


def placement_warnings(doc: Doc) -> list[dict[str, Any]]:
    return [w for w in rules.advise(doc)["warnings"] if w["rule"] in PLACEMENT]


def nested(mount: str, outer: str) -> bool:
    return mount == outer or mount.startswith(outer + "/")


@PROPS
@given(MOUNTS)
def test_a_dedicated_work_file_system_anywhere_of_its_own_is_never_warned(mount: str) -> None:
    listed = ("/opt", "/sasdata", "/spds01")
    if mount in SYSTEM_MOUNTS or any(nested(mount, o) for o in listed):
        return
    assert placement_warnings(base(mount)) == []


@PROPS
@given(st.sampled_from(DATA_ROLES), SEGMENT, st.booleans(), st.sampled_from(["aix", "linux"]))
def test_work_moved_onto_a_data_file_system_is_always_warned(
    role: str, folder: str, same_volume: bool, os: str
) -> None:
    doc = base("/saswork")
    if os == "aix":
        doc["server"] |= {"os": "aix", "os_version": "7.3"}
        doc["server"].pop("distribution", None)
        doc["server"].pop("kernel", None)
        for s in doc["storage"]:
            s["filesystem"] = "jfs2"
    work, target = doc["storage"][2], doc["storage"][3]
    target["role"] = role
    if same_volume:  # the same logical volume: one file system
        work["name"], work["devices"] = target["name"], target["devices"]
    else:  # a directory of the data file system, its devices not told apart
        work["mount"] = f"{target['mount']}/{folder}"
        work.pop("devices")
    found = [w for w in placement_warnings(doc) if work["mount"] in w["message"]]
    assert len(found) == 1, found


@PROPS
@given(st.permutations(range(7)), st.sampled_from(["/var", "/saswork", "/sasdata/work"]))
def test_the_order_of_the_storage_entries_never_changes_the_warnings(
    order: list[int], work_mount: str
) -> None:
    doc = base(work_mount)
    doc["storage"][2].pop("devices")
    doc["storage"] += [fs("util", "/opt/util", "utilloc", ["sda"]),
                       fs("root2", "/spds01/tmp", "work")]  # fmt: skip
    shuffled = {**doc, "storage": [doc["storage"][i] for i in order]}

    def seen(d: Doc) -> Counter[tuple[str, str, str, str]]:
        return Counter((w["rule"], w["severity"], w["message"], w["action"])
                       for w in placement_warnings(d))  # fmt: skip

    assert seen(shuffled) == seen(doc)
    assert seen(doc)  # the case is a risky one: the property is not vacuous
