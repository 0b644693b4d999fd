"""The report a consultant hands to a client: cover, contents, scope and disclaimer, the
action plan in order, notes, sources once, and the scripts appendix only when asked.

The PDF is read back as text (pdftotext) as a client would read it; pages go to
test-artifacts/reports/ for a person to look at.
"""

from __future__ import annotations

import re

import pytest
from django.core.files.base import ContentFile

from advisor.models import Assessment, Report
from advisor.reports.content import report_context
from advisor.reports.front_matter import PUBLIC_URLS
from advisor.reports.services import report_build
from tests.reports.test_pdf import ARTIFACTS, pdf_text, render_pages, require_poppler

PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cf00000301010018dd8db0000000"
    "0049454e44ae426082"
)
NOTES = "Run the changes on the test LPAR first.\n\nThen <b>measure</b> the nightly ETL."


def _plan_lines(text: str) -> list[str]:
    """The action plan's numbered steps as pdftotext lays them out: the list after the
    next steps (back up … roll back) that open the chapter."""
    start = text.index("In priority order", text.index("Action plan\n"))
    section = text[start : text.index("Executive summary\n", start)]
    return [m.group(1) for m in re.finditer(r"^\s*\d+\.\s+(.*)$", section, re.M)]


def _report(assessment: Assessment, **options: object) -> Report:
    return Report.objects.create(assessment=assessment, **options)


def test_the_plan_puts_the_largest_measured_cut_first(assessment: Assessment) -> None:
    plan = report_context(assessment)["plan"]
    titles = [step.title for step in plan]
    # lemans: BUFSIZE 256K (−25.8 %) then WORK (xu, 2.8× → 64 %)? The figures decide.
    gains = [float(m.group(1)) for s in plan if (m := re.search(r"up to (\d+) %", s.why))]
    assert gains == sorted(gains, reverse=True) and len(gains) >= 4
    assert titles[0].startswith(("Set ", "Use ", "Check "))
    assert "Set CPUCOUNT to 8 in sasv9_append.cfg." in titles
    assert any(t.startswith("Apply the other ") for t in titles)


def test_sources_are_listed_once_with_links_only_where_public(assessment: Assessment) -> None:
    ctx = report_context(assessment)
    ids = [c.id for c in ctx["sources"]]
    assert len(ids) == len(set(ids))
    links = {c.id: c.url for c in ctx["sources"] if c.url}
    assert links == {k: v for k, v in PUBLIC_URLS.items() if k in ids}
    assert "pohl2007" in links


@pytest.mark.slow  # builds a PDF
def test_pdf_holds_cover_contents_disclaimer_plan_and_no_scripts_when_unticked(
    assessment: Assessment,
) -> None:
    require_poppler()
    organisation = assessment.organisation
    organisation.logo.save("logo.png", ContentFile(PNG_1PX), save=True)
    report = _report(
        assessment, client_name="Globex Insurance", consultant_name="Dana Scully",
        consultant_notes=NOTES, include_scripts=False,
    )  # fmt: skip
    done = report_build(report_id=report.pk)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "client-report.pdf"
    path.write_bytes(bytes(done.pdf))
    text = pdf_text(path)
    cover = pdf_text(path, 1)
    assert "Globex Insurance" in cover and "Dana Scully, Acme Analytics" in cover
    assert re.search(r"Scope and disclaimer\s*\.[ .]*\d+", text), "contents with page numbers"
    assert "Disclaimer." in text and "not a promise" in text
    # Notes are plain text: shown as typed, never read as markup.
    assert "Then <b>measure</b> the nightly ETL." in text and "&lt;b&gt;measure" in done.html
    plan = _plan_lines(text)
    expected = [s.title for s in report_context(assessment, done)["plan"]]
    assert len(plan) == len(expected)
    assert [p.split()[:3] for p in plan] == [e.split()[:3] for e in expected]
    assert "Appendix: generated files" not in text and "#!/bin/ksh" not in done.html
    assert 'src="data:image/png;base64,' in done.html
    assert len(render_pages(path)) >= 6


@pytest.mark.slow  # builds a PDF
def test_the_appendix_is_there_when_asked(assessment: Assessment) -> None:
    done = report_build(report_id=_report(assessment, include_scripts=True).pk)
    assert "Appendix: generated files" in done.html
    assert "Acme Analytics" in done.html  # the client defaults to the organisation
    assert "Consultant notes" not in done.html


def test_the_capacity_chart_marks_the_servers_sessions(assessment: Assessment) -> None:
    sessions = int(assessment.inventory["workload"]["concurrent_sessions"])
    svg = str(report_context(assessment)["charts"]["capacity"])
    assert f"data-sessions='{sessions}'" in svg and f"this server: {sessions} session" in svg
