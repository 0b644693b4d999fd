"""Start from your server: collector download, paste or upload, the pre-filled form."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from advisor.assessments import reading
from advisor.models import Assessment
from tests.rules.parse.fixtures import transcript

pytestmark = pytest.mark.django_db
START = reverse("web:from-server")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LINUX = (
    "unix/uname_debian12.txt", "unix/hostname_debian12.txt", "linux/lscpu_debian12_kvm.txt",
    "linux/meminfo_debian12.txt", "linux/findmnt_pairs_debian12.txt",
    "linux/lsblk_pairs_debian12.txt", "linux/sys_block_queue_debian12.txt",
    "linux/sysctl_a_debian12_nobody.txt", "linux/thp_enabled_debian12.txt",
    "linux/tuned_active_balanced.txt",
)  # fmt: skip
SAS_CONFIG = "sas/sasv9_local_statcan.txt"  # -MEMSIZE 2G, -SORTSIZE 1G among 17 options
GARBLED = (
    transcript("unix/uname_debian12.txt", "unix/hostname_debian12.txt")
    + "$ lscpu\nthis is not lscpu at all\nnor this\n$ cat /proc/meminfo\nMemTotal: lots\n"
)
# The draft starts on the Mixed preset (40/30/30): the admin's own mix, all ETL.
WORKLOAD = {
    "mix_etl": "100", "mix_summary": "", "mix_analytics": "", "concurrent_sessions": "4",
    "largest_table_gb": "50", "total_data_gb": "500", "growth_gb_per_week": "0",
}  # fmt: skip


# The release, as the collector reads it, after the lines whose numbers the tests name
# and before the SAS configuration (which a newer bundle extends).
OS_RELEASE = "linux/os_release_debian12.txt"


def linux_transcript() -> str:
    return transcript(*LINUX, OS_RELEASE, SAS_CONFIG)


class FormValues(HTMLParser):
    """What a browser would send for the inventory form as shown (buttons aside)."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and (a.get("type") not in ("checkbox", "file") or "checked" in a):
            self.values[a["name"]] = a.get("value", "on" if a.get("type") == "checkbox" else "")
        elif tag == "select":
            self.select = a["name"]
        elif tag == "option" and self.select and self._first_or_selected(a):
            self.values[self.select] = a["value"]

    def _first_or_selected(self, option: dict[str, str]) -> bool:
        return "selected" in option or self.select not in self.values

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


def form_values(page: str) -> dict[str, str]:
    start = page.index('<form id="inventory-form"')
    parser = FormValues()
    parser.feed(page[start : page.index("</form>", start)])
    return {k: v for k, v in parser.values.items() if k != "csrfmiddlewaretoken"}


def hidden_current(page: str) -> str:
    found = re.search(r'<input type="hidden" name="current" value="([^"]*)"', page)
    assert found, "the form carries no current block"
    return html.unescape(found.group(1))


def test_start_page_offers_the_collector_and_the_commands(client_in: Client) -> None:
    page = client_in.get(START).content.decode()
    assert f'href="{reverse("web:collector")}" download' in page
    assert "sh sas-advisor-collect.sh --out bundle.txt" in page
    assert "--sas-config /opt/sas/SASHome/SASFoundation/9.4/sasv9_local.cfg" in page
    assert "--measure /saswork" in page
    assert '<label for="id_text">' in page and '<label for="id_upload">' in page
    assert 'enctype="multipart/form-data"' in page
    assert f'<a href="{START}">Start from your server</a>' in page  # the nav


def test_new_assessment_page_links_to_the_start_page(client_in: Client) -> None:
    assert f'href="{START}"' in client_in.get(reverse("web:new")).content.decode()


def test_pages_need_a_login(client: Client) -> None:
    for url in (START, reverse("web:collector")):
        assert client.get(url)["Location"].startswith("/accounts/login/")


def test_collector_downloads_as_a_shell_script(client_in: Client) -> None:
    response = client_in.get(reverse("web:collector"))
    name, text = reading.collector()
    assert response["Content-Type"] == "text/x-shellscript; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    assert response.content.decode() == text
    assert text.startswith("#!/bin/sh")


