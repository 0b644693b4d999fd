"""The PDF as a reader sees it: its text (pdftotext) and its pages as PNG (pdftoppm).

Pages go to test-artifacts/reports/ so a person can look at them; the tests check that the
chart colours and table header shading are really on the pages that should hold them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from PIL import Image

from advisor.assessments.services import assessment_create
from advisor.core import words
from advisor.core.results import result_of
from advisor.models import Assessment, Report
from advisor.reports import svg
from advisor.reports.services import report_build
from rules.sources import PAPERS
from tests.conftest import ROOT
from tests.reports.conftest import twenty_luns

ARTIFACTS = ROOT / "test-artifacts" / "reports"
TABLE_HEADER = (0xEE, 0xF2, 0xF7)
DPI = 60

pytestmark = pytest.mark.slow  # every test here builds a PDF


def require_poppler() -> None:
    if shutil.which("pdftotext") and shutil.which("pdftoppm"):
        return
    if os.environ.get("CI"):
        pytest.fail("poppler-utils (pdftotext, pdftoppm) must be installed in CI")
    pytest.skip("poppler-utils is not installed")


def built_pdf(assessment: Assessment, name: str) -> Path:
    report = Report.objects.create(assessment=assessment)
    done = report_build(report_id=report.pk)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.pdf"
    path.write_bytes(bytes(done.pdf))
    return path


def pdf_text(path: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run(
        ["pdftotext", "-layout", *pages, str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def render_pages(path: Path) -> list[Path]:
    prefix = ARTIFACTS / path.stem
    for old in ARTIFACTS.glob(f"{path.stem}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", str(path), str(prefix)], check=True)
    return sorted(ARTIFACTS.glob(f"{path.stem}-*.png"))


def colour_count(png: Path, rgb: tuple[int, int, int]) -> int:
    with Image.open(png) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(n for n, c in colours if all(abs(a - b) <= 6 for a, b in zip(c, rgb, strict=True)))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def page_with(path: Path, pages: list[Path], heading: str) -> Path:
    for number, png in enumerate(pages, start=1):
        if heading in pdf_text(path, number):
            return png
    raise AssertionError(f"no page holds {heading!r}")


def test_pdf_text_holds_host_values_and_paper_ids(assessment: Assessment) -> None:
    require_poppler()
    text = pdf_text(built_pdf(assessment, "lemans"))
    cpucount = result_of(assessment).value_of("CPUCOUNT")
    memsize = result_of(assessment).value_of("MEMSIZE")
    assert cpucount and memsize, "the rules must set CPUCOUNT and MEMSIZE for lemans"
    assert "lemans" in text and "Acme Analytics" in text
    assert f"CPUCOUNT = {cpucount}" in text and f"MEMSIZE = {memsize}" in text
    cited = {s for r in assessment.result["recommendations"] for s in r["sources"]}
    for paper in sorted(cited & set(PAPERS)):  # cited as people cite them
        assert words.short_name(paper) in text
    assert "Bartucca 2005" in text and "Chew 2002" in text


def test_pages_show_charts_and_tables(assessment: Assessment) -> None:
    require_poppler()
    path = built_pdf(assessment, "lemans")
    pages = render_pages(path)
    assert len(pages) >= 5
    chart_page = page_with(path, pages, "Memory budget")
    for colour in (svg.BLUE, svg.ROLE_COLOURS["work"], svg.GREEN):
        assert colour_count(chart_page, hex_rgb(colour)) > 50, colour
    assert colour_count(page_with(path, pages, "Storage ("), TABLE_HEADER) > 500


def test_twenty_lun_report_lists_every_lun(user: User, prime: dict[str, Any]) -> None:
    require_poppler()
    created, _ = assessment_create(user=user, document=twenty_luns(prime))
    path = built_pdf(created, "twenty-luns")
    text = pdf_text(path)
    assert "Storage (20 entries)" in text
    assert all(f"/spds/lun{i:02d}" in text for i in range(len(prime["storage"]), 20))
    pages = render_pages(path)
    chart_page = page_with(path, pages, "Data paths and their sizes")
    assert colour_count(chart_page, hex_rgb(svg.ROLE_COLOURS["spds_data"])) > 50
