"""The inventory form that helps a new user: required marks, "e.g." placeholders, an error
summary linking to each field, contract messages in the form's words, checks across fields,
512 storage rows, a JSON file loaded into the form and the form downloaded as JSON."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

import rules
from advisor.assessments import draft_marks
from advisor.assessments import inventory_form as inv
from advisor.assessments.form_upload import MAX_JSON_BYTES
from advisor.assessments.forms import InventoryForm, StorageForm
from advisor.models import Assessment
from rules.inventory import MAX_STORAGE
from tests.conftest import example

HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


def big_inventory(rows: int = MAX_STORAGE) -> dict[str, Any]:
    """lemans with `rows` storage entries, each on its own mount point."""
    doc = example("lemans-aix53-etl")
    first = doc["storage"][0]
    doc["storage"] = [{**first, "name": f"lv{i:03d}", "mount": f"/sas{i:03d}"} for i in range(rows)]
    return doc


def upload(doc: Any, name: str = "lemans.json") -> SimpleUploadedFile:
    body = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


def test_placeholders_say_e_g_and_required_inputs_are_marked() -> None:
    form, row = InventoryForm(), StorageForm()
    for each in (form, row):
        for name, field in each.fields.items():
            placeholder = field.widget.attrs.get("placeholder")
            assert placeholder is None or placeholder.startswith("e.g. "), name
    assert form.fields["cpus"].widget.attrs["placeholder"] == "e.g. 16"
    assert form.fields["hostname"].widget.attrs["aria-required"] == "true"
    assert row.fields["mount"].widget.attrs["aria-required"] == "true"
    # Optional, sent even when empty, or only inside an absent object: not marked.
    for name in ("cores", "name", "spds_version", "mix_etl"):
        assert "aria-required" not in form.fields[name].widget.attrs, name


def test_the_blank_form_shows_the_marks_and_no_summary(client_in: Client) -> None:
    html = client_in.get(reverse("web:new")).content.decode()
    assert '<div class="field needed">\n  <label for="id_hostname">Host name</label>' in html
    assert '<div class="field">\n  <label for="id_cores">Physical cores</label>' in html
    assert 'placeholder="e.g. lemans"' in html and 'value="lemans"' not in html
    assert 'id="error-summary"' not in html and 'name="checked"' not in html


def test_a_refused_save_lists_each_problem_with_a_link_to_its_field(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    bad = lemans_data | {"hostname": "", "mix_etl": "90", "storage-1-stripe_kb": "98"}
    response = client_in.post(reverse("web:new"), bad)
    html = response.content.decode()
    assert response.status_code == 400
    summary = html.split('id="error-summary"', 1)[1].split("</div>", 1)[0]
    assert "autofocus" in summary and 'tabindex="-1"' in summary
    assert "3 problems to fix before saving" in summary
    assert '<a href="#id_hostname">Host name: is required</a>' in summary
    assert (
        '<a href="#id_mix_etl">Workload mix: the shares must add up to 100 % (±1 %); '
        "they add up to 90 %</a>" in summary
    )
    assert '<a href="#id_storage-1-stripe_kb">Storage 2 · Stripe (KB): is not a stripe' in summary
    assert '<div id="mix-errors" class="errors"><p>the shares must add up to 100 %' in html
    assert '<input type="hidden" name="checked" value="1">' in html
    assert "data-unsaved" in html


def test_the_preview_names_labels_not_json_paths(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    bad = lemans_data | {"storage-1-mount": "/raid0", "cpus": "eight"}
    html = client_in.post(reverse("web:preview"), bad, **HTMX).content.decode()
    problems = html.split('<ul class="problems">', 1)[1].split("</ul>", 1)[0]
    assert '<a href="#id_cpus">Logical CPUs</a>: must be an integer' in problems
    assert (
        '<a href="#id_storage-1-mount">Storage 2 · Mount point</a>: '
        "duplicates Storage 1 · Mount point" in problems
    )
    assert "storage[" not in problems and "server." not in problems
    # No save was tried: the summary stays away until one is.
    assert 'id="error-summary"' not in html


def test_after_a_refused_save_the_preview_updates_the_summary(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    data = lemans_data | {"checked": "1", "hostname": "", "concurrent_sessions": ""}
    html = client_in.post(reverse("web:preview"), data, **HTMX).content.decode()
    assert '<div id="error-summary" class="error-summary" tabindex="-1"' in html
    assert 'hx-swap-oob="true"' in html.split('id="error-summary"', 1)[1].split(">", 1)[0]
    assert "autofocus" not in html.split('id="error-summary"', 1)[1].split(">", 1)[0]
    assert "2 problems to fix" in html
    assert '<div id="id_hostname-errors" class="errors" hx-swap-oob="true"><p>is required' in html
    fixed = client_in.post(reverse("web:preview"), lemans_data | {"checked": "1"}, **HTMX)
    assert '<div id="error-summary" hidden hx-swap-oob="true"></div>' in fixed.content.decode()


def test_a_save_the_checks_refuse_stores_nothing(
    client_in: Client, lemans_data: dict[str, str]
) -> None:
    response = client_in.post(reverse("web:new"), lemans_data | {"largest_table_gb": "5000"})
    assert response.status_code == 400
    assert Assessment.objects.count() == 0
    assert '<a href="#id_largest_table_gb">Largest table (GB): is larger than' in (
        response.content.decode()
    )


def test_friendly_words_paths_and_the_mix() -> None:
    assert inv.friendly("duplicates storage[0].mount") == "duplicates Storage 1 · Mount point"
    assert inv.friendly("is for Linux; server.os is aix") == "is for Linux; Operating system is aix"
    assert inv.friendly("fractions must sum to 1 (±0.01), got 1.2") == (
        "the shares must add up to 100 % (±1 %); they add up to 120 %"
    )
    assert inv.friendly("must be a string") == "must be a string"


def as_browser_posts(data: dict[str, str]) -> dict[str, Any]:
    """The form's body as a browser sends it (the form has no enctype: urlencoded, not the
    test client's multipart, which takes each of the ~14,000 inputs 80 bytes more)."""
    return {"data": urlencode(data), "content_type": "application/x-www-form-urlencoded"}


