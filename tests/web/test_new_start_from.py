"""The new-assessment page's starting points: the examples named by the OS as its vendor
does (RHEL 9.4, Windows Server 2022), and "or a copy of" as the searchable picker that
reads a suggestion, a number or a host name."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from advisor.assessments.views import examples
from advisor.models import Assessment

pytestmark = pytest.mark.django_db
NEW = reverse("web:new")


def test_the_examples_name_the_os_as_its_vendor_does() -> None:
    labels = {key: ex["label"] for key, ex in examples().items()}
    shown = set(labels.values())
    assert "lemans, AIX 5.3" in shown
    assert any(label.endswith(", RHEL 9.4") for label in shown), shown
    assert "winsas22, Windows Server 2022" in shown
    assert "sascomp09, RHEL 9.4" in shown and "sascomp09, Linux 9.4" not in shown


def test_copy_of_is_the_searchable_picker(client_in: Client, stored: Assessment) -> None:
    html = client_in.get(NEW).content.decode()
    assert '<input type="text" id="start-copy" name="from" list="start-copy-options"' in html
    assert f"(#{stored.pk})</option>" not in html  # a datalist of labels, not a select
    assert f'<option value="{stored.hostname} “' in html
    assert '<select id="start-copy"' not in html


@pytest.mark.parametrize("typed", ["{pk}", "#{pk}", "lemans — anything (#{pk})", "LEMANS"])
def test_a_copy_is_found_by_what_the_picker_sends(
    client_in: Client, stored: Assessment, typed: str
) -> None:
    html = client_in.get(NEW, {"from": typed.format(pk=stored.pk)}).content.decode()
    assert f'name="hostname" value="{stored.hostname}"' in html


def test_a_copy_of_an_unknown_host_is_the_blank_form(client_in: Client, stored: Assessment) -> None:
    html = client_in.get(NEW, {"from": "nosuchhost"}).content.decode()
    assert f'name="hostname" value="{stored.hostname}"' not in html


@pytest.mark.parametrize("typed", ["9" * 40, "12x", "' or 1=1"])
def test_odd_text_in_the_picker_is_never_an_error(client_in: Client, typed: str) -> None:
    assert client_in.get(NEW, {"from": typed}).status_code == 200
