"""The collector's --measure result reaches storage[].measured_mb_s, with its provenance:
the collector is run on this machine with --measure and its bundle drafted."""

from __future__ import annotations

from pathlib import Path

from rules.parse import draft
from tests.collector.helpers import measured_bundle


def test_measure_on_this_machine_fills_measured_mb_s(tmp_path: Path) -> None:
    work = tmp_path / "saswork"
    result = draft(measured_bundle(tmp_path))
    storage = result.document["storage"]
    mounts = [str(e["mount"]) for e in storage]
    holder = max(
        (m for m in mounts if str(work) == m or str(work).startswith(m.rstrip("/") + "/")),
        key=len,
    )
    i = mounts.index(holder)
    rate = storage[i]["measured_mb_s"]
    assert isinstance(rate, float) and rate > 0
    where = result.provenance[f"storage[{i}].measured_mb_s"]
    assert where.command == f"sas-advisor-measure {work}"
    assert where.note.startswith(f"dd on {work} (")
    assert "over 2 streams of 64 KB blocks" in where.note
    assert "read " in where.note and "write " in where.note
    assert sum("measured_mb_s" in e for e in storage) == 1
    given = [storage[i].get(f"measured_{d}_mb_s") for d in ("read", "write")]
    assert rate == min(r for r in given if r is not None)
    # 16 MiB read back, far less than the RAM: the read may be the page cache's, so the
    # lower kept is the write's, and the read is flagged.
    assert storage[i]["measured_read_cached"] is True
    assert rate == storage[i]["measured_write_mb_s"]
    assert "the read may be the page cache's" in where.note
    assert (storage[i]["measured_by"], storage[i]["measured_streams"]) == ("dd", 2)
    assert storage[i]["measured_at"].endswith("Z")  # the collector's UTC stamp