def test_a_transcript_fills_the_form_and_marks_each_value_read(client_in: Client) -> None:
    response = client_in.post(START, {"text": linux_transcript()})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="hostname" value="vm"' in page
    assert 'name="cpus" value="2"' in page
    assert 'name="storage-0-mount" value="/"' in page
    # Each value read carries its source, visible and as the input's description.
    assert '<span class="badge server" title="Host name vm from `hostname` (line 3)">' in page
    assert "RAM (GB) 23.54 from `cat /proc/meminfo` (line 49), MemTotal: 24684084 kB" in page
    assert 'aria-describedby="id_hostname-errors id_hostname-mark" id="id_hostname"' in page
    assert "Read from the server (" in page  # the storage row lists its sources
    # What the server cannot tell is highlighted for the admin to confirm.
    assert 'id="workload-confirm" class="confirm-note">Confirm: the workload' in page
    assert "confirm: licences are not read from the server" in page
    assert '<a href="#workload-mix">Workload</a>' in page  # the group's name, not its path
    assert "<dt>SAS options</dt><dd>17 read</dd>" in page
    assert json.loads(hidden_current(page))["sas_options"]["MEMSIZE"] == "2G"
    assert "version 9.4 from `cat /usr/local/SASHome/SASFoundation/9.4/sasv9_local.cfg`" in page
    assert f'action="{reverse("web:new")}"' in page


def test_saving_the_draft_keeps_what_the_server_runs_now(client_in: Client) -> None:
    page = client_in.post(START, {"text": linux_transcript()}).content.decode()
    form = form_values(page) | {"storage-0-role": "data"} | WORKLOAD
    assert json.loads(form["current"])["linux_thp"] == "madvise"
    response = client_in.post(reverse("web:new"), form)
    assert response.status_code == 302
    saved = Assessment.objects.get()
    assert saved.inventory["current"]["sas_options"]["WORK"] == "/tmp"
    memsize = next(r for r in saved.result["recommendations"] if r["setting"] == "MEMSIZE")
    assert (memsize["value"], memsize["current"], memsize["status"]) == ("2G", "2G", "keep")


def test_an_uploaded_bundle_is_read_like_a_pasted_one(client_in: Client) -> None:
    upload = SimpleUploadedFile("bundle.txt", linux_transcript().encode(), "text/plain")
    page = client_in.post(START, {"upload": upload}).content.decode()
    assert 'name="hostname" value="vm"' in page
    assert "from `hostname` (line 3)" in page


def test_a_json_inventory_fills_the_form_without_marks(
    client_in: Client, lemans: dict[str, Any]
) -> None:
    page = client_in.post(START, {"text": json.dumps(lemans)}).content.decode()
    assert 'name="hostname" value="lemans"' in page
    assert 'name="storage-1-mount" value="/raid5"' in page
    assert "from server" not in page and "Read from your server" not in page


def test_a_recommendations_json_gives_its_inventory(client_in: Client, stored: Assessment) -> None:
    page = client_in.post(START, {"text": stored.recommendations_json}).content.decode()
    assert 'name="hostname" value="lemans"' in page


def test_broken_json_is_refused_with_where_it_breaks(client_in: Client) -> None:
    response = client_in.post(START, {"text": '{"server": {"cpus": 8,}}'})
    page = response.content.decode()
    assert response.status_code == 400
    assert "This looks like JSON but is not valid: Expecting property name" in page
    assert "(char 22)" in page


@pytest.mark.parametrize("how", ["paste", "upload"])
def test_json_with_a_lone_surrogate_is_refused_naming_where(
    client_in: Client, lemans: dict[str, Any], how: str
) -> None:
    text = json.dumps(lemans).replace('"lemans"', '"lem\\ud800ans"', 1)
    assert "\\ud800" in text
    sent = {"text": text} if how == "paste" else {
        "upload": SimpleUploadedFile("inventory.json", text.encode(), "application/json")
    }  # fmt: skip
    response = client_in.post(START, sent)
    assert response.status_code == 400
    page = response.content.decode()
    assert "server.hostname holds NUL or an unpaired surrogate" in page
    key = client_in.post(START, {"text": '{"server": {"\\udc00x": 1}}'})
    assert key.status_code == 400
    assert "server.\ufffdx holds NUL" in key.content.decode()


