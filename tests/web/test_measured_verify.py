"""Verify shows measured throughput before → after: the assessment's stored figure against
a newer reading's (a real collector bundle measured here), per file system matched by
mount point, in MB/s per core in use with SAS's verdict."""

from __future__ import annotations

import copy
import html
import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

from advisor.assessments.measured import before_after, directions
from rules.measured import CACHE_WORDS, bars
from rules.parse import draft
from rules.validate import parse_stored
from tests.conftest import example
from tests.web.measured_bundle import measured_bundle, measured_document, saved

pytestmark = pytest.mark.django_db
BEFORE_MB_S = 120.0  # the figure the assessment was saved with, before the storage changed
VERDICTS = ("short", "in band", "above band", CACHE_WORDS)


def test_verify_shows_before_and_after_per_mount(
    client: Client, user: User, tmp_path: Path
) -> None:
    text = measured_bundle(tmp_path)
    document = measured_document(text)
    measured = next(e for e in document["storage"] if "measured_mb_s" in e)
    for key in [k for k in measured if k.startswith("measured_")]:
        del measured[key]  # an earlier reading, of the lower figure alone
    measured["measured_mb_s"] = BEFORE_MB_S
    # The assessment lists its file systems in another order than the reading: matched by
    # mount point, not by position.
    document["storage"].reverse()
    assessment = saved(user, document)
    client.force_login(user)

    page = client.post(reverse("web:verify", args=[assessment.pk]), {"text": text})

    assert page.status_code == 200
    body = html.unescape(page.content.decode())
    assert "Measured throughput: before → after" in body
    before = next(b for b in bars(parse_stored(document)) if b.mount == measured["mount"])
    after_doc = copy.deepcopy(document)
    read = {e["mount"]: e for e in draft(text).document["storage"]}
    for e in after_doc["storage"]:
        for key in [k for k in e if k.startswith("measured_")]:
            del e[key]
        e.update({k: v for k, v in read[e["mount"]].items() if k.startswith("measured_")})
    after = next(b for b in bars(parse_stored(after_doc)) if b.mount == measured["mount"])
    assert before.lower.per_core == round(BEFORE_MB_S / before.cores, 1)
    assert after.lower.mb_s != BEFORE_MB_S
    # The bundle's 16 MiB are read back from the page cache: that read is not judged.
    assert after.read is not None and after.read.words == CACHE_WORDS
    row = body.split("measured-compare", 1)[1].split("</table>", 1)[0]
    assert f'{measured["name"]} <span class="muted">{measured["mount"]}</span>' in row
    sides = [before.lower, *(d for _, d in directions(after))]
    for side in sides:
        assert f"{side.per_core:g} MB/s per core ({side.mb_s:g} MB/s), {side.words}" in row
    # Each before and after cell ends in its verdict in words, never in stray punctuation.
    for cell in cells(row):
        assert cell == "not measured" or cell.endswith(VERDICTS), cell
    # Before was a lower figure of another tool: the change of method is said.
    assert "Method changed (before: tool not recorded; after: dd" in row


def cells(row: str) -> list[str]:
    """The before and after cells' text (the third and fourth cell of each row)."""
    found = []
    for tr in re.findall(r"<tr>(.*?)</tr>", row, re.S):
        tds = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        found += [" ".join(re.sub(r"<[^>]+>", " ", td).split()) for td in tds[1:3]]
    return found


def test_each_cell_says_its_verdict_and_a_change_of_method_is_said() -> None:
    stored = copy.deepcopy(example("linux-rhel9-sas94"))
    stored["storage"][0] |= {"measured_read_mb_s": 256000.0, "measured_write_mb_s": 1520.0,
                             "measured_read_cached": True, "measured_by": "dd"}  # fmt: skip
    newer = {"mount": "/saswork", "measured_read_mb_s": 2000.0, "measured_write_mb_s": 2000.0,
             "measured_by": "dd --direct"}  # fmt: skip
    reading = {"storage": [newer]}
    page = html.unescape(render_to_string(
        "assessments/_measured_verify.html", {"compared": before_after(stored, reading)}
    ))  # fmt: skip
    assert cells(page) == [
        f"16000 MB/s per core (256000 MB/s), {CACHE_WORDS}",
        "125 MB/s per core (2000 MB/s), in band",
        "95 MB/s per core (1520 MB/s), short",
        "125 MB/s per core (2000 MB/s), in band",
    ]
    assert "Method changed (before: dd, read may be the page cache; after: dd --direct)" in page


def test_a_reading_without_measurements_shows_no_before_after(
    client: Client, user: User, tmp_path: Path
) -> None:
    document = measured_document(measured_bundle(tmp_path))
    assessment = saved(user, document)
    stripped = {**document, "storage": [{"mount": e["mount"]} for e in document["storage"]]}
    assert before_after(assessment.inventory, stripped) is None
    elsewhere = {"storage": [{"mount": "/elsewhere", "measured_mb_s": 500.0}]}
    found = before_after(assessment.inventory, elsewhere)
    assert found is not None and found.rows == [] and found.unmatched == ["/elsewhere"]
