"""Folding a rule's findings that differ only in their storage entry (folding.py), the
storage grouped by layout (storage.py) and a generated file shown in blocks."""

from __future__ import annotations

from typing import Any

from advisor.reports import folding
from advisor.reports.content import CODE_BLOCK_LINES, code_blocks
from advisor.reports.folding import ENTRY_MARK, FOLD_AT, MOUNT_MARK, Entries, Entry, mask
from advisor.reports.storage import STORAGE_ROWS, layouts, storage_context


def storage(count: int, **same: Any) -> list[dict[str, Any]]:
    return [
        {"name": f"lv{i}", "mount": f"/fs{i}", "role": "work", "raid": "5", "disks": 4,
         "size_gb": 100, "media": "hdd", "filesystem": "jfs2", **same}
        for i in range(count)
    ]  # fmt: skip


def raid5(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "rule": "work.raid5", "severity": "low", "sources": ["raid-small-write"],
        "message": f"WORK storage {s['name']} ({s['mount']}) is RAID 5.", "action": "Measure.",
    }  # fmt: skip


def test_the_entry_is_marked_only_as_a_whole_name_or_mount() -> None:
    lv1 = Entry("lv1", "/fs1")
    assert mask("lv1's disks; lv10 and /fs1/sub, /fs10; /fs1.", lv1) == (
        f"{ENTRY_MARK}'s disks; lv10 and /fs1/sub, /fs10; {MOUNT_MARK}."
    )
    entries = Entries(storage(12))
    assert entries.subject(["lv10 before lv1"]) == Entry("lv10", "/fs10")
    assert entries.subject(["names no entry: lv99"]) is None


def test_a_name_two_entries_share_is_nobodys() -> None:
    twins = [*storage(1), {**storage(1)[0], "mount": "/other"}]
    entries = Entries(twins)
    assert entries.subject(["lslv -l lv0"]) is None
    assert entries.subject(["mounted on /other"]) == Entry("lv0", "/other")


def test_findings_alike_but_for_their_entry_fold_from_fold_at() -> None:
    few, many = storage(FOLD_AT - 1), storage(FOLD_AT)
    shown = folding.fold_warnings([raid5(s) for s in few], Entries(few))
    assert [w["entries"] for w in shown] == [None] * len(few)
    other = {"rule": "cpu.x", "severity": "high", "sources": [], "message": "CPU", "action": ""}
    shown = folding.fold_warnings([other, *(raid5(s) for s in many), other], Entries(many))
    assert [w["entries"] is None for w in shown] == [True, False, True]
    folded = shown[1]
    assert folded["message"] == f"WORK storage {ENTRY_MARK} ({MOUNT_MARK}) is RAID 5."
    assert folded["entries"] == [Entry(s["name"], s["mount"]) for s in many]
    assert folded["anchor"] == "warning-1"
    assert folding.folded_count(shown) == folding.Folded(findings=FOLD_AT, sets=1)


def test_findings_that_differ_beyond_their_entry_stay_apart() -> None:
    many = storage(2 * FOLD_AT)
    found = [raid5(s) for s in many]
    for w in found[::2]:
        w["severity"] = "medium"
    shown = folding.fold_warnings(found, Entries(many))
    assert [len(w["entries"]) for w in shown] == [FOLD_AT, FOLD_AT]
    assert {w["severity"] for w in shown} == {"low", "medium"}


def test_the_current_table_shows_one_line_per_folded_set_changes_first() -> None:
    many = storage(FOLD_AT)
    checks = [
        {"rule": "aix.max_transfer", "target": "aix_tuning.sh", "setting": "check:lslv -l",
         "value": f"lslv -l {s['name']}", "kind": "check", "sources": [], "rationale": ""}
        for s in many
    ]  # fmt: skip
    change = {"rule": "cpu.c", "target": "sasv9.cfg", "setting": "CPUCOUNT", "value": "4",
              "kind": "change", "sources": [], "rationale": ""}  # fmt: skip
    lines = folding.current_shown(folding.fold_recs([*checks, change], Entries(many)))
    assert [(line.row.setting, line.entries) for line in lines] == [
        ("CPUCOUNT", 0),
        (f"lslv -l {ENTRY_MARK}", FOLD_AT),
    ]
    assert lines[1].anchor == "rec-1"


def test_storage_beyond_the_table_is_grouped_by_layout_listing_every_entry() -> None:
    assert storage_context(storage(STORAGE_ROWS))["storage_layouts"] is None
    entries = storage(STORAGE_ROWS + 1)
    entries[-1] = {**entries[-1], "raid": "10", "size_gb": 7.5}
    entries[0] = {**entries[0], "size_gb": 50}
    found = storage_context(entries)["storage_layouts"]
    assert [len(g.entries) for g in found] == [STORAGE_ROWS, 1]
    assert found[0].each is None and found[0].total == f"{50 + 100 * (STORAGE_ROWS - 1):,} GB"
    assert found[0].listed.startswith("lv0 (/fs0, 50 GB), lv1 (/fs1, 100 GB)")
    assert found[1].each == "7.5 GB" and found[1].listed == f"lv{STORAGE_ROWS} (/fs{STORAGE_ROWS})"
    assert layouts(storage(3, adapters=["fscsi0"]))[0].adapters == "fscsi0"


def test_a_generated_file_is_shown_whole_in_blocks() -> None:
    text = "\n".join(f"line {i}" for i in range(2 * CODE_BLOCK_LINES + 3)) + "\n"
    blocks = code_blocks(text)
    assert len(blocks) == 3 and "\n".join(blocks) == text
