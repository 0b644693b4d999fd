"""Every summary count equals its table: the result page (lead, filter, per-file lines,
contents, each file's section), the report (HTML and PDF) and recommendations.json.

The expected counts are taken from recommendations.json's own statuses here, not from the
code that renders the summaries, so a summary that counts differently fails. Three servers:
lemans read in part (change, keep and unknown all occur), a RHEL 9 box read in part
(linux_tuning.sh and ansible_linux.yml apply tuned.conf's settings) and an AIX box with
SPD Server not read at all (every setting unknown; ansible_aix.yml applies aix_tuning.sh).
"""

from __future__ import annotations

import html
import re
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

import rules
from advisor.assessments.services import assessment_create
from advisor.models import Assessment, Report
from advisor.reports.services import render_report_html, report_build
from tests.conftest import example
from tests.reports.test_pdf import ARTIFACTS, pdf_text, require_poppler

pytestmark = pytest.mark.django_db
# Written here, not imported: the files whose lines are another file's settings.
APPLIES = {"linux_tuning.sh": "tuned.conf", "ansible_linux.yml": "tuned.conf",
           "ansible_aix.yml": "aix_tuning.sh"}  # fmt: skip
PARTIAL = {
    "lemans-aix53-etl": {
        "sas_options": {"MEMSIZE": "8G", "CPUCOUNT": "4"},
        "aix_ioo": {"j2_minPageReadAhead": "2", "sync_release_ilock": "1"},
    },
    "linux-rhel9-sas94": {
        "sas_options": {"MEMSIZE": "2G", "CPUCOUNT": "8"},
        "linux_sysctl": {"vm.swappiness": "10", "vm.dirty_ratio": "40"},
        "source": "collector bundle",
    },
    "power-smt8-spds53": None,
}


def document(name: str) -> dict[str, Any]:
    current = PARTIAL[name]
    return example(name) | ({} if current is None else {"current": current})


def counted(recs: list[dict[str, Any]]) -> Counter[str]:
    """By status; a check or advice counted by its kind."""
    return Counter(r["kind"] if r["status"] == "check" else r["status"] for r in recs)


def only(c: Counter[str], *statuses: str) -> Counter[str]:
    """The counts of these statuses, those at zero left out (as a Counter of rows has them)."""
    return Counter({k: c[k] for k in statuses if c[k]})


def phrase(c: Counter[str]) -> str:
    settings = c["change"] + c["unknown"] + c["keep"]
    return f"{c['change']} change, {c['unknown']} not read, {c['keep']} keep of {settings}"


def own(c: Counter[str]) -> int:
    """How many settings a file writes itself."""
    return c["change"] + c["unknown"] + c["keep"]


def applies(targets: dict[str, Counter[str]], name: str) -> str:
    """What a file that applies another's settings says first."""
    return f"applies the {own(targets[APPLIES[name]])} settings of {APPLIES[name]}"


def own_phrase(name: str, mine: Counter[str]) -> str:
    """A file's own counts, as its summary line says them."""
    return f"its own: {phrase(mine)}" if name in APPLIES else phrase(mine)


def text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def part(page: str, start: str, end: str) -> str:
    found = page.split(start, 1)[1]
    return found.split(end, 1)[0]


@pytest.fixture(params=list(PARTIAL))
def case(request: pytest.FixtureRequest, user: User) -> tuple[Assessment, dict[str, Any]]:
    result = rules.advise(document(request.param))
    assessment, _ = assessment_create(user=user, document=document(request.param))
    return assessment, result


