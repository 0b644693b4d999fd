"""The draft panel's line under "Problems by line" says what the accounting says: "Every
command's output was read." only where every section was read and used.

Real pastes: an AIX admin's blog (mkvg, mklv, crfs, chfs: commands no parser knows, and a
`df -g` pasted again after `chfs`; tests/fixtures/pastes/), a Korean Slurm session's
first 32 lines (slurm commands only), and a wazuh issue's openSUSE Leap 15.5 paste whose
every section gives a field (tests/fixtures/transcripts/sles15_wazuh20204.txt).
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from rules.parse import draft
from tests.rules.parse.fixtures import transcript_file
from tests.rules.parse.pastes import paste

pytestmark = pytest.mark.django_db
START = reverse("web:from-server")
ALL_READ = "Every command's output was read."


def problems_line(client: Client, text: str) -> str:
    page = client.post(START, {"text": text}).content.decode()
    panel = page[page.index("<h3>Problems by line") :]
    found = re.search(r'<p class="muted small">([^<]*)</p>', panel)
    assert found, "no line under Problems by line"
    return found.group(1).replace("&#x27;", "'")


def test_unknown_and_unused_sections_are_said(client_in: Client) -> None:
    text = paste("aix_blog_mklv_crfs_chfs_df.txt")
    assert draft(text).accounting == {"used": 2, "unused": 1, "unknown": 7, "problems": 0}
    assert problems_line(client_in, text) == (
        "No output was unreadable, but not all of it was read: 7 commands no parser knows "
        "and 1 section read but not used, listed below."
    )


def test_a_paste_of_nothing_a_parser_knows_says_none_was_read(client_in: Client) -> None:
    text = "\n".join(paste("rhel9_slurm_session_korean.txt").split("\n")[:32]) + "\n"
    assert draft(text).accounting["used"] == 0
    assert problems_line(client_in, text) == (
        "No output was unreadable, and none was read: no command a parser knows was found."
    )


def test_every_section_used_is_every_command_read(client_in: Client) -> None:
    _, _, text = transcript_file("sles15_wazuh20204.txt")
    accounting = draft(text).accounting
    assert accounting["used"] > 0 and accounting["unused"] == accounting["unknown"] == 0
    assert problems_line(client_in, text) == ALL_READ
