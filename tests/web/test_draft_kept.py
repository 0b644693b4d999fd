"""A form filled from the server keeps what the reading marked: when a save is refused
(the AIX release no command printed, left empty), the page comes back with each value's
"from server" mark and the "Read from your server" panel; a storage row removed takes its
marks with it; a draft not signed here is ignored.

Real input: tests/fixtures/transcripts/aix_dedicated_younsl.txt (younsl's blog post on
AIX CPU information: lparstat, prtconf, smtctl, bindprocessor; no uname, no oslevel) and
tests/fixtures/transcripts/rhel7_jc.txt (jc's CentOS 7 captures: / and /boot).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from advisor.assessments import draft_marks
from advisor.models import Assessment
from tests.rules.parse.fixtures import transcript_file
from tests.web.test_start_from_server import START, WORKLOAD, form_values

pytestmark = pytest.mark.django_db
NEW = reverse("web:new")
AIX = transcript_file("aix_dedicated_younsl.txt")[2]


def marks(page: str) -> dict[str, str]:
    """Each input's mark on the page: its id → the source text it shows."""
    found = re.findall(r'<small class="mark" id="id_([\w-]+)-mark">(.*?)</small>', page, re.S)
    return {name: re.sub(r"<[^>]+>", "", text).strip() for name, text in found}


def test_a_refused_save_keeps_the_marks_and_the_panel(client_in: Client) -> None:
    page = client_in.post(START, {"text": AIX}).content.decode()
    assert form_values(page)["os_version"] == ""  # no command printed it: asked
    assert '<a href="#id_os_version">OS version</a>' in page  # the field's label, not its path
    shown = marks(page)
    assert "from server" in shown["hostname"] and "from server" in shown["cpus"]

    form = form_values(page) | WORKLOAD  # the release left empty, as the admin forgot it
    refused = client_in.post(NEW, form)
    again = refused.content.decode()
    assert refused.status_code == 400
    assert "OS version: is required" in again
    assert marks(again) == shown  # every mark, as the reading gave it
    assert '<h2 id="draft-panel-h">Read from your server</h2>' in again
    assert "no `oslevel -s` or `uname -a` was read" in again

    saved = client_in.post(NEW, form_values(again) | {"os_version": "7.2"})
    assert saved.status_code == 302
    assert Assessment.objects.get().inventory["server"]["os_version"] == "7.2"


def test_a_removed_row_takes_its_marks_and_the_rows_after_it_move_up(client_in: Client) -> None:
    page = client_in.post(START, {"text": transcript_file("rhel7_jc.txt")[2]}).content.decode()
    before = marks(page)
    rows = int(form_values(page)["storage-TOTAL_FORMS"])
    assert rows >= 2 and "storage-1-mount" in before
    after = client_in.post(NEW, form_values(page) | {"remove_row-0": "1"}).content.decode()
    moved = marks(after)
    assert moved["storage-0-mount"] == before["storage-1-mount"]
    assert f"storage-{rows - 1}-mount" not in moved
    assert moved["hostname"] == before["hostname"]
    # the same through htmx: the storage fieldset, its marks moved and carried anew
    partial = client_in.post(
        NEW, form_values(page) | {"remove_row-0": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert marks(partial)["storage-0-mount"] == before["storage-1-mount"]
    carried = re.search(r'<input type="hidden" name="draft" value="([^"]+)">', partial)
    kept = draft_marks.from_form({"draft": carried.group(1) if carried else ""})
    assert kept is not None
    assert moved["storage-0-mount"] == f"from server {kept.marks['storage-0-mount'].source}"


def test_a_draft_not_signed_here_is_ignored(client_in: Client) -> None:
    page = client_in.post(START, {"text": AIX}).content.decode()
    form = form_values(page) | WORKLOAD
    carried = form["draft"]
    for forged in (carried[:-4] + "AAAA", "not a draft", "x" * 600_000):
        response = client_in.post(NEW, form | {"draft": forged})
        assert response.status_code == 400
        again = response.content.decode()
        assert "Read from your server" not in again and 'class="mark"' not in again
