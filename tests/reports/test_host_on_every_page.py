"""The client's PDF names the server on every page, the cover included, so a page
printed or forwarded alone still says which server it is about; and a consultant's notes
appear as they were typed, characters and line breaks kept."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from advisor.models import Assessment, Report
from advisor.reports.services import report_build
from tests.reports.test_pdf import ARTIFACTS, pdf_text, require_poppler

NOTES = 'Größere WORK-Platte zuerst: 2 × 1,6 TB NVMe & "noatime".\nThen re-run iotest.'


def _pages(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    return int(next(line.split()[1] for line in info.stdout.splitlines()
                    if line.startswith("Pages:")))  # fmt: skip


@pytest.mark.slow  # builds a PDF
def test_every_page_names_the_host_and_notes_stay_as_typed(assessment: Assessment) -> None:
    require_poppler()
    report = Report.objects.create(
        assessment=assessment, client_name="Globex", consultant_notes=NOTES, include_scripts=True
    )
    done = report_build(report_id=report.pk)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "host-on-every-page.pdf"
    path.write_bytes(bytes(done.pdf))
    host = assessment.hostname
    count = _pages(path)
    missing = [n for n in range(1, count + 1) if host not in pdf_text(path, n)]
    assert count >= 6 and not missing, f"{host!r} missing on pages {missing} of {count}"
    text = " ".join(pdf_text(path).split())
    assert " ".join(NOTES.split()) in text
