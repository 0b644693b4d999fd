"""The result page leads: the largest measured effects and the warnings by severity first,
changes apart from read-only checks, per-device repeats shown once; the list's warnings
badge names the most severe; the assessment's name can be edited, with an audit event."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from advisor.assessments import presenting
from advisor.assessments.services import assessment_create
from advisor.audit.models import AuditEvent
from advisor.models import Assessment
from rules.model import Warning
from rules.result_records import ResultDocument, ResultRecommendation
from tests.conftest import example

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache() -> Any:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def smt8(user: User) -> Assessment:
    """13 logical volumes: aix.max_transfer checks each; warnings of every severity."""
    assessment, _ = assessment_create(user=user, document=example("power-smt8-spds53"))
    return assessment


def page_of(client: Client, assessment: Assessment) -> str:
    response = client.get(reverse("web:assessment", args=[assessment.pk]))
    assert response.status_code == 200
    return str(response.content.decode())


def lead_of(page: str) -> str:
    return page.split('<section class="card lead"', 1)[1].split("</section>", 1)[0]


def test_the_page_opens_with_the_largest_measured_effects(
    client_in: Client, smt8: Assessment
) -> None:
    page = page_of(client_in, smt8)
    lead = lead_of(page)
    ranked = re.findall(r'<li><a href="#group-[^"]+"><code>([^<]+)</code></a>', lead)
    # A flag as an admin says it: "THREADS on".
    assert ranked == ["WORK=/saswork", "BUFSIZE=256K", "THREADS on", "CPUCOUNT=2"]
    assert "−60.2 % run time" in lead
    assert page.index('class="card lead"') < page.index('id="warnings-heading"')
    assert page.index('id="warnings-heading"') < page.index('id="current-h"')


def test_warnings_are_counted_and_grouped_by_severity(client_in: Client, smt8: Assessment) -> None:
    page = page_of(client_in, smt8)
    lead = lead_of(page)
    assert '<span class="badge high">High</span> 1 warning</a>' in lead
    # Medium: three since rules 2026.11.9 (WORK short of twice the 300 GB table's sort among them).
    assert '<span class="badge medium">Medium</span> 3 warnings</a>' in lead
    assert '<span class="badge low">Low</span> 3 warnings</a>' in lead
    heads = re.findall(r'<h3 id="warnings-heading-(\w+)"', page)
    assert heads == ["high", "medium", "low"]
    # spds.layout warns twice at low: one entry, the other behind "1 more like it".
    assert "1 more like it (spds.layout)" in page


def test_checks_are_apart_from_changes_and_repeats_shown_once(
    client_in: Client, smt8: Assessment
) -> None:
    page = page_of(client_in, smt8)
    group = page.split('id="group-aix-tuning-sh"', 1)[1].split("</section>", 1)[0]
    changes, checks = group.split('<h3 class="part-head">Settings', 1)[1].split(
        "Read-only checks", 1
    )
    assert "j2_minPageReadAhead=" in changes and "lslv -l" not in changes
    assert checks.count('<span class="badge repeats">× 13 devices</span>') == 1
    assert checks.count("<details class=\"setting check\">") == len(
        {(r["rule"], r["setting"]) for r in smt8.result["recommendations"]
         if r["target"] == "aix_tuning.sh" and r["kind"] == "check"}
    )  # fmt: skip
    # expands to the list of every device's command
    assert len(re.findall(r"<li><code>lslv -l [\w.]+</code></li>", checks)) == 13
    assert '<span class="measures">max_transfer and queue_depth of the disks</span>' in checks
    assert '<span class="measures">max_xfer_size</span>' in checks


def test_every_check_names_what_it_measures() -> None:
    result = example_result("power-smt8-spds53")
    checks = [s for g in presenting.groups(result) for s in g.checks]
    assert checks and all(s["measures"] for s in checks)
    named = {s["rule"] + " " + s["setting"]: s["measures"] for s in checks}
    assert named["aix.ioo check:ioo -o j2_maxPageReadAhead"] == "j2_maxPageReadAhead"
    assert named["aix.vmo check:vmstat -v"].startswith("Keep the file cache")
    assert named["monitoring.thresholds run queue per CPU"] == "run queue per CPU"


def example_result(name: str) -> ResultDocument:
    import rules

    return rules.advise_inventory(rules.inventory_from(example(name))).document()


def test_collapsed_keeps_every_value_in_order() -> None:
    memsize = ResultRecommendation("q", "sasv9_local.cfg", "MEMSIZE", "8G", kind="change")
    recs = [
        ResultRecommendation("r", "aix_tuning.sh", "check:lslv -l", f"lslv -l lv{i}",
                             kind="check") for i in range(12)
    ] + [memsize]  # fmt: skip
    shown = presenting.collapsed(recs)
    assert [s["setting"] for s in shown] == ["check:lslv -l", "MEMSIZE"]
    assert shown[0]["repeats"] == [f"lslv -l lv{i}" for i in range(12)]
    assert shown[1]["repeats"] == ["8G"]


def test_collapsed_warnings_count_each_one() -> None:
    high = Warning("spds.data_paths", "too few", (), severity="high")
    result = ResultDocument(warnings=(
        *[Warning("work.raid5", f"lv{i} is RAID 5", (), severity="low") for i in range(12)],
        high,
    ))  # fmt: skip
    shown = presenting.warnings(result)
    assert [w["rule"] for w in shown] == ["spds.data_paths", "work.raid5"]
    assert shown.total == 13 and shown[1]["count"] == 12 and len(shown[1]["others"]) == 11
    assert shown.counts == [("high", 1), ("low", 12)]
    assert [(sev, n) for sev, n, _ in shown.by_severity] == [("high", 1), ("low", 12)]


def test_the_list_badge_names_the_most_severe_warning(
    client_in: Client, smt8: Assessment, stored: Assessment
) -> None:
    html = client_in.get(reverse("web:list")).content.decode()
    assert (
        '<span class="badge high">7<span class="visually-hidden"> warnings, the most severe'
        "</span> · high</span>"
    ) in html
    assert '<span class="badge low">1<span class="visually-hidden">' in html  # lemans: low


def test_a_big_file_is_cut_on_the_page_and_whole_in_the_download() -> None:
    group = presenting.Group("x.sh", "x.sh", "".join(f"line {i}\n" for i in range(1000)))
    assert group.cut and group.line_count == 1000
    assert group.shown_text.splitlines()[-1] == f"line {presenting.MAX_SHOWN_LINES - 1}"


# The name ---------------------------------------------------------------------------


def rename(client: Client, assessment: Assessment, name: str, **extra: Any) -> Any:
    return client.post(reverse("web:rename", args=[assessment.pk]), {"name": name}, **extra)


def test_renaming_without_javascript_redirects_and_is_audited(
    client_in: Client, stored: Assessment
) -> None:
    old = stored.name
    response = rename(client_in, stored, "  Month-end ETL box  ")
    assert response.status_code == 302
    assert response["Location"] == reverse("web:assessment", args=[stored.pk])
    page = page_of(client_in, stored)
    assert "<h1>Month-end ETL box</h1>" in page
    assert "<title>Month-end ETL box · SAS Tuning Advisor</title>" in page
    assert "Name saved." in page
    event = AuditEvent.objects.get(action="assessment.rename")
    assert event.changes == {"name": [old, "Month-end ETL box"]} and event.actor_name == "alice"


def test_renaming_over_htmx_returns_the_title_only(client_in: Client, stored: Assessment) -> None:
    fragment = rename(client_in, stored, "New label", **HTMX).content.decode()
    assert "<html" not in fragment
    assert fragment.startswith("<title>New label · SAS Tuning Advisor</title>")
    assert '<div id="assessment-title"' in fragment and "<h1>New label</h1>" in fragment
    assert 'role="status">Name saved.' in fragment


@pytest.mark.parametrize(
    ("name", "message"),
    [("   ", "Assessment name: write a name; it cannot be empty."),
     ("x" * 201, "Assessment name: at most 200 characters (this one has 201).")],
)  # fmt: skip
def test_a_bad_name_is_refused_with_a_message_naming_the_field(
    client_in: Client, stored: Assessment, name: str, message: str
) -> None:
    plain = rename(client_in, stored, name)
    htmx = rename(client_in, stored, name, **HTMX)
    assert plain.status_code == htmx.status_code == 400
    assert message in plain.content.decode() and "<html" in plain.content.decode()
    assert message in htmx.content.decode() and "<html" not in htmx.content.decode()
    assert 'aria-invalid="true"' in htmx.content.decode()
    stored.refresh_from_db()
    assert stored.name == example("lemans-aix53-etl")["name"]
    assert not AuditEvent.objects.filter(action="assessment.rename").exists()


def test_the_cached_page_never_shows_the_old_name(client_in: Client, stored: Assessment) -> None:
    old = stored.name
    assert f"<h1>{old}</h1>" in page_of(client_in, stored)  # the result part is now cached
    rename(client_in, stored, "Renamed box")
    page = page_of(client_in, stored)
    assert "<h1>Renamed box</h1>" in page and "<title>Renamed box · " in page
    assert f"<h1>{old}</h1>" not in page and f"<title>{old}" not in page
    # the generated files still echo the inventory they were made from, as downloaded
    assert page.count(old) == page.count(f"Inventory: {old}")


def test_an_outsider_cannot_rename(outsider_client: Client, stored: Assessment) -> None:
    assert rename(outsider_client, stored, "mine now").status_code == 404
    assert rename(outsider_client, stored, "mine now", **HTMX).status_code == 404
    stored.refresh_from_db()
    assert stored.name != "mine now"


def test_renaming_needs_a_post(client_in: Client, stored: Assessment) -> None:
    assert client_in.get(reverse("web:rename", args=[stored.pk])).status_code == 405
