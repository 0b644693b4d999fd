"""The SAS log pages: upload several logs, see them ranked, open one, attach it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from advisor.models import Assessment, JobLog
from tests.conftest import example

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "parse" / "saslog"
SORT = (
    "NOTE: PROCEDURE SORT used (Total process time):\n"
    "      real time           52:32.08\n"
    "      user cpu time       24:41.30\n"
    "      system cpu time     8:29.05\n"
)


def upload(name: str, text: str | bytes) -> SimpleUploadedFile:
    data = text.encode() if isinstance(text, str) else text
    return SimpleUploadedFile(name, data, content_type="text/plain")


def test_a_night_of_logs_is_ranked_by_what_it_could_save(client_in: Client) -> None:
    quick = (LOGS / "unix94_fullstimer_wrapped_sspkmnd.log").read_text()
    response = client_in.post(
        "/logs/", {"files": [upload("quick.log", quick), upload("sort.log", SORT)]}
    )
    assert response.status_code == 302 and response["Location"] == "/logs/"
    page = client_in.get("/logs/").content.decode()
    assert page.index("sort.log") < page.index("quick.log")


def test_one_log_opens_on_its_timeline_and_findings(client_in: Client) -> None:
    response = client_in.post("/logs/", {"text": SORT})
    assert response.status_code == 302
    page = client_in.get(response["Location"]).content.decode()
    assert "<svg" in page and "1 PROC SORT" in page
    assert "sorted on disk" in page and "SORTSIZE up to 4G" in page


def test_bad_uploads_name_the_file_and_store_nothing(client_in: Client) -> None:
    response = client_in.post("/logs/", {"files": [upload("data.sas7bdat", b"\x00\x00")]})
    assert response.status_code == 400
    assert "data.sas7bdat: is a binary file, not a SAS log" in response.content.decode()
    assert client_in.post("/logs/", {"text": "  "}).status_code == 400
    assert JobLog.objects.count() == 0


def test_attach_to_an_assessment_and_outsiders_see_nothing(
    client_in: Client, outsider_client: Client, user: Any
) -> None:
    from advisor.assessments.services import assessment_create

    assessment, _ = assessment_create(
        user=user, document=example("lemans-aix53-etl"), idempotency_key=None
    )
    client_in.post("/logs/", {"text": "1  options memsize=1G;\n" + SORT})
    job_log = JobLog.objects.get()
    response = client_in.post(f"/logs/{job_log.pk}/attach/", {"assessment": assessment.pk})
    assert response.status_code == 302
    job_log.refresh_from_db()
    assert job_log.assessment == assessment
    page = client_in.get(f"/logs/{job_log.pk}/").content.decode()
    assert "MEMSIZE" in page and "1G" in page
    assert outsider_client.get(f"/logs/{job_log.pk}/").status_code == 404
    assert outsider_client.post(f"/logs/{job_log.pk}/attach/", {}).status_code == 404
    assert Assessment.objects.count() == 1
