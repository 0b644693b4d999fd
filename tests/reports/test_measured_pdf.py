"""The PDF report draws measured storage throughput: the chart's figures and verdicts are in
the real WeasyPrint PDF as a reader extracts them (pdftotext). The measurement is a real one:
the collector run here with --measure (tests/web/measured_bundle.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from advisor.assessments.measured import directions
from rules.measured import CACHE_WORDS, bars
from rules.validate import parse_stored
from tests.reports.test_pdf import built_pdf, pdf_text, require_poppler
from tests.web.measured_bundle import measured_bundle, measured_document, saved

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def test_pdf_holds_the_measured_figures_and_verdicts(user: User, tmp_path: Path) -> None:
    require_poppler()
    document = measured_document(measured_bundle(tmp_path))
    assessment = saved(user, document)
    found = bars(parse_stored(document))
    assert found

    text = pdf_text(built_pdf(assessment, "measured"))

    assert "Measured storage throughput per core in use" in text
    chart = re.sub(r"\s+", " ", text.split("Measured storage throughput per core in use", 1)[1])
    chart = chart.split("Capacity curve", 1)[0]
    cores = {bar.cores for bar in found}
    assert f"({cores.pop()} cores: the divisor)" in chart
    for bar in found:
        # the chart's own line, then the table's cells of the same figures
        assert f"{bar.name} ({bar.mount})" in chart
        table = chart.split("Measured throughput per file system", 1)[1]
        for label, d in directions(bar):
            drawn = "not judged" if d.verdict == "may be cache" else d.words
            assert f"{d.per_core:g} MB/s per core · {drawn}" in chart
            for cell in (label if label != "lower" else "lower of read", f"{d.mb_s:g}",
                         f"{d.per_core:g}"):  # fmt: skip
                assert cell in table
            assert re.search(r"\b" + r"\s+".join(map(re.escape, d.words.split())), table)
    # The bundle's 16 MiB are read back from the page cache: not judged, in words.
    assert any(bar.read_cached for bar in found) and CACHE_WORDS in chart
    tools = {bar.tool for bar in found}
    assert all(f"measured by {t}" in chart for t in tools if t) or "tool not recorded" in chart


def test_a_200_axis_prints_its_labels_apart(user: User, tmp_path: Path) -> None:
    """Read and write near the band draw a 200 MB/s per core axis: its end's number and
    the unit are printed apart from the band's 150, never run together ("20015MB/s")."""
    require_poppler()
    document = measured_document(measured_bundle(tmp_path))
    entry = next(e for e in document["storage"] if "measured_mb_s" in e)
    cores = bars(parse_stored(document))[0].cores
    for key in ("measured_mb_s", "measured_read_cached"):
        entry.pop(key, None)
    entry |= {"measured_read_mb_s": 120.0 * cores, "measured_write_mb_s": 95.0 * cores}
    found = bars(parse_stored(document))
    assert max(d.per_core for bar in found for _, d in directions(bar)) == 120.0

    text = pdf_text(built_pdf(saved(user, document), "measured"))

    chart = text.split("Measured storage throughput per core in use", 1)[1]
    assert re.search(r"\b100\s+150\s+200\s+MB/s per core", chart), chart[:400]
    assert "20015" not in chart and "15020" not in chart
