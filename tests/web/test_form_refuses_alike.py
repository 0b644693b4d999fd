"""The inventory form refuses the documents the API, the command line and fleets refuse,
with the contract's problems (the checks across fields included) placed on the field or
storage row each one names; a device name of another system is a warning in the preview,
as in every other result; an assessment stored before a check refused it is advised again."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

import rules
from advisor.assessments import inventory_form as inv
from advisor.assessments.forms import path_anchor, path_label
from advisor.models import Assessment
from rules.validate import parse_stored
from tests.conftest import EXAMPLES, example
from tests.rules.refused import REFUSED, WARNED, slipped

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
# What the form says for each slip: the contract's message in the form's words.
SHOWN = {
    "largest_table": "is larger than the total data (1000 GB), which holds it: at most 1000 GB",
    "stripe": REFUSED["stripe"].says,
    "filesystem": "NTFS does not run on AIX: one of JFS2, JFS, GPFS, VxFS, NFS, Other",
}


def field_errors(page: str, anchor: str) -> list[str]:
    """The messages shown under the input with this id."""
    box = re.search(rf'<div id="{re.escape(anchor)}-errors" class="errors"[^>]*>(.*?)</div>', page)
    assert box is not None, anchor
    return [html.unescape(p) for p in re.findall(r"<p>(.*?)</p>", box.group(1))]


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.json")))
def test_every_example_passes_the_checks_through_the_form(name: str) -> None:
    doc = example(name)
    assert rules.inventory_from(inv.document_from_data(inv.data_from_document(doc)))


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_the_form_refuses_each_slip_on_the_field_it_names(client_in: Client, name: str) -> None:
    slip = REFUSED[name]
    data = inv.data_from_document(slipped(slip))
    response = client_in.post(reverse("web:new"), data)
    page = response.content.decode()
    assert response.status_code == 400
    assert Assessment.objects.count() == 0
    anchor = path_anchor(slip.path)
    assert field_errors(page, anchor) == [SHOWN[name]]
    summary = f'<a href="#{anchor}">{path_label(slip.path)}: {SHOWN[name]}</a>'
    assert summary in html.unescape(page)
    assert inv.friendly(slip.says) == SHOWN[name]


def test_the_preview_shows_every_slip_at_once(client_in: Client) -> None:
    doc = slipped(REFUSED["stripe"])
    for name in ("filesystem", "largest_table"):
        REFUSED[name].change(doc)
    doc["server"]["hostname"] = "bad host"
    data = inv.data_from_document(doc) | {"checked": "1"}
    page = client_in.post(reverse("web:preview"), data, **HTMX).content.decode()
    for name, slip in REFUSED.items():
        assert f"{path_label(slip.path)}: {SHOWN[name]}" in html.unescape(page), name
    assert "Host name: must be an RFC 1123 host name" in page


def test_a_name_of_another_system_is_a_warning_and_the_form_saves(client_in: Client) -> None:
    data = inv.data_from_document(slipped(WARNED))
    preview = client_in.post(reverse("web:preview"), data, **HTMX).content.decode()
    assert "sdb is a Linux name, not one AIX gives" in html.unescape(preview)
    response = client_in.post(reverse("web:new"), data)
    assert response.status_code == 302
    saved = Assessment.objects.get()
    assert [w["message"] for w in saved.result["warnings"]
            if w["rule"] == "storage.device_names"] == [WARNED.says]  # fmt: skip


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_assessment_stored_before_a_check_is_advised_again(
    client_in: Client, stored: Assessment, user: User, name: str
) -> None:
    document: dict[str, Any] = slipped(REFUSED[name])
    Assessment.objects.filter(pk=stored.pk).update(inventory=document)
    response = client_in.post(reverse("web:reevaluate", args=[stored.pk]))
    assert response.status_code == 302
    fresh = Assessment.objects.exclude(pk=stored.pk).get()
    assert parse_stored(fresh.inventory) == parse_stored(document)
    copied = client_in.get(reverse("web:new") + f"?from={stored.pk}").content.decode()
    assert SHOWN[name] in html.unescape(copied)  # its copy in the form shows what to fix