def test_512_storage_rows_are_saved_from_the_form(client_in: Client) -> None:
    data = inv.data_from_document(big_inventory())
    assert len(data) < settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    response = client_in.post(reverse("web:new"), **as_browser_posts(data))
    assert response.status_code == 302, response.content[:2000]
    assert len(Assessment.objects.get().inventory["storage"]) == MAX_STORAGE


def test_512_storage_rows_are_previewed(client_in: Client) -> None:
    data = inv.data_from_document(big_inventory())
    response = client_in.post(reverse("web:preview"), **as_browser_posts(data), **HTMX)
    html = response.content.decode()
    assert 'id="preview-aix-tuning-sh"' in html
    assert "/sas511" in html


def test_a_json_file_fills_the_form(client_in: Client) -> None:
    response = client_in.post(reverse("web:new-upload"), {"inventory": upload(big_inventory())})
    html = response.content.decode()
    assert response.status_code == 200
    assert "lemans.json loaded: 512 storage rows." in html
    assert 'name="storage-TOTAL_FORMS" value="512"' in html
    assert 'value="/sas511"' in html and 'id="preview-aix-tuning-sh"' in html
    assert Assessment.objects.count() == 0


def test_a_recommendations_json_fills_the_form_with_its_inventory(client_in: Client) -> None:
    result = {"rules_version": "x", "inventory": example("windows-sas94"), "warnings": []}
    html = client_in.post(reverse("web:new-upload"), {"inventory": upload(result)}).content
    assert b'value="D:\\saswork"' in html


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"server": ', "This file is not JSON: Expecting value at line 1, column 12."),
        (b"\xff\xfe", "This file is not UTF-8 text"),
        (b"[1, 2]", "This file holds JSON, but not an inventory object"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (json.dumps(big_inventory(MAX_STORAGE + 1)).encode(),
         "This inventory has 513 storage entries; the form takes at most 512."),
        (b" " * (MAX_JSON_BYTES + 1), "This file is larger than 1024 KB."),
    ],
)  # fmt: skip
def test_a_file_that_is_no_inventory_is_refused_at_the_file_input(
    client_in: Client, body: bytes, message: str
) -> None:
    response = client_in.post(reverse("web:new-upload"), {"inventory": upload(body)})
    html = response.content.decode()
    assert response.status_code == 400
    errors = html.split('<div id="id_inventory-errors" class="errors">', 1)[1].split("</div>")[0]
    assert message in errors
    assert re.search(r'<input type="file" name="inventory"[^>]* autofocus', html)