def test_json_of_another_shape_is_refused(client_in: Client) -> None:
    for text, message in (
        ("[1, 2]", "Nothing in this text was recognised"),
        ('{"storage": 5}', "The JSON&#x27;s storage is not a list of file systems."),
    ):
        response = client_in.post(START, {"text": text})
        assert response.status_code == 400
        assert message in response.content.decode()


def test_a_garbled_bundle_lists_its_problems_by_line(client_in: Client) -> None:
    response = client_in.post(START, {"text": GARBLED})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="hostname" value="vm"' in page
    assert (
        '<li><span class="line-no">line 6</span> <code>lscpu</code>: '
        "no &#x27;label: value&#x27; lines found in this output</li>" in page
    )
    assert '<span class="line-no">line 9</span> <code>cat /proc/meminfo</code>' in page
    assert "confirm: neither nproc nor lscpu was read" in page
    assert 'neither nproc nor lscpu was read <span class="muted">(filled in meanwhile: 1)' in page
    assert (
        'licences are not read from the server <span class="muted">(filled in meanwhile: no)'
        in page
    )


def test_text_with_nothing_recognised_stays_on_the_start_page(client_in: Client) -> None:
    response = client_in.post(START, {"text": "hello\nworld\n"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "Nothing in this text was recognised" in page
    assert "hello\nworld" in page  # the text is kept for another try


def test_an_empty_form_is_refused(client_in: Client) -> None:
    response = client_in.post(START, {"text": "  \n"})
    assert response.status_code == 400
    assert "Paste the bundle or a transcript, or choose a file." in response.content.decode()


def test_an_oversized_upload_is_413_with_the_limit(
    client_in: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reading, "MAX_BYTES", 1000)
    upload = SimpleUploadedFile("bundle.txt", b"x" * 5000, "text/plain")
    response = client_in.post(START, {"upload": upload})
    page = response.content.decode()
    assert response.status_code == 413
    assert "This is 4.9\xa0KB; the limit is 1000\xa0bytes." in page
    assert 'role="alert"' in page


def test_an_oversized_paste_is_413(client_in: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "MAX_BYTES", 1000)
    response = client_in.post(START, {"text": "# uname -a\n" + "x" * 2000})
    assert response.status_code == 413
    assert "the limit is 1000\xa0bytes" in response.content.decode()


def test_a_body_over_the_bundle_limit_is_refused_before_it_is_read(
    client_in: Client, settings: Any
) -> None:
    upload = SimpleUploadedFile("big.txt", b"x" * (settings.MAX_BUNDLE_BYTES + 1), "text/plain")
    response = client_in.post(START, {"upload": upload})
    assert response.status_code == 413
    # The start page again, with the limit in MB (tests/web/test_limits.py for the rest).
    assert "the limit is 8 MB" in response.content.decode()


def test_a_binary_upload_is_refused(client_in: Client) -> None:
    upload = SimpleUploadedFile("bundle.tar.gz", b"\x1f\x8b\x08\x00\x00\x00", "application/gzip")
    response = client_in.post(START, {"upload": upload})
    assert response.status_code == 400
    assert "This is a binary file." in response.content.decode()


def test_fio_json_uploaded_alone_is_read_as_a_measurement(client_in: Client) -> None:
    """A saved `fio --output-format=json` file is a measurement, not an inventory: it is
    read as fio's output, and the page says which file system it needs to land on."""
    text = "\n".join(
        line
        for line in (FIXTURES / "parse/fio/fio_json_2streams_write_read_debian12.txt")
        .read_text()
        .splitlines()
        if not line.startswith("## ")
    )
    upload = SimpleUploadedFile("result.json", text.encode(), "application/json")
    page = html.unescape(client_in.post(START, {"upload": upload}).content.decode())
    assert "read as fio's JSON output (no command line above it)" in page
    assert "fio-3.33 measured /tmp/fcap: no file system read holds it" in page
