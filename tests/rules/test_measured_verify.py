"""rules.measured_verify: verify's measured throughput before → after, matched by mount
point, each cell's figure with its verdict in words, and a change of method (another tool,
or a read that may have been the page cache's) said; the records the API and
`rules verify --json` give."""

from __future__ import annotations

import copy
from typing import Any

from rules.measured import CACHE_WORDS
from rules.measured_verify import before_after, measured_list
from tests.conftest import example

Doc = dict[str, Any]
CORES = 16  # linux-rhel9-sas94's cores in use: the divisor


def stored(**work: Any) -> Doc:
    doc = copy.deepcopy(example("linux-rhel9-sas94"))
    doc["storage"][0] |= {f"measured_{k}": v for k, v in work.items()}
    return doc


def reading(mount: str = "/saswork/", **fields: Any) -> Doc:
    return {"storage": [{"name": "w", "mount": mount,
                         **{f"measured_{k}": v for k, v in fields.items()}}]}  # fmt: skip


def test_each_cell_holds_its_figure_and_verdict_in_words_without_stray_punctuation() -> None:
    found = before_after(
        stored(read_mb_s=2400.0, write_mb_s=95.0 * CORES, by="dd"),
        reading(read_mb_s=2000.0, write_mb_s=2000.0, by="dd"),
    )
    assert found is not None and found.unmatched == []
    (row,) = found.rows
    assert row.mount == "/saswork" and not row.method_changed and row.change == ""
    cells = {s.label: (s.before_text, s.after_text) for s in row.steps}
    assert cells["write"] == (
        "95 MB/s per core (1520 MB/s), short",
        "125 MB/s per core (2000 MB/s), in band",
    )
    assert cells["read"][0] == "150 MB/s per core (2400 MB/s), in band"
    for text in (t for pair in cells.values() for t in pair):
        assert not text.rstrip().endswith((",", ";", ":")), text


def test_a_change_of_method_is_said() -> None:
    found = before_after(
        stored(read_mb_s=256000.0, write_mb_s=1500.0, read_cached=True, by="dd"),
        reading(read_mb_s=1800.0, write_mb_s=1500.0, by="dd --direct"),
    )
    assert found is not None
    (row,) = found.rows
    assert row.method_changed
    assert row.change == "before: dd, read may be the page cache; after: dd --direct"
    read = next(s for s in row.steps if s.label == "read")
    assert read.before_text == f"16000 MB/s per core (256000 MB/s), {CACHE_WORDS}"
    # The same tool, the read no longer cached: still a change of method.
    again = before_after(
        stored(read_mb_s=256000.0, write_mb_s=1500.0, read_cached=True, by="dd"),
        reading(read_mb_s=1800.0, write_mb_s=1500.0, by="dd"),
    )
    assert again is not None and again.rows[0].change == (
        "before: dd, read may be the page cache; after: dd"
    )


def test_a_file_system_not_measured_before_shows_not_measured_and_no_change() -> None:
    found = before_after(stored(), reading(mb_s=1200.0, by="fio"))
    assert found is not None
    (row,) = found.rows
    assert [(s.label, s.before_text) for s in row.steps] == [("lower", "not measured")]
    assert not row.method_changed


def test_the_records_the_api_and_the_command_line_give() -> None:
    newer = reading(read_mb_s=2400.0, write_mb_s=1400.0, by="fio", at="2026-11-20")
    newer["storage"].append({"name": "x", "mount": "/elsewhere", "measured_mb_s": 10.0})
    records = measured_list(stored(mb_s=120.0 * CORES, by="dd", at="2026-11-01"), newer)
    assert [r["direction"] for r in records] == ["read", "write", "lower"]
    write = records[1]
    assert write["mount"] == "/saswork" and write["cores"] == CORES
    assert write["before"] is None
    assert write["after"] == {"mb_s": 1400.0, "per_core": 87.5, "verdict": "short",
                              "words": "short"}  # fmt: skip
    lower = records[2]
    assert lower["before"]["verdict"] == "in band" and lower["after"] is None
    assert lower["before_tool"] == "dd" and lower["before_date"] == "2026-11-01"
    assert lower["after_tool"] == "fio" and lower["after_date"] == "2026-11-20"
    assert lower["method_changed"] is True
    assert lower["method_change"] == "before: dd; after: fio"


def test_nothing_measured_gives_no_comparison() -> None:
    assert before_after(stored(), {"storage": [{"mount": "/saswork"}]}) is None
    assert before_after(stored(), "not a reading") is None
    assert measured_list(None, reading(mb_s=10.0)) == []
