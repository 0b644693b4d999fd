"""Verify with memory: each verify that judged something is kept; the assessment page says
when it was last verified, a history lists every one and shows each again. Another
organisation's history and verifications are 404s."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError
from django.test import Client
from django.urls import reverse

from advisor.assessments import reading, verifications
from advisor.audit.models import AuditEvent
from advisor.models import Assessment, Verification
from rules.measured_verify import figure
from tests.stored_results import lemans_reading
from tests.web.measured_bundle import measured_bundle, measured_document
from tests.web.measured_bundle import saved as measured_saved
from tests.web.test_verify_page import newer_bundle, saved, url

__all__ = ["saved"]  # the fixture, shared with the verify page's tests
pytestmark = pytest.mark.django_db
DAY = datetime(2026, 11, 20, 9, 30, tzinfo=UTC)


def history(assessment: Assessment) -> str:
    return reverse("web:verifications", args=[assessment.pk])


def detail(assessment: Assessment) -> str:
    return reverse("web:assessment", args=[assessment.pk])


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("\xa0", " ").split())


def test_a_pasted_verify_is_kept_with_its_counts(
    client_in: Client, saved: Assessment, user: User
) -> None:
    page = client_in.post(url(saved), {"text": newer_bundle(saved)}).content.decode()
    kept = Verification.objects.get()
    assert (kept.assessment, kept.created_by, kept.source) == (saved, user, "paste")
    assert (kept.non_compliant, kept.compliant, kept.not_verified) == (5, 7, 12)
    assert kept.rules_version == saved.rules_version
    assert len(kept.result["rows"]) == 24 and kept.result["host"]["hostname"] == "vm"
    stored = page.split('id="verify-stored">', 1)[1].split("</p>", 1)[0]
    assert f'<time datetime="{kept.created_at.isoformat()}">' in stored
    assert f'<a href="{history(saved)}">verification history</a>' in stored


def test_an_upload_is_kept_as_uploaded(client_in: Client, saved: Assessment) -> None:
    upload = SimpleUploadedFile("bundle.txt", newer_bundle(saved).encode(), "text/plain")
    assert client_in.post(url(saved), {"upload": upload}).status_code == 200
    assert Verification.objects.get().source == "upload"


@pytest.mark.parametrize(
    ("sent", "code"),
    [({"text": ""}, 400), ({"text": lemans_reading()}, 400), ({"text": "hello\n"}, 200)],
    ids=["empty", "another-os", "nothing-read"],
)
def test_a_refused_verify_or_one_that_read_nothing_is_not_kept(
    client_in: Client, saved: Assessment, sent: dict[str, str], code: int
) -> None:
    response = client_in.post(url(saved), sent)
    assert response.status_code == code
    assert not Verification.objects.exists()
    assert "Last verified" not in client_in.get(detail(saved)).content.decode()


def test_the_assessment_page_says_when_it_was_last_verified(
    client_in: Client, saved: Assessment
) -> None:
    for _ in range(2):
        client_in.post(url(saved), {"text": newer_bundle(saved)})
    newest = Verification.objects.first()
    assert newest is not None and Verification.objects.count() == 2
    page = client_in.get(detail(saved)).content.decode()
    shown = page.split('id="verify-last">', 1)[1].split("</p>", 1)[0]
    assert shown.startswith(f'<a href="{history(saved)}">Last verified <time datetime="')
    assert text_of(shown).endswith(": 5 not compliant, 7 compliant, 12 not verified")
    assert f'datetime="{newest.created_at.isoformat()}"' in shown


def test_the_words_come_from_timesince_given_now(saved: Assessment) -> None:
    kept = Verification(assessment=saved, created_at=DAY, non_compliant=2, compliant=20,
                        not_verified=6, result={})  # fmt: skip
    later = DAY + timedelta(days=3, hours=5)
    assert verifications.last_verified_text(kept, later) == (
        "Last verified 3 days ago: 2 not compliant, 20 compliant, 6 not verified"
    )
    assert verifications.ago(DAY, DAY + timedelta(seconds=20)) == "just now"
    assert verifications.ago(DAY, DAY + timedelta(minutes=1)) == "1 minute ago"


def test_the_history_lists_each_and_shows_it_again(client_in: Client, saved: Assessment) -> None:
    client_in.post(url(saved), {"text": newer_bundle(saved)})
    kept = Verification.objects.get()
    listed = client_in.get(history(saved)).content.decode()
    one = reverse("web:verification", args=[saved.pk, kept.pk])
    row = listed.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert f'<a href="{one}"><time datetime="{kept.created_at.isoformat()}">' in row
    assert text_of(row).endswith("alice pasted 5 7 12")
    again = client_in.get(one).content.decode()
    assert "by alice, from a reading pasted" in text_of(again)
    assert '<span class="badge drift">5 not compliant</span>' in again
    body = again.split("verify-table", 1)[1]
    assert body.index('class="non-compliant"') < body.index('class="compliant"')
    assert "<code>MEMSIZE</code>" in body and '<td data-label="Actual"><code>8G</code></td>' in body


def test_rows_not_verified_say_how_on_the_page(client_in: Client, saved: Assessment) -> None:
    page = client_in.post(url(saved), {"text": newer_bundle(saved)}).content.decode()
    body = page.split("verify-table", 1)[1].split("</table>", 1)[0]
    rows = {re.search(r"<code>([^<]*)</code>", r).group(1): r  # type: ignore[union-attr]
            for r in body.split("</tr>") if '<th scope="row">' in r}  # fmt: skip
    assert '<td data-label="How to verify"></td>' in rows["MEMSIZE"]  # verified: no hint
    assert "`tuned-adm active` names it); the collector does not read the governor: run " \
           "`cpupower frequency-info -p`" in rows["governor"]  # fmt: skip
    assert (
        "a read-only check, not verifiable from the server: run it there by hand (`df -T /`)"
        in (rows["df -T /"])
    )
    assert "advice for jobs and programs, not a setting" in rows["BUFNO"]


def test_an_empty_history_says_so(client_in: Client, saved: Assessment) -> None:
    page = client_in.get(history(saved)).content.decode()
    assert "Not verified yet." in page


def test_what_is_kept_is_bounded(saved: Assessment) -> None:
    checked = reading.verify_assessment(assessment=saved, text=newer_bundle(saved))
    long_row = dataclasses.replace(checked.rows[0], current="/" + "x" * 3000)
    huge = dataclasses.replace(checked, rows=[long_row] * (verifications.MAX_ROWS + 5))
    kept = verifications.stored_result(huge, measured=[{}] * 100)
    assert len(kept["rows"]) == verifications.MAX_ROWS
    assert len(kept["rows"][0]["current"]) == verifications.MAX_VALUE
    assert kept["rows"][0]["current"].endswith("…")
    assert len(kept["measured"]) == verifications.MAX_MEASURED


def test_an_outsider_sees_no_history_and_no_verification(
    client_in: Client, outsider_client: Client, saved: Assessment
) -> None:
    client_in.post(url(saved), {"text": newer_bundle(saved)})
    kept = Verification.objects.get()
    assert outsider_client.get(history(saved)).status_code == 404
    one = reverse("web:verification", args=[saved.pk, kept.pk])
    assert outsider_client.get(one).status_code == 404


def test_a_verification_is_read_only_under_its_own_assessment(
    client_in: Client, saved: Assessment, user: User
) -> None:
    client_in.post(url(saved), {"text": newer_bundle(saved)})
    kept = Verification.objects.get()
    other = Assessment.objects.get(pk=saved.pk)
    other.pk = None
    other.save()
    assert client_in.get(reverse("web:verification", args=[other.pk, kept.pk])).status_code == 404
    assert client_in.post(reverse("web:verification", args=[saved.pk, kept.pk])).status_code == 405
    assert client_in.get(reverse("web:verification", args=[saved.pk, kept.pk])).status_code == 200


def test_a_kept_verification_shows_its_measured_throughput_again(
    client: Client, user: User, tmp_path: Path
) -> None:
    text = measured_bundle(tmp_path)
    assessment = measured_saved(user, measured_document(text))
    client.force_login(user)
    client.post(url(assessment), {"text": text})
    kept = Verification.objects.get()
    records = kept.result["measured"]
    assert records and {r["mount"] for r in records} <= {
        e["mount"] for e in assessment.inventory["storage"]
    }
    again = client.get(reverse("web:verification", args=[assessment.pk, kept.pk]))
    body = again.content.decode()
    assert "Measured throughput: before → after" in body
    first = records[0]["after"]
    shown = f"{figure(first['per_core'])} MB/s per core ({figure(first['mb_s'])} MB/s)"
    assert f"{shown}, {first['words']}" in html.unescape(body)


def test_a_verify_is_audited_with_its_counts(client_in: Client, saved: Assessment) -> None:
    client_in.post(url(saved), {"text": newer_bundle(saved)})
    kept = Verification.objects.get()
    event = AuditEvent.objects.get(action="assessment.verify")
    assert event.actor_name == "alice" and event.target.startswith(f"assessment {saved.pk} ")
    assert event.changes == {
        "verification": [None, kept.pk], "non_compliant": [None, 5], "compliant": [None, 7],
        "not_verified": [None, 12],
    }  # fmt: skip


def test_nothing_is_half_written_when_the_audit_fails(
    client_in: Client, saved: Assessment, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**_: Any) -> None:
        raise DatabaseError("the audit table is gone")

    monkeypatch.setattr(verifications, "record", broken)
    with pytest.raises(DatabaseError):
        client_in.post(url(saved), {"text": newer_bundle(saved)})
    assert not Verification.objects.exists()
