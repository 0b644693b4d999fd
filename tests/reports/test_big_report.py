"""A report for a big server (512 storage entries, the contract's maximum): every storage
entry and every finding is in it, the repeated ones folded (folding.py) and the storage
grouped by layout (storage.py), and the PDF a reader gets holds every entry.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User

import rules
from advisor.assessments.services import assessment_create, assessment_from_result
from advisor.core import words
from advisor.models import Assessment, Organisation
from advisor.reports import charts, folding
from advisor.reports.content import report_context
from advisor.reports.services import render_report_html
from tests.conftest import example
from tests.reports.conftest import many_luns, twenty_luns
from tests.reports.test_pdf import built_pdf, pdf_text, require_poppler

BIG = 512


def in_memory(document: dict[str, Any]) -> Assessment:
    result = rules.advise_inventory(rules.inventory_from(document))
    return assessment_from_result(result, organisation=Organisation(name="Big Org"))


def every_role(count: int) -> dict[str, Any]:
    """The SPD Server example grown to `count` entries over every role and four adapters,
    the sizes all different."""
    roles = ("data", "work", "utilloc", "spds_data", "spds_index", "spds_meta", "spds_work")
    base = example("prime-spds-aix")["storage"][0]
    storage = [
        {**base, "name": f"lv{i}", "mount": f"/fs{i}", "role": roles[i % len(roles)],
         "adapters": [f"fscsi{i % 4}"], "size_gb": 100 + i}
        for i in range(count)
    ]  # fmt: skip
    return {**example("prime-spds-aix"), "storage": storage}


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def said(text: str, word: str) -> bool:
    """`word` stands in `text` as a whole name or path, not inside a longer one."""
    return re.search(rf"(?<![\w/.-]){re.escape(word)}(?![\w/-])", text) is not None


def unfolded(item: dict[str, Any], entry: folding.Entry, fields: tuple[str, ...]) -> tuple:
    """A folded finding's fields for one of its entries: the markers replaced."""
    return tuple(
        None
        if item.get(f) is None
        else str(item[f])
        .replace(folding.ENTRY_MARK, entry.name)
        .replace(folding.MOUNT_MARK, entry.mount)
        for f in fields
    )


WORDED = ("rationale", "evidence", "effect", "message", "action")


def in_words(found: list[dict[str, Any]], mounts: list[str]) -> list[dict[str, Any]]:
    """The findings' text as the report says it (`words.plain`: no line references or
    contract paths; the rules' own text stays in recommendations.json)."""
    return [
        {k: words.plain(v, mounts) if k in WORDED and isinstance(v, str) else v
         for k, v in f.items()}
        for f in found
    ]  # fmt: skip


def assert_every_finding_shown(
    found: list[dict[str, Any]], shown: list[dict[str, Any]], fields: tuple[str, ...]
) -> None:
    """Each finding is shown as it is, or folded: one folded item lists its entry and
    reads, with the entry put back, exactly as the finding."""
    expected = sorted(
        (tuple(None if f.get(k) is None else str(f[k]) for k in fields) for f in found),
        key=repr,
    )
    seen = []
    for item in shown:
        if item["entries"]:
            seen += [unfolded(item, e, fields) for e in item["entries"]]
        else:
            seen.append(tuple(None if item.get(k) is None else str(item[k]) for k in fields))
    assert sorted(seen, key=repr) == expected


@pytest.mark.parametrize(
    "document",
    [every_role(BIG), many_luns(example("lemans-aix53-etl"), BIG)],
    ids=["every-role", "lemans-work-and-data"],
)
def test_a_big_report_holds_every_storage_entry_and_finding(document: dict[str, Any]) -> None:
    assessment = in_memory(document)
    ctx = report_context(assessment)
    page = render_report_html(assessment)
    text = text_of(page)
    assert f"Storage ({BIG} entries)" in text and "Nothing is left out" in text
    for entry in document["storage"]:
        assert said(text, entry["name"]) and said(text, entry["mount"]), entry["name"]
    listed = [e for layout in ctx["storage_layouts"] for e in layout.entries]
    assert sorted(e["mount"] for e in listed) == sorted(s["mount"] for s in document["storage"])
    result, mounts = assessment.result, [s["mount"] for s in document["storage"]]
    assert_every_finding_shown(
        in_words(result["warnings"], mounts), ctx["shown_warnings"], folding.WARNING_TEXT
    )
    assert_every_finding_shown(
        in_words(result["recommendations"], mounts),
        ctx["shown_recommendations"],
        folding.REC_TEXT,
    )
    # Folding is what keeps the report readable: hundreds of findings become a few dozen.
    assert len(ctx["shown_recommendations"]) < 80 and len(ctx["shown_warnings"]) < 40
    for item in [*ctx["shown_recommendations"], *ctx["shown_warnings"]]:
        if item["entries"]:
            assert f'id="{item["anchor"]}"' in page
            assert f"For each of these {len(item['entries'])} storage entries" in text


def test_the_folded_report_counts_every_finding() -> None:
    assessment = in_memory(many_luns(example("lemans-aix53-etl"), BIG))
    ctx = report_context(assessment)
    page = render_report_html(assessment)
    recs, warnings = assessment.result["recommendations"], assessment.result["warnings"]
    assert f"{len(warnings)} warning" in text_of(page)
    assert f"Warnings ({len(warnings)})" in page
    shown_lines = sum(line.entries or 1 for line in ctx["current_shown"])
    assert shown_lines == len(ctx["current_rows"]) == len(recs)
    folded = ctx["folded_recs"]
    assert folded.findings == sum(
        len(r["entries"]) for r in ctx["shown_recommendations"] if r["entries"]
    )
    assert f"{folded.findings} recommendations differ only in the storage entry" in page
    # The action plan names each repeated step once, not once per LUN.
    titles = [step.title for step in ctx["plan"]]
    assert len(titles) == len(set(titles)) and len(titles) < 20


def test_a_big_server_has_its_data_paths_charted_by_role() -> None:
    svg = charts.data_paths(every_role(BIG)["storage"])
    assert svg.count("<rect") == 7  # one bar per role
    assert "512 storage entries, one bar per role" in svg
    assert "spds_data: 73 entries" in svg


def test_a_twenty_lun_report_keeps_a_row_per_entry() -> None:
    assessment = in_memory(twenty_luns(example("prime-spds-aix")))
    ctx = report_context(assessment)
    assert ctx["storage_layouts"] is None and not ctx["paths_by_role"]
    page = render_report_html(assessment)
    rows = re.findall(r"<tr><td>lun\d\d</td><td>/spds/lun\d\d</td>", page)
    assert len(rows) == 20 - len(example("prime-spds-aix")["storage"])


@pytest.mark.slow  # builds a PDF of ~180 pages
def test_the_pdf_of_a_big_report_holds_every_storage_entry(user: User) -> None:
    require_poppler()
    document = many_luns(example("lemans-aix53-etl"), BIG)
    created, _ = assessment_create(user=user, document=document)
    text = pdf_text(built_pdf(created, "big-512"))
    assert f"Storage ({BIG} entries)" in text
    for entry in document["storage"]:
        assert said(text, entry["name"]) and said(text, entry["mount"]), entry["name"]
    assert "/sas/lun511dio" in text  # the last of the direct I/O mounts' long value