def test_no_file_chosen_says_so(client_in: Client) -> None:
    response = client_in.post(reverse("web:new-upload"), {})
    assert response.status_code == 400
    assert "Choose a JSON file to load." in response.content.decode()


def test_what_the_form_cannot_show_is_named_beside_the_file(client_in: Client) -> None:
    doc = example("lemans-aix53-etl")
    doc["server"]["colour"] = "blue"
    doc["storage"][1]["speed"] = 3
    doc["server"]["cpus"] = "eight"
    html = client_in.post(reverse("web:new-upload"), {"inventory": upload(doc)}).content.decode()
    errors = html.split('<div id="id_inventory-errors" class="errors">', 1)[1].split("</div>")[0]
    assert "server.colour: unknown field; left out of the form" in errors
    assert "Storage 2 · speed: unknown field; left out of the form" in errors
    # What the form shows is marked at its field and listed in the summary.
    assert '<a href="#id_cpus">Logical CPUs: must be an integer</a>' in html
    assert 'value="eight"' in html


def test_the_form_downloads_as_contract_json(
    client_in: Client, lemans: dict[str, Any], lemans_data: dict[str, str]
) -> None:
    response = client_in.post(reverse("web:new-json"), lemans_data)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="lemans-inventory.json"'
    document = json.loads(response.content)
    assert rules.inventory_from(document).to_dict() == rules.inventory_from(lemans).to_dict()
    assert Assessment.objects.count() == 0


def test_an_unfinished_form_downloads_too(client_in: Client) -> None:
    data = inv.blank_data() | {"hostname": "-bad", "ram_gb": "1e999", "cpus": "nan"}
    response = client_in.post(reverse("web:new-json"), data)
    assert response["Content-Disposition"] == 'attachment; filename="inventory.json"'
    document = json.loads(response.content)
    assert document["server"]["ram_gb"] == "inf"
    assert document["server"]["hostname"] == "-bad"


@pytest.mark.parametrize("name", ["web:new-upload", "web:new-json"])
def test_upload_and_download_need_a_login(client: Client, name: str) -> None:
    response = client.post(reverse(name), {})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


class _Tree(HTMLParser):
    """HTML as a list of tags (attributes in any order) and texts, whitespace aside."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.items: list[Any] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.items.append((tag, sorted(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.items.append(f"/{tag}")

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.items.append(" ".join(data.split()))


def test_storage_rows_are_written_as_the_field_template_writes_them(
    lemans_data: dict[str, str],
) -> None:
    data = lemans_data | {"storage-0-san": "on", "storage-1-mount": 'a"<b>&', "storage-1-raid": "6"}
    form, formset = inv.bind(data)
    problems = [
        rules.Problem("storage[1].mount", "must be <absolute>"),
        rules.Problem("storage[1].disks", "is wrong"),
        rules.Problem("storage[1]", "row"),
    ]
    inv.place_problems(form, formset, problems)
    marks = {
        "storage-0-name": draft_marks.Mark(source="lslv -l raid0lv01 (line 3)"),
        "storage-1-san": draft_marks.Mark(source="lsdev", confirm="a guess & more"),
    }
    draft_marks.mark_fields(form, formset, marks)
    template = Template('{% for field in row %}{% include "assessments/_field.html" %}{% endfor %}')
    for row in formset.forms:
        written = _Tree(row.fields_html()).items
        assert written == _Tree(template.render(Context({"row": row}))).items
    assert ("input", sorted([("type", "checkbox"), ("name", "storage-0-san"), ("checked", None),
            ("id", "id_storage-0-san"), ("aria-describedby", "id_storage-0-san-errors"),
            ("title", formset.forms[0].fields["san"].widget.attrs["title"])])) in (
        _Tree(formset.forms[0].fields_html()).items
    )  # fmt: skip
