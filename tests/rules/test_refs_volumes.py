"""A Windows volume recorded as ReFS gets ReFS advice, never a format to NTFS.

Sources: Microsoft, "Cluster size recommendations for ReFS and NTFS" (Storage at Microsoft
blog, 2017: ReFS offers 4K, its default, and 64K clusters; 64K suits large sequential I/O),
and the Format-Volume reference (-FileSystem ReFS -AllocationUnitSize 65536); both in
rules/sources.py as ms-cluster-size and ms-format-volume.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

import rules
from rules.inventory_fit import FS_LABELS
from rules.schema import inventory_schema
from tests.conftest import example

# A format or Format-Volume naming a file system: "/FS:NTFS", "-FileSystem ReFS".
FORMAT_TO = re.compile(r"(?:/FS:|-FileSystem\s+)([A-Za-z0-9]+)")
WINDOWS_FILESYSTEMS = ("ntfs", "refs", "gpfs", "nfs", "other")


def advice(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    done = rules.advise(doc)
    return {r["setting"]: r for r in done["recommendations"] if r["target"] == "system"}


def with_work_on(filesystem: str) -> dict[str, Any]:
    doc = example("windows-sas94")
    for entry in doc["storage"][:2]:  # D:\saswork (work), F:\sasutil (utilloc)
        entry["filesystem"] = filesystem
    return doc


def test_refs_volume_is_never_told_to_format_as_ntfs() -> None:
    """The finding: 'format X: /FS:NTFS /A:64K' for a volume recorded as ReFS. ReFS's own
    format option is 64K clusters (ms-cluster-size); Format-Volume keeps it ReFS."""
    found = advice(with_work_on("refs"))
    assert "NTFS allocation unit" not in found
    refs = found["ReFS allocation unit"]
    assert refs["value"] == "64 KB"
    text = refs["rationale"]
    assert "Format-Volume -DriveLetter X -FileSystem ReFS -AllocationUnitSize 65536" in text
    assert "fsutil fsinfo refsinfo X:" in text and "erases the volume" in text
    assert "NTFS" not in text
    assert set(refs["sources"]) >= {"ms-cluster-size", "ms-format-volume"}
    assert "D:\\saswork, F:\\sasutil" in text


@pytest.mark.parametrize("filesystem", WINDOWS_FILESYSTEMS)
def test_no_volume_is_told_to_format_as_another_type(filesystem: str) -> None:
    """Whatever the WORK volumes run, every format the advice names keeps that type."""
    doc = with_work_on(filesystem)
    for rec in advice(doc).values():
        for named in FORMAT_TO.findall(rec["rationale"]):
            assert named.lower() == filesystem, (filesystem, rec["setting"], named)


def test_mixed_volumes_each_get_their_own_file_systems_advice() -> None:
    doc = example("windows-sas94")
    doc["storage"][1]["filesystem"] = "refs"  # F:\sasutil on ReFS, D:\saswork stays NTFS
    found = advice(doc)
    assert "D:\\saswork" in found["NTFS allocation unit"]["rationale"]
    assert "F:\\sasutil" not in found["NTFS allocation unit"]["rationale"]
    assert "F:\\sasutil" in found["ReFS allocation unit"]["rationale"]
    assert found["antivirus exclusions"]["value"] == "D:\\saswork, F:\\sasutil"


def test_a_share_or_unknown_file_system_gets_a_check_not_a_format() -> None:
    doc = with_work_on("other")
    found = advice(doc)
    check = found["allocation unit check"]
    assert "never advises formatting a volume as another type" in check["rationale"]
    assert FORMAT_TO.findall(check["rationale"]) == []
    assert "NTFS allocation unit" not in found and "ReFS allocation unit" not in found


def test_refs_is_a_contract_value_the_schema_form_and_echo_carry() -> None:
    """Additive: schema_version stays 1; the JSON Schema, the form's labels and the echo
    follow from the declaration in rules.kinds."""
    storage = inventory_schema()["properties"]["storage"]["items"]["properties"]
    assert "refs" in storage["filesystem"]["enum"]
    assert FS_LABELS["refs"] == "ReFS"
    doc = with_work_on("refs")
    assert doc["schema_version"] == 1
    echoed = rules.advise(doc)["inventory"]["storage"][0]
    assert echoed["filesystem"] == "refs"


def test_refs_is_refused_off_windows() -> None:
    doc = example("linux-rhel9-sas94")
    doc["storage"][0]["filesystem"] = "refs"
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    (problem,) = caught.value.problems
    assert problem.path == "storage[0].filesystem"
    assert problem.message.startswith("'refs' does not run on Linux")
