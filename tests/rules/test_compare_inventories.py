"""Two inventories compared as an admin reads them: storage matched by mount point, a
mount only one side has added or removed, values without JSON quoting, an absent value
`not given` (a difference, never a red one), equal values not marked."""

from __future__ import annotations

import copy
from typing import Any

from rules.compare_inventories import NOT_GIVEN, Comparison, FieldRow, compare, shown
from rules.result_records import ResultDocument, ResultRecommendation
from tests.rules.conftest import lemans

EMPTY = ResultDocument()


def rows(cmp: Comparison, title: str) -> dict[str, FieldRow]:
    (group,) = [g for g in cmp.groups if g.title == title]
    return {r.label: r for r in group.rows}


def test_storage_in_another_order_gives_no_difference() -> None:
    a = lemans()
    b = copy.deepcopy(a)
    b["storage"].reverse()
    assert len(a["storage"]) > 1 and a["storage"][0]["mount"] != b["storage"][0]["mount"]
    cmp = compare(a, b, EMPTY, EMPTY)
    assert {m.change for m in cmp.storage} == {"same"}
    assert [m.mount for m in cmp.storage] == sorted(s["mount"] for s in a["storage"])


def test_a_changed_mount_is_compared_with_itself_only() -> None:
    a = lemans()
    b = copy.deepcopy(a)
    b["storage"].reverse()
    mount = b["storage"][0]["mount"]
    b["storage"][0]["disks"] += 2
    changed = [m for m in compare(a, b, EMPTY, EMPTY).storage if m.change != "same"]
    assert [m.mount for m in changed] == [mount]
    (row,) = changed[0].rows
    assert row.label == "Disks" and row.differs and int(row.b or 0) == int(row.a or 0) + 2


def test_a_mount_on_one_side_only_is_added_or_removed() -> None:
    a = lemans()
    b = copy.deepcopy(a)
    gone = b["storage"].pop()
    extra = {**gone, "mount": "/sasnew", "name": "newlv"}
    b["storage"].append(extra)
    by_mount = {m.mount: m for m in compare(a, b, EMPTY, EMPTY).storage}
    assert by_mount[gone["mount"]].change == "removed"
    assert by_mount["/sasnew"].change == "added"
    assert {r.label: r.b for r in by_mount["/sasnew"].rows}["Name"] == "newlv"
    assert all(
        m.change == "same" for k, m in by_mount.items() if k not in (gone["mount"], "/sasnew")
    )


def test_values_read_as_an_admin_writes_them() -> None:
    assert shown("7.2") == "7.2" and shown(True) == "yes" and shown(False) == "no"
    assert shown(["fscsi0", "fscsi1"]) == "fscsi0, fscsi1" and shown(16.0) == "16"
    assert shown(None) == NOT_GIVEN == "not given" and shown(2.5) == "2.5"
    a = lemans()
    server = rows(compare(a, a, EMPTY, EMPTY), "Server")
    assert server["Host name"].a == a["server"]["hostname"]
    assert not any('"' in (r.a or "") for r in server.values())


def test_absent_on_one_side_is_not_given_and_equal_is_not_marked() -> None:
    a = lemans()
    b = copy.deepcopy(a)
    a["server"].pop("cores", None)
    b["server"]["cores"] = 4
    server = rows(compare(a, b, EMPTY, EMPTY), "Server")
    assert server["Physical cores"] == FieldRow("Physical cores", None, "4")
    assert server["Physical cores"].differs
    assert not server["Host name"].differs and not server["Logical CPUs"].differs
    assert sum(r.differs for r in server.values()) == 1


def current(sysctl: dict[str, str]) -> dict[str, Any]:
    doc = lemans()
    doc["current"] = {"linux_sysctl": sysctl, "linux_thp": "never"}
    return doc


def test_current_settings_are_counted_and_only_differences_listed() -> None:
    a = current({"vm.swappiness": "60", "kernel.shmmax": "1024", "vm.dirty_ratio": "20"})
    b = current({"vm.swappiness": "10", "kernel.shmmax": "1024"})
    summary = compare(a, b, EMPTY, EMPTY).current
    assert (summary.read_a, summary.read_b, summary.differ) == (4, 3, 2)
    assert [(r.label, r.a, r.b) for r in summary.rows] == [
        ("Linux sysctl: vm.dirty_ratio", "20", None),
        ("Linux sysctl: vm.swappiness", "60", "10"),
    ]


def rec(setting: str, value: str) -> ResultRecommendation:
    return ResultRecommendation("memory.memsize", "sasv9_local.cfg", setting, value, "why")


def test_settings_that_differ_first_and_equal_ones_counted() -> None:
    a = ResultDocument(recommendations=(rec("MEMSIZE", "8G"), rec("THREADS", ""), rec("OLD", "1")))
    b = ResultDocument(recommendations=(rec("MEMSIZE", "16G"), rec("THREADS", ""), rec("NEW", "2")))
    cmp = compare(lemans(), lemans(), a, b)
    assert [(s.setting, s.a, s.b, s.change) for s in cmp.differ] == [
        ("MEMSIZE", "8G", "16G", "changed"),
        ("NEW", None, "2", "added"),
        ("OLD", "1", None, "removed"),
    ]
    assert [(s.setting, s.a) for s in cmp.equal] == [("THREADS", "on")]
