"""Measured throughput judged read and write apart (throughput.estimate with
storage[].measured_read_mb_s / measured_write_mb_s) against SAS's need of 100 MB/s per core
in use; the contract's refusal of a measured_mb_s above the lower of the two; and
rules.measured.bars, the bars the result page, report and verify draw."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules.catalog.work import XU_SOLID_STATE, XU_STRIPING
from rules.derive.throughput import direction_rate, entry_rate, io_need
from rules.measured import CACHE_WORDS, bars, verdict
from rules.schema import inventory_schema
from tests.conftest import example
from tests.rules.conftest import recs

Doc = dict[str, Any]
RULE = "throughput.estimate"
# linux-rhel9-sas94: 16 cores in use, so 1600 MB/s needed for WORK (saswork, NVMe) and for
# data (sasdata, a SAN LUN); lemans-aix53-etl: 8 logical CPUs, 800 MB/s.
RHEL9_NEED = 1600


def measured(doc: Doc, i: int, **fields: Any) -> Doc:
    doc = copy.deepcopy(doc)
    doc["storage"][i] |= {f"measured_{k}": v for k, v in fields.items()}
    return doc


def rhel9(work: dict[str, Any], data: dict[str, Any] | None = None) -> Doc:
    doc = measured(example("linux-rhel9-sas94"), 0, **work)
    return measured(doc, 1, **data) if data else doc


def warned(doc: Doc) -> list[dict[str, Any]]:
    return [w for w in rules.advise(doc)["warnings"] if w["rule"] == RULE]


def texts(doc: Doc) -> str:
    result = rules.advise(doc)
    found = [w["message"] + " " + w["action"] for w in result["warnings"] if w["rule"] == RULE]
    return " ".join([*found, recs(result, RULE)["I/O throughput target"]["rationale"]])


def test_read_and_write_both_at_the_need_pass() -> None:
    doc = rhel9(
        {"read_mb_s": 2400, "write_mb_s": RHEL9_NEED}, {"read_mb_s": 1700, "write_mb_s": 1650}
    )
    assert warned(doc) == []
    rationale = texts(doc)
    assert "WORK on saswork (/saswork): read 2400 MB/s" in rationale
    assert "write 1600 MB/s (saswork measured write 1600 MB/s)" in rationale


def test_short_on_write_only_names_write_and_the_file_system_not_read() -> None:
    doc = rhel9({"read_mb_s": 3000, "write_mb_s": 900, "by": "fio-3.33", "streams": 16},
                {"read_mb_s": 2000, "write_mb_s": 2000})  # fmt: skip
    (warning,) = warned(doc)
    message = warning["message"]
    assert message.startswith("Measured WORK write throughput is short on saswork (/saswork)")
    assert "write 900 MB/s ÷ 16 cores in use = 56.2 MB/s per core" in message
    assert "100–150 MB/s per core in use" in message
    assert "read" not in message
    assert "fio-3.33" in message and "16 streams" in message
    assert "more LUNs in the stripe" in warning["action"]
    assert "dedicated adapter" in warning["action"]
    assert "xu" in warning["sources"]


def test_short_on_work_only_while_data_passes() -> None:
    doc = rhel9({"read_mb_s": 800, "write_mb_s": 600}, {"read_mb_s": 1800, "write_mb_s": 1700})
    (warning,) = warned(doc)
    assert "WORK read and write throughput is short" in warning["message"]
    assert "sasdata" not in warning["message"]
    assert "data on sasdata (/sasdata): read 1800 MB/s" in texts(doc)


def test_hdd_work_short_is_offered_solid_state_with_xus_ratios() -> None:
    doc = measured(example("lemans-aix53-etl"), 0, read_mb_s=120, write_mb_s=119)
    (warning, *_) = warned(doc)
    ratio = f"{XU_SOLID_STATE[0] / 100:.1f}–{XU_SOLID_STATE[1] / 100:.1f}×"
    assert f"WORK on solid state (xu Table 2: {ratio} one disk)" in warning["action"]
    assert f"{XU_STRIPING[0] / 100:.1f}–{XU_STRIPING[1] / 100:.1f}×" in warning["action"]


def test_a_measurement_replaces_the_estimate_and_its_spindle_assumption() -> None:
    doc = example("lemans-aix53-etl")
    for entry in doc["storage"]:
        entry["adapters"] = []  # local disks: estimated from their spindles
    assert "is a spindle the host drives directly" in texts(doc)
    doc = measured(measured(doc, 0, read_mb_s=117.9, write_mb_s=118.9), 1, write_mb_s=300)
    inv = rules.inventory_from(doc)
    assert {entry_rate(s).basis for s in inv.storage} == {"measured"}
    said = texts(doc)
    assert "spindle" not in said and "assumed" not in said
    assert "raid0lv01 measured write 118.9 MB/s" in said


def test_measured_mb_s_is_the_lower_of_read_and_write_when_absent() -> None:
    doc = rhel9({"read_mb_s": 2000, "write_mb_s": 1200})
    work = rules.inventory_from(doc).storage[0]
    assert work.measured_mb_s is None and work.measured_lower == 1200
    rate = entry_rate(work)
    assert (rate.mb_s, rate.basis) == (1200, "measured")
    assert rate.text == "saswork measured 1200 MB/s (the lower of read 2000 and write 1200)"
    assert entry_rate(rules.inventory_from(rhel9({"read_mb_s": 700})).storage[0]).mb_s == 700


def test_a_measured_mb_s_above_the_lower_direction_is_refused_by_its_path() -> None:
    doc = rhel9({"mb_s": 1300, "read_mb_s": 2000, "write_mb_s": 1200})
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    (problem,) = caught.value.problems
    assert problem.path == "storage[0].measured_mb_s"
    assert "storage[0].measured_write_mb_s (1200 MB/s)" in problem.message
    rules.inventory_from(rhel9({"mb_s": 1200, "read_mb_s": 2000, "write_mb_s": 1200}))


def test_a_tool_date_or_streams_without_a_rate_is_refused() -> None:
    doc = rhel9({"by": "dd", "at": "2026-11-27T17:44:12Z", "streams": 8})
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    paths = [p.path for p in caught.value.problems]
    assert paths == [f"storage[0].measured_{n}" for n in ("by", "at", "streams")]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("by", "dd; rm -rf /", "1-64 characters"),
        ("at", "x" * 65, "1-64 characters"),
        ("streams", 0, "between 1 and 4096"),
        ("read_mb_s", 0, "greater than 0"),
        ("write_mb_s", 1e7 + 1, "at most 1e+07"),
    ],
)
def test_each_measurement_field_refuses_a_bad_value(field: str, value: Any, says: str) -> None:
    doc = rhel9({"mb_s": 100, field: value})
    with pytest.raises(rules.InventoryError) as caught:
        rules.inventory_from(doc)
    (problem,) = caught.value.problems
    assert (problem.path, says in problem.message) == (f"storage[0].measured_{field}", True)


def shortfalls(doc: Doc) -> set[tuple[str, str]]:
    """Each (file-system group, direction) a throughput warning calls short."""
    found = set()
    for w in warned(doc):
        head = w["message"].split(" throughput ", 1)[0].split()
        group = next(word for word in head if word in ("WORK", "UTILLOC", "data", "Data"))
        flows = [f for f in ("read", "write") if f in head] or ["read", "write"]
        found |= {(group.lower(), flow) for flow in flows}
    return found


RATE = st.floats(1, 5000, allow_nan=False)
MEASUREMENT = st.fixed_dictionaries(
    {}, optional={"read_mb_s": RATE, "write_mb_s": RATE, "mb_s": RATE}
).filter(lambda m: "read_mb_s" in m or "write_mb_s" in m)


def scaled(fields: dict[str, float], k: float) -> dict[str, float]:
    return {name: rate * k for name, rate in fields.items()}


def consistent(fields: dict[str, float]) -> dict[str, float]:
    """measured_mb_s at most the lower of the directions given."""
    if "mb_s" in fields:
        fields = fields | {"mb_s": min(fields.values())}
    return fields


@settings(max_examples=40, deadline=None)
@given(
    stem=st.sampled_from(["linux-rhel9-sas94", "lemans-aix53-etl", "windows-sas94"]),
    work=MEASUREMENT,
    data=st.none() | MEASUREMENT,
    k=st.floats(1, 20),
)
def test_scaling_a_measurement_up_never_adds_a_warning_and_down_never_removes_one(
    stem: str, work: dict[str, float], data: dict[str, float] | None, k: float
) -> None:
    base = example(stem)
    last = len(base["storage"]) - 1

    def doc(factor: float) -> Doc:
        one = measured(base, 0, **consistent(scaled(work, factor)))
        return measured(one, last, **consistent(scaled(data, factor))) if data else one

    before, up, down = shortfalls(doc(1)), shortfalls(doc(k)), shortfalls(doc(1 / k))
    assert up <= before <= down


def test_verdict_at_the_band_edges() -> None:
    assert [verdict(x) for x in (99.9, 100, 150, 150.1)] == [
        "short", "in band", "in band", "above band",
    ]  # fmt: skip


def test_bars_draw_read_write_tool_and_date_per_core_in_use() -> None:
    doc = rhel9(
        {"read_mb_s": 150.1 * 16, "write_mb_s": 99.9 * 16, "by": "rhel_iotest.sh",
         "at": "Tue Jul 27 15:09:05 EDT 2021"},
        {"mb_s": 100 * 16},
    )  # fmt: skip
    inv = rules.inventory_from(doc)
    assert io_need(inv).busy == 16
    work, data = bars(inv)
    assert work.read and work.write
    assert (work.read.per_core, work.read.verdict) == (150.1, "above band")
    assert (work.write.per_core, work.write.verdict) == (99.9, "short")
    assert work.lower == work.write and work.cores == 16 and work.band == (100, 150)
    assert (work.tool, work.date) == ("rhel_iotest.sh", "Tue Jul 27 15:09:05 EDT 2021")
    assert (data.read, data.write, data.tool) == (None, None, None)
    assert (data.lower.per_core, data.lower.verdict) == (100, "in band")
    at_top = bars(rules.inventory_from(rhel9({"write_mb_s": 150 * 16})))
    assert [(b.name, b.lower.verdict, b.read) for b in at_top] == [("saswork", "in band", None)]


NEW = (
    "measured_read_mb_s", "measured_write_mb_s", "measured_by", "measured_at", "measured_streams",
    "measured_read_cached",
)  # fmt: skip


def test_the_new_fields_are_optional_listed_and_echoed_only_when_given() -> None:
    storage = inventory_schema()["properties"]["storage"]["items"]
    assert not set(NEW) & set(storage["required"])
    for name in NEW:
        field = storage["properties"][name]
        assert field["title"] and field["description"] and field["nullable"] is True, name
    plain = example("linux-rhel9-sas94")
    assert not set(NEW) & set(rules.inventory_from(plain).to_dict()["storage"][0])
    doc = rhel9({"read_mb_s": 2400, "write_mb_s": 1600.5, "by": "DiskSpd 2.2",
                 "at": "2026-11-27T17:44:12Z", "streams": 16, "read_cached": False})  # fmt: skip
    echo = rules.inventory_from(doc).to_dict()
    assert {k: echo["storage"][0][k] for k in NEW} == {k: doc["storage"][0][k] for k in NEW}
    assert rules.inventory_from(echo).to_dict() == echo


# A read-back served from the page cache: this machine's dd read 16,000 MB/s per core back.
CACHED_READ = 16000 * 16


def test_a_cached_read_with_a_good_write_claims_no_pass_for_the_read_and_no_shortfall() -> None:
    doc = rhel9({"read_mb_s": CACHED_READ, "write_mb_s": 2000, "read_cached": True},
                {"read_mb_s": 1700, "write_mb_s": 1650})  # fmt: skip
    assert warned(doc) == []
    said = texts(doc)
    assert f"read {CACHED_READ:g} MB/s (" not in said  # no read figure judged against the need
    assert (
        f"read not judged (saswork: its read {CACHED_READ:g} MB/s may be the page cache's" in said
    )
    assert "files totalling at least the RAM, or the collector's --measure with --direct" in said
    assert "write 2000 MB/s (saswork measured write 2000 MB/s)" in said
    work = rules.inventory_from(doc).storage[0]
    assert (entry_rate(work).mb_s, entry_rate(work).basis) == (2000, "measured")
    assert direction_rate(work, "read").mb_s is None
    assert "(the write: its read" in entry_rate(work).text


def test_a_cached_read_with_a_short_write_warns_of_the_write_only() -> None:
    doc = rhel9({"read_mb_s": CACHED_READ, "write_mb_s": 900, "read_cached": True, "by": "dd"},
                {"read_mb_s": 1700, "write_mb_s": 1650})  # fmt: skip
    assert shortfalls(doc) == {("work", "write")}
    (warning,) = warned(doc)
    assert "write 900 MB/s ÷ 16 cores in use = 56.2 MB/s per core" in warning["message"]
    assert "read" not in warning["message"]


def test_a_cached_read_alone_stands_for_no_measured_rate() -> None:
    alone = rules.inventory_from(rhel9({"read_mb_s": CACHED_READ, "read_cached": True}))
    assert alone.storage[0].measured_lower is None
    rate = entry_rate(alone.storage[0])
    assert rate.basis == "estimated" and "may be the page cache's" in rate.text
    # A lower rate equal to the cached read is that read; one below it is the write's.
    for low, lower in ((CACHED_READ, None), (500, 500)):
        doc = rhel9({"mb_s": low, "read_mb_s": CACHED_READ, "read_cached": True})
        assert rules.inventory_from(doc).storage[0].measured_lower == lower
    assert rules.inventory_from(rhel9({"read_mb_s": 700})).storage[0].measured_lower == 700


def test_on_windows_a_cached_read_is_measured_again_with_diskspd_or_sasiotest() -> None:
    doc = measured(example("windows-sas94"), 0, read_mb_s=CACHED_READ, write_mb_s=5000,
                   read_cached=True)  # fmt: skip
    assert "measure it with DiskSpd -Sh or sasiotest -sgio, or a file larger than the RAM" in (
        texts(doc)
    )


def test_the_cache_flag_without_a_read_is_refused_by_its_path() -> None:
    for flag in ({"write_mb_s": 900, "read_cached": True}, {"read_cached": False}):
        with pytest.raises(rules.InventoryError) as caught:
            rules.inventory_from(rhel9(flag))
        (problem,) = caught.value.problems
        assert problem.path == "storage[0].measured_read_cached"
        assert "storage[0].measured_read_mb_s" in problem.message


def test_a_cached_reads_bar_is_drawn_but_not_judged() -> None:
    inv = rules.inventory_from(rhel9({"read_mb_s": CACHED_READ, "write_mb_s": 900,
                                      "read_cached": True}))  # fmt: skip
    (work,) = bars(inv)
    assert work.read and work.read_cached
    assert (work.read.per_core, work.read.verdict, work.read.words) == (
        16000, "may be cache", CACHE_WORDS,
    )  # fmt: skip
    assert work.lower == work.write and work.lower.verdict == "short"
    (alone,) = bars(rules.inventory_from(rhel9({"read_mb_s": CACHED_READ, "read_cached": True})))
    assert alone.write is None and alone.lower == alone.read
    assert alone.lower.verdict == "may be cache"


def _with_utilloc(util: dict[str, Any]) -> Doc:
    """linux-rhel9-sas94 with a UTILLOC file system of its own on two NVMe devices, whose
    estimate (2 × 1000 MB/s) would cover the need were it summed with WORK's."""
    doc = copy.deepcopy(example("linux-rhel9-sas94"))
    doc["storage"].append({**doc["storage"][0], "name": "sasutil", "mount": "/sasutil",
                           "role": "utilloc"})  # fmt: skip
    return measured(doc, 2, **util)


def test_a_short_utilloc_is_warned_on_its_own_not_summed_with_work() -> None:
    doc = _with_utilloc({"read_mb_s": 5000, "write_mb_s": 1000})
    (warning,) = warned(doc)
    assert warning["message"].startswith(
        "Measured UTILLOC write throughput is short on sasutil (/sasutil)"
    )
    assert "UTILLOC on solid state" not in warning["action"]  # it is on NVMe already
    assert "saswork" not in warning["message"]


def test_one_direction_measured_leaves_the_other_unjudged_and_says_so() -> None:
    # Only the write was measured, at the need: the read is not taken to be the write.
    doc = rhel9({"write_mb_s": RHEL9_NEED}, {"read_mb_s": 1800, "write_mb_s": 1700})
    assert warned(doc) == []
    assert "read not judged (saswork: read not measured, only its write" in texts(doc)
    # A given measured_mb_s is the lower of both: it bounds the read too, so it is judged.
    bounded = rhel9({"write_mb_s": RHEL9_NEED, "mb_s": 900})
    assert "read not measured" not in texts(bounded)
    assert any("WORK read" in w["message"] for w in warned(bounded))