def by_target(result: dict[str, Any]) -> dict[str, Counter[str]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for rec in result["recommendations"]:
        out.setdefault(rec["target"], []).append(rec)
    return {target: counted(recs) for target, recs in out.items()}


def test_recommendations_json_says_unknown_exactly_where_nothing_was_read(
    case: tuple[Assessment, dict[str, Any]],
) -> None:
    assessment, result = case
    assert assessment.result["recommendations"] == result["recommendations"]
    for rec in result["recommendations"]:
        if rec["kind"] == "change":
            assert (rec["status"] == "unknown") == (rec["current"] is None), rec["setting"]
    if assessment.inventory.get("current"):
        assert {"change", "keep", "unknown"} <= set(counted(result["recommendations"]))


def test_the_page_counts_equal_its_table(
    client_in: Client, case: tuple[Assessment, dict[str, Any]]
) -> None:
    assessment, result = case
    total = counted(result["recommendations"])
    settings = total["change"] + total["unknown"] + total["keep"]
    page = client_in.get(reverse("web:assessment", args=[assessment.pk])).content.decode()
    table = part(page, '<table class="list current-table cards">', "</table>")
    rows = Counter(re.findall(r'<tr class="status-(\w+)">', table))
    assert rows == only(total, "change", "unknown", "keep")
    assert f"All settings ({settings})" in page
    assert f"To set or change ({total['change'] + total['unknown']})" in page
    filter_line = text(part(page, 'aria-label="Which settings"', "</nav>"))
    assert filter_line.endswith(
        f"{total['change']} change · {total['unknown']} not read · {total['keep']} kept · "
        f"{total['check']} read-only checks and {total['advice']} pieces of advice, listed with "
        "their files below"
    )
    lead = text(part(page, "<h3>What the files do</h3>", "</p>"))
    assert lead.startswith(
        f"{settings} settings: {total['change']} change, {total['unknown']} not read "
        f"(the files set them), {total['keep']} already match; {total['check']} read-only"
    )
    filtered = client_in.get(reverse("web:assessment", args=[assessment.pk]), {"changes": "1"})
    pending = re.findall(r'<tr class="status-(\w+)">', filtered.content.decode())
    assert Counter(pending) == only(total, "change", "unknown")


def test_each_file_is_counted_alike_everywhere_on_the_page(
    client_in: Client, case: tuple[Assessment, dict[str, Any]]
) -> None:
    assessment, result = case
    targets = by_target(result)
    page = client_in.get(reverse("web:assessment", args=[assessment.pk])).content.decode()
    assert "0 of 0" not in page
    toc = part(page, '<nav class="toc" aria-label="Files">', "</nav>")
    for name in result["artifacts"]:
        mine, slug = targets.get(name, Counter()), re.sub(r"[^0-9A-Za-z]", "-", name)
        entry = text(part(toc, f'href="#group-{slug}">', "</li>"))
        section = part(page, f'id="group-{slug}"', "</section>")
        if name in APPLIES:
            said = applies(targets, name)
            assert said in entry and said in text(section).lower()
        if name not in APPLIES or own(mine):
            assert own_phrase(name, mine) in entry
            badge = f'Settings <span class="badge">{phrase(mine).rsplit(" ", 1)[1]}</span>'
            assert badge in section and phrase(mine) in text(section)
            shown = re.findall(r'<span class="badge status (\w+)">', section)
            assert Counter(shown) == only(mine, "change", "unknown", "keep")
        if mine["check"]:
            assert f"{mine['check']} check" in entry
            assert f'Read-only checks <span class="badge">{mine["check"]}</span>' in section
    if assessment.inventory.get("current"):
        pending = part(page, '<div class="pending">', "</div>")
        for line in re.findall(r"<li>(.*?)</li>", pending, re.S):
            name = re.search(r"<code>([^<]+)</code>", line).group(1)  # type: ignore[union-attr]
            mine = targets.get(name, Counter())
            if name in APPLIES:
                assert text(line).startswith(f"{name}: {applies(targets, name)}")
            else:
                assert text(line).startswith(f"{name}: {phrase(mine)}")
            if name not in APPLIES or own(mine):
                assert own_phrase(name, mine) in text(line)
                assert text(line).count("→") == mine["change"] + mine["unknown"]


def test_the_report_counts_equal_its_table(case: tuple[Assessment, dict[str, Any]]) -> None:
    assessment, result = case
    total, targets = counted(result["recommendations"]), by_target(result)
    report = render_report_html(assessment)
    chapter = part(report, '<section class="chapter" id="current">', "</section>")
    rows = Counter(re.findall(r'<tr class="status-(\w+)">', chapter))
    assert rows == Counter({k: v for k, v in total.items() if k != "advice"}) + Counter(
        check=total["advice"]
    )
    settings = total["change"] + total["unknown"] + total["keep"]
    said = text(chapter)
    if assessment.inventory.get("current"):
        assert f"of {settings} settings, {total['change']} change" in said
        assert f"{total['unknown']} were not read" in said
        assert f"{total['keep']} already match" in said
        assert f"{total['check']} are checks" in said
        for name in result["artifacts"]:
            mine = targets.get(name, Counter())
            if name in APPLIES:
                assert f"{name}: {applies(targets, name)}" in said
            else:
                assert f"{name}: {phrase(mine)}" in said
            if own(mine):
                assert own_phrase(name, mine) in said
    else:
        assert f"each of the {settings} settings is listed as not read" in said
        assert rows["unknown"] == settings


@pytest.mark.slow  # builds a PDF
def test_the_pdf_says_the_same_counts(user: User) -> None:
    require_poppler()
    assessment, _ = assessment_create(user=user, document=document("linux-rhel9-sas94"))
    targets = by_target(assessment.result)
    done = report_build(report_id=Report.objects.create(assessment=assessment).pk)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / "honest-counts.pdf"
    path.write_bytes(bytes(done.pdf))
    said = " ".join(pdf_text(path).split())
    for name in ("sasv9_local.cfg", "tuned.conf"):
        assert f"{name}: {phrase(targets[name])}" in said
    assert f"linux_tuning.sh: {applies(targets, 'linux_tuning.sh')}" in said
    if own(targets["linux_tuning.sh"]):
        assert own_phrase("linux_tuning.sh", targets["linux_tuning.sh"]) in said
    assert "0 of 0" not in said
