"""What the result page and the report say of the current values, in each case: a typed
inventory (not read from the server), a paste holding no current setting (read from the
server, none of its settings in it: say what to paste), and a paste holding them."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment
from advisor.reports.services import render_report_html
from tests.rules.parse.fixtures import transcript
from tests.web.test_start_from_server import START, WORKLOAD, form_values, linux_transcript

pytestmark = pytest.mark.django_db
# Captured on the CI build machine (the fixtures name their sources): the host, its CPUs,
# RAM and file systems, and no command that prints a setting it runs now.
WITHOUT_SETTINGS = (
    "unix/uname_debian12.txt", "unix/hostname_debian12.txt", "linux/lscpu_debian12_kvm.txt",
    "linux/meminfo_debian12.txt", "linux/findmnt_pairs_debian12.txt",
    "linux/os_release_debian12.txt",
)  # fmt: skip
TYPED = "The current values are unknown: this inventory was not read from the server"
NONE_READ = (
    "This inventory was read from the server (pasted terminal transcript), but no setting "
    "it runs now was in it"
)


def saved_from_paste(client: Client, text: str) -> Assessment:
    page = client.post(START, {"text": text}).content.decode()
    form = form_values(page) | {"storage-0-role": "data"} | WORKLOAD
    response = client.post(reverse("web:new"), form)
    assert response.status_code == 302
    return Assessment.objects.get()


def result_page(client: Client, assessment: Assessment) -> str:
    return client.get(reverse("web:assessment", args=[assessment.pk])).content.decode()


def test_typed_inventory_says_it_was_not_read_from_the_server(
    client_in: Client, stored: Assessment
) -> None:
    page = result_page(client_in, stored)
    assert TYPED in page
    assert "was read from the server" not in page
    report = render_report_html(stored)
    assert "(the inventory was typed)" in report
    assert "An inventory typed into the advisor" in report


def test_paste_without_current_settings_says_it_was_read_and_what_to_paste(
    client_in: Client,
) -> None:
    saved = saved_from_paste(client_in, transcript(*WITHOUT_SETTINGS))
    current = saved.inventory["current"]
    assert current["source"] == "pasted terminal transcript"
    assert {k for k, v in current.items() if v is not None} == {"source"}
    page = result_page(client_in, saved)
    assert NONE_READ in page
    assert "this inventory was not read from the server" not in page
    assert "current values read:" not in page
    for command in ("sysctl -a", "tuned-adm active", "grep -H . /sys/block/*/queue/*"):
        assert f"<code>{command}</code>" in page
    assert {r["status"] for r in saved.result["recommendations"] if r["kind"] == "change"} == {
        "unknown"
    }
    report = render_report_html(saved)
    assert "(the inventory was typed)" not in report
    assert "An inventory typed into the advisor" not in report
    assert "with none of the settings it runs now in it" in report
    assert '<span class="setting">sysctl -a</span>' in report


def test_paste_with_current_settings_names_where_they_were_read(client_in: Client) -> None:
    saved = saved_from_paste(client_in, linux_transcript())
    assert json.dumps(saved.inventory["current"]["linux_thp"]) == '"madvise"'
    page = result_page(client_in, saved)
    assert "(current values read: pasted terminal transcript)" in page
    assert NONE_READ not in page and TYPED not in page
    report = render_report_html(saved)
    assert "runs now (pasted terminal transcript) against what this report recommends" in report
    assert "including the settings it runs now" in report


def test_the_draft_panel_lists_no_settings_when_none_was_read(client_in: Client) -> None:
    page = client_in.post(START, {"text": transcript(*WITHOUT_SETTINGS)}).content.decode()
    assert "Settings it runs now" not in page
    assert "<dt>Read from</dt>" not in page
