"""A fleet at estate scale: groups named by the settings that differ, the fleet by finding
(page and CSV, numbered from 1, safe in a spreadsheet), server rows with OS, CPUs and RAM,
and pages whose queries do not grow with the fleet."""

from __future__ import annotations

import copy
import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from advisor.fleets import findings, presenting, services
from advisor.fleets.reading import read_fleet
from advisor.models import Fleet, FleetItem, FleetSummary
from tests.fleets.conftest import fleet, ndjson

Capture = Callable[..., Any]
pytestmark = pytest.mark.django_db


def upload(user: User, documents: list[Any], capture: Capture) -> Fleet:
    entries = read_fleet(ndjson(documents), "application/x-ndjson")
    with capture(execute=True):
        created, _ = services.fleet_create(user=user, entries=entries)
    created.refresh_from_db()
    assert created.status == "done"
    return created


@pytest.fixture
def estate(user: User, django_capture_on_commit_callbacks: Capture) -> Fleet:
    return upload(user, fleet(8), django_capture_on_commit_callbacks)


def test_positions_are_kept_as_ranges_and_read_back() -> None:
    assert findings.ranges([8, 0, 1, 2, 3, 3, 10, 11]) == "0-3,8,10-11"
    assert findings.expand("0-3,8,10-11", 100) == [0, 1, 2, 3, 8, 10, 11]
    assert findings.expand("0-3,8", 3) == [0, 1, 2]
    assert findings.ranges([]) == "" and findings.expand("", 5) == []


def test_groups_are_named_by_the_settings_that_differ(estate: Fleet) -> None:
    groups = presenting.summary(estate)["groups"]
    assert len(groups) > 1 and sum(g["servers"] for g in groups) == 8
    for group in groups:
        assert 1 <= len(group["differs"]) <= 3
        named = ", ".join(f"{name} {value}" for name, value in group["differs"])
        n = group["servers"]
        assert group["label"] == f"{named} · {n} server{'s' if n != 1 else ''}"
    # Two groups never read alike: what differs between them is named.
    assert len({g["label"] for g in groups}) == len(groups)


def test_the_fleet_by_finding_counts_servers_and_links_each(
    estate: Fleet, client_in: Client
) -> None:
    stored = FleetSummary.objects.get(fleet=estate).data["findings"]
    assert stored and stored == findings.ordered(stored, "count")
    top = stored[0]
    page = client_in.get(f"/fleets/{estate.pk}/findings/")
    assert page.status_code == 200
    text = page.content.decode()
    rows = re.findall(r'<td data-label="#">(\d+)</td>', text)
    assert rows[0] == "1" and rows == [str(n) for n in range(1, len(stored) + 1)]
    assert f"all {top['count']} server" in text
    # Each server it affects is linked to its assessment.
    items = FleetItem.objects.filter(
        fleet=estate, position__in=findings.expand(top["positions"], 8)
    )
    for item in items[: top["count"]]:
        assert f'href="/assessments/{item.assessment_id}/"' in text
    listed = client_in.get(f"/fleets/{estate.pk}/", {"finding": top["key"]})
    assert f"{top['count']} server" in listed.content.decode()
    assert len(re.findall(r"<tr><td data-label=\"#\">", listed.content.decode())) == top["count"]


def test_findings_sort_by_severity_and_refuse_an_unknown_sort(
    estate: Fleet, client_in: Client
) -> None:
    page = client_in.get(f"/fleets/{estate.pk}/findings/", {"sort": "severity"})
    badges = re.findall(
        r'<span class="badge (high|medium|low|status change)">', page.content.decode()
    )
    order = {"high": 0, "medium": 1, "low": 2, "status change": 3}
    assert badges == sorted(badges, key=order.__getitem__)
    bad = client_in.get(f"/fleets/{estate.pk}/findings/", {"sort": "'; drop"})
    assert (
        bad.status_code == 400
        and "sort: choose one of count, severity, finding" in bad.content.decode()
    )
    assert client_in.get(f"/fleets/{estate.pk}/findings.csv", {"sort": "x"}).status_code == 400


