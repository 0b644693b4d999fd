"""Every page: the owner sees it, an outsider gets 404, htmx gets only the fragment."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor.assessments.services import assessment_create
from advisor.models import Assessment
from advisor.reports.services import render_report_html
from tests.conftest import example

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


def test_pages_need_a_login(client: Client) -> None:
    response = client.get(reverse("web:list"))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_login_page_labels_its_fields(client: Client) -> None:
    html = client.get(reverse("login")).content.decode()
    assert '<label for="id_username">' in html
    assert '<label for="id_password">' in html


def test_list_shows_the_organisations_assessments(client_in: Client, stored: Assessment) -> None:
    html = client_in.get(reverse("web:list")).content.decode()
    assert reverse("web:assessment", args=[stored.pk]) in html
    assert "AIX 5.3" in html
    assert "alice" in html
    assert "<html" in html


def test_list_is_empty_for_an_outsider(outsider_client: Client, stored: Assessment) -> None:
    html = outsider_client.get(reverse("web:list")).content.decode()
    assert reverse("web:assessment", args=[stored.pk]) not in html
    assert "No assessments yet" in html


def test_list_search_over_htmx_returns_only_the_results(
    client_in: Client, stored: Assessment
) -> None:
    hit = client_in.get(reverse("web:list"), {"q": "lem"}, **HTMX).content.decode()
    miss = client_in.get(reverse("web:list"), {"q": "zzz"}, **HTMX).content.decode()
    assert hit.lstrip().startswith('<div id="results"')
    assert "<html" not in hit
    assert "lemans" in hit
    assert "No assessment has a host name containing “zzz”" in miss


def test_list_paginates(client_in: Client, user: Any, lemans: dict[str, Any]) -> None:
    from advisor.assessments.services import assessment_create

    for i in range(26):
        assessment_create(user=user, document={**lemans, "name": f"copy {i}"})
    first = client_in.get(reverse("web:list")).content.decode()
    second = client_in.get(reverse("web:list"), {"page": 2}).content.decode()
    assert "Page 1 of 2" in first
    assert first.count('<td class="num" data-label="CPUs">8</td>') == 25
    assert second.count('<td class="num" data-label="CPUs">8</td>') == 1


def test_new_starts_from_an_example_with_its_preview(client_in: Client) -> None:
    response = client_in.get(reverse("web:new"), {"example": "lemans-aix53-etl"})
    html = response.content.decode()
    assert 'value="lemans"' in html
    assert 'id="storage-row-1"' in html
    assert 'id="preview"' in html
    assert "sasv9_append.cfg" in html
    assert "lemans, AIX 5.3" in html


def test_new_from_a_copy_of_an_assessment(client_in: Client, stored_bigger: Assessment) -> None:
    html = client_in.get(reverse("web:new"), {"from": stored_bigger.pk}).content.decode()
    assert 'name="ram_gb" value="32"' in html


def test_new_from_an_outsiders_assessment_is_404(
    outsider_client: Client, stored: Assessment
) -> None:
    response = outsider_client.get(reverse("web:new"), {"from": stored.pk})
    assert response.status_code == 404


def test_every_field_has_a_label(client_in: Client) -> None:
    html = client_in.get(reverse("web:new"), {"example": "lemans-aix53-etl"}).content.decode()
    for field_id in ("id_hostname", "id_mix_etl", "id_storage-1-mount", "id_storage-0-raid"):
        assert f'<label for="{field_id}">' in html
        assert f'aria-describedby="{field_id}-errors' in html


def test_save_stores_and_redirects(client_in: Client, lemans_data: dict[str, str]) -> None:
    response = client_in.post(reverse("web:new"), lemans_data)
    assessment = Assessment.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("web:assessment", args=[assessment.pk])
    assert assessment.hostname == "lemans"
    assert assessment.inventory["storage"][1]["mount"] == "/raid5"


def test_save_with_errors_puts_each_message_on_its_field(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    bad = lemans_data | {"storage-1-mount": "raid5", "mix_etl": "90", "hostname": ""}
    response = client_in.post(reverse("web:new"), bad)
    html = response.content.decode()
    assert response.status_code == 400
    assert Assessment.objects.count() == 0
    assert (
        '<div id="id_storage-1-mount-errors" class="errors"><p>must be an absolute path: /saswork'
        in html
    )
    mix = "the shares must add up to 100 % (±1 %); they add up to 90 %"
    assert f'<div id="mix-errors" class="errors"><p>{mix}' in html
    assert '<div id="id_hostname-errors" class="errors"><p>is required</p>' in html
    assert '<div id="id_storage-0-mount-errors" class="errors"></div>' in html


def test_add_row_over_htmx_returns_the_storage_fieldset(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    response = client_in.post(reverse("web:new"), lemans_data | {"add_row": "1"}, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<fieldset id="storage"')
    assert 'name="storage-TOTAL_FORMS" value="3"' in html
    assert 'id="id_storage-2-name"' in html and "autofocus" in html
    assert response["HX-Trigger-After-Settle"] == "rows-changed"
    assert Assessment.objects.count() == 0


def test_remove_row_without_javascript_renders_the_whole_page(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    response = client_in.post(reverse("web:new"), lemans_data | {"remove_row-0": "1"})
    html = response.content.decode()
    assert "<html" in html
    assert 'name="storage-TOTAL_FORMS" value="1"' in html
    assert 'value="/raid5"' in html and 'value="/raid0"' not in html


def test_preview_returns_the_fragment_with_files_and_settings(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    response = client_in.post(reverse("web:preview"), lemans_data, **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="preview"')
    assert "<html" not in html
    assert "sasv9_append.cfg" in html and "aix_tuning.sh" in html
    assert 'hx-swap-oob="true"' in html


def test_preview_places_errors_but_not_missing_fields_yet(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    data = lemans_data | {"cpus": "", "storage-0-disks": "0"}
    html = client_in.post(reverse("web:preview"), data, **HTMX).content.decode()
    assert (
        '<div id="id_storage-0-disks-errors" class="errors" hx-swap-oob="true">'
        "<p>must be between 1 and 100000</p>" in html
    )
    assert 'id="id_cpus-errors"' not in html
    assert '<div id="mix-errors" class="errors" hx-swap-oob="true"></div>' in html
    assert "1 required field still empty" in html


def test_detail_shows_files_and_the_report_panel(client_in: Client, stored: Assessment) -> None:
    html = client_in.get(reverse("web:assessment", args=[stored.pk])).content.decode()
    assert reverse("web:zip", args=[stored.pk]) in html
    assert reverse("web:file", args=[stored.pk, "aix_tuning.sh"]) in html
    assert 'id="file-sasv9-append-cfg"' in html


@pytest.mark.parametrize("name", ["web:assessment", "web:zip", "web:compare-pick"])
def test_outsider_gets_404(outsider_client: Client, stored: Assessment, name: str) -> None:
    assert outsider_client.get(reverse(name, args=[stored.pk])).status_code == 404


def test_outsider_gets_404_for_a_file_and_a_compare(
    outsider_client: Client, stored: Assessment, stored_bigger: Assessment
) -> None:
    file_url = reverse("web:file", args=[stored.pk, "sasv9_append.cfg"])
    compare_url = reverse("web:compare", args=[stored.pk, stored_bigger.pk])
    assert outsider_client.get(file_url).status_code == 404
    assert outsider_client.get(compare_url).status_code == 404


def test_file_download(client_in: Client, stored: Assessment) -> None:
    response = client_in.get(reverse("web:file", args=[stored.pk, "sasv9_append.cfg"]))
    assert response["Content-Disposition"] == 'attachment; filename="sasv9_append.cfg"'
    assert response.content.decode() == stored.result["artifacts"]["sasv9_append.cfg"]
    missing = client_in.get(reverse("web:file", args=[stored.pk, "passwd"]))
    assert missing.status_code == 404


def test_zip_holds_every_file_and_the_result(client_in: Client, stored: Assessment) -> None:
    response = client_in.get(reverse("web:zip", args=[stored.pk]))
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == [
        "aix_tuning.sh",
        "recommendations.json",
        "sasv9_append.cfg",
    ]
    assert json.loads(archive.read("recommendations.json")) == stored.result
    assert response["Content-Disposition"] == f'attachment; filename="lemans-{stored.pk}-files.zip"'


def test_compare_pick_redirects(client_in: Client, stored: Assessment, stored_bigger: Any) -> None:
    url = reverse("web:compare-pick", args=[stored.pk])
    response = client_in.get(url, {"other": stored_bigger.pk})
    assert response["Location"] == reverse("web:compare", args=[stored.pk, stored_bigger.pk])


def test_compare_shows_changed_inputs(
    client_in: Client, stored: Assessment, stored_bigger: Assessment
) -> None:
    url = reverse("web:compare", args=[stored.pk, stored_bigger.pk])
    html = client_in.get(url).content.decode()
    # Labelled as the contract declares them, valued as an admin writes them (16, not
    # JSON's 16.0), and only the field that differs marked.
    assert (
        '<tr class="differs"><th scope="row">RAM (GB) <span class="badge change-changed">'
        'differs</span></th><td data-label="Before">16</td><td data-label="After">32</td></tr>'
    ) in html
    assert '<tr><th scope="row">Host name</th>' in html


def test_a_linux_assessment_shows_and_serves_its_linux_files(client_in: Client, user: Any) -> None:
    document = example("linux-rhel9-sas94")
    assessment, _ = assessment_create(user=user, document=document)
    html = client_in.get(reverse("web:assessment", args=[assessment.pk])).content.decode()
    for name in ("tuned.conf", "linux_tuning.sh", "ansible_linux.yml"):
        assert reverse("web:file", args=[assessment.pk, name]) in html, name
        served = client_in.get(reverse("web:file", args=[assessment.pk, name]))
        assert served.content.decode() == assessment.result["artifacts"][name]
    report = render_report_html(assessment)
    assert "linux_tuning.sh" in report and "tuned.conf" in report