def test_the_findings_csv_is_numbered_from_1_and_safe_in_a_spreadsheet(
    estate: Fleet, client_in: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    stored = FleetSummary.objects.get(fleet=estate).data["findings"]
    hostile = [f | {"title": lead + "cmd|' /C calc'!A0", "action": lead + "x"}
               for f, lead in zip(stored, ("=", "+", "-", "@"), strict=False)]  # fmt: skip
    monkeypatch.setattr(presenting, "fleet_findings", lambda fleet: hostile + stored[4:])
    response = client_in.get(f"/fleets/{estate.pk}/findings.csv")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == ["#", "finding", "kind", "severity", "servers", "rule", "action", "hosts"]
    assert [r[0] for r in rows[1:]] == [str(n) for n in range(1, len(stored) + 1)]
    cells = [cell for row in rows for cell in row]
    assert not any(cell[:1] in ("=", "+", "-", "@") for cell in cells)
    assert sum(cell.startswith(("'=", "'+", "'-", "'@")) for cell in cells) == 8
    assert rows[1][4] == str(stored[0]["count"]) and "sas0000" in rows[1][7]


def test_server_rows_show_os_cpus_and_ram_numbered_from_1(estate: Fleet, client_in: Client) -> None:
    text = client_in.get(f"/fleets/{estate.pk}/").content.decode()
    first = text[text.index('<tr><td data-label="#">') :]
    first = first[: first.index("</tr>")]
    assert '<td data-label="#">1</td>' in first and "sas0000" in first
    assert re.search(r'data-label="OS">AIX 5\.3<', first), first
    assert re.search(r'data-label="CPUs">\d+<', first) and re.search(
        r'data-label="RAM">[\d.]+ GB<', first
    )
    assert "Windows Server" in text or "Windows 10.0" in text
    assert "RHEL 9" in text


def test_fleet_pages_of_another_organisation_are_absent(
    estate: Fleet, outsider_client: Client
) -> None:
    assert outsider_client.get(f"/fleets/{estate.pk}/findings/").status_code == 404
    assert outsider_client.get(f"/fleets/{estate.pk}/findings.csv").status_code == 404


def test_a_fleet_finished_before_findings_were_stored_reads_them_from_its_results(
    estate: Fleet, client_in: Client
) -> None:
    summary = FleetSummary.objects.get(fleet=estate)
    expected = summary.data.pop("findings")
    summary.save()
    estate = Fleet.objects.get(pk=estate.pk)
    assert presenting.fleet_findings(estate) == expected
    assert client_in.get(f"/fleets/{estate.pk}/findings/").status_code == 200


@pytest.mark.slow
def test_pages_of_a_large_fleet_read_a_bounded_number_of_queries(
    user: User, client_in: Client, django_capture_on_commit_callbacks: Capture,
    django_assert_max_num_queries: Any,
) -> None:  # fmt: skip
    documents = [copy.deepcopy(d) for d in fleet(2000)]
    run = upload(user, documents, django_capture_on_commit_callbacks)
    top = FleetSummary.objects.get(fleet=run).data["findings"][0]
    base = f"/fleets/{run.pk}/"
    for url in (base, f"{base}?page=2", f"{base}findings/", f"{base}?finding={top['key']}"):
        with django_assert_max_num_queries(12):
            assert client_in.get(url).status_code == 200
    with django_assert_max_num_queries(12):
        response = client_in.get(f"/fleets/{run.pk}/findings.csv")
        body = b"".join(response.streaming_content).decode()
    assert len(body.splitlines()) == 1 + len(FleetSummary.objects.get(fleet=run).data["findings"])


def test_a_running_fleets_findings_wait_for_it(estate: Fleet, client_in: Client) -> None:
    Fleet.objects.filter(pk=estate.pk).update(status=Fleet.Status.RUNNING)
    page = client_in.get(f"/fleets/{estate.pk}/findings/")
    assert (
        page.status_code == 200 and "listed once every server is assessed" in page.content.decode()
    )
    assert client_in.get(f"/fleets/{estate.pk}/findings.csv").status_code == 409


def test_the_fleet_report_names_groups_and_lists_the_findings(estate: Fleet) -> None:
    from django.template.loader import render_to_string

    from advisor.fleets.reporting import report_context

    context = report_context(Fleet.objects.select_related("organisation").get(pk=estate.pk))
    html = render_to_string("fleets/report.html", context)
    assert "Findings across the fleet" in html and context["findings"]
    assert f"<td>{context['findings'][0]['count']}</td>" in html
    assert "What sets the group apart" in html and "<code>CPUCOUNT " in html
    assert all(item.group_name and item.os_name for item in context["top"])


def test_the_api_and_the_csv_give_each_servers_os_cpus_and_ram(
    estate: Fleet, client_in: Client, api: Any
) -> None:
    rows = api.get(f"/api/v1/fleets/{estate.pk}/servers/").json()["results"]
    first = rows[0]
    assert (first["host"], first["os"]) == ("sas0000", "AIX 5.3")
    assert isinstance(first["cpus"], int) and isinstance(first["ram_gb"], float)
    assert {row["os"].split()[0] for row in rows} >= {"AIX", "RHEL", "Windows"}
    response = client_in.get(f"/fleets/{estate.pk}/servers.csv")
    table = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert table[0][-3:] == ["os", "cpus", "ram_gb"]
    assert table[1][2] == "sas0000" and table[1][-3:] == ["AIX 5.3", str(first["cpus"]),
                                                           str(first["ram_gb"])]  # fmt: skip


def test_the_fleets_list_links_each_fleet_by_finding_and_as_assessments(
    estate: Fleet, client_in: Client
) -> None:
    html = client_in.get("/fleets/").content.decode()
    assert f'href="/fleets/{estate.pk}/findings/"' in html
    assert f'href="/?fleet={estate.pk}"' in html


def test_a_finding_the_fleet_does_not_have_lists_no_server_and_says_so(
    estate: Fleet, client_in: Client
) -> None:
    for key in ("w:no.such.rule", "x" * 5000, "s:'><script>"):
        page = client_in.get(f"/fleets/{estate.pk}/", {"finding": key})
        text = page.content.decode()
        assert (
            page.status_code == 200 and "0 servers with a finding this fleet does not have" in text
        )
        assert "'><script>" not in text  # the key goes back escaped
        assert '<tr><td data-label="#">' not in text
