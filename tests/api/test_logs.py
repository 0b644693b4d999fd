"""The SAS log API: post a log as text, read its analysis, tie it to an assessment; bad
input is a 400 naming the log, nothing stored; other organisations see nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from advisor.logs import services
from advisor.models import JobLog, Organisation

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "parse" / "saslog"
SORT = (
    "1    options fullstimer memsize=2G;\n"
    "NOTE: PROCEDURE SORT used (Total process time):\n"
    "      real time           52:32.08\n"
    "      user cpu time       24:41.30\n"
    "      system cpu time     8:29.05\n"
)


def post_log(api: APIClient, text: str | bytes, **params: Any) -> Any:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return api.post(f"/api/v1/logs/?{query}", text, content_type="text/plain")


def test_a_log_is_diagnosed_stored_and_listed(api: APIClient) -> None:
    response = post_log(api, SORT, name="nightly.log")
    assert response.status_code == 201, response.content
    body = response.json()
    assert response["Location"].endswith(f"/api/v1/logs/{body['id']}/")
    assert body["name"] == "nightly.log" and body["step_count"] == 1
    rules = [f["rule"] for f in body["analysis"]["findings"]]
    assert rules == ["log.sort_spill"]
    assert body["saving_seconds"] > 500
    listed = api.get("/api/v1/logs/").json()["results"]
    assert [row["id"] for row in listed] == [body["id"]]
    detail = api.get(body["url"]).json()
    assert detail["analysis"]["timeline"][0]["name"] == "PROC SORT"


def test_bad_logs_are_refused_by_name_and_nothing_is_stored(api: APIClient) -> None:
    binary = post_log(api, b"\x00\x01SAS", name="x.sas7bdat")
    assert binary.status_code == 400
    assert binary.json()["errors"]["log"] == ["is a binary file, not a SAS log"]
    assert post_log(api, "").json()["errors"]["log"] == ["is empty"]
    wrong_type = api.post("/api/v1/logs/", {"log": SORT}, format="json")
    assert wrong_type.status_code == 415
    bad_assessment = post_log(api, SORT, assessment="x")
    assert bad_assessment.json()["errors"]["assessment"] == ["must be an assessment id"]
    assert JobLog.objects.count() == 0


@pytest.mark.django_db
def test_over_the_limit_is_refused_before_anything_is_stored(org: Organisation) -> None:
    with override_settings(MAX_LOG_BYTES=1024), pytest.raises(services.LogError) as refused:
        services.log_create(
            organisation=org, user=None, name="big.log", chunks=[SORT.encode() * 20]
        )
    assert refused.value.message == "is larger than 1,024 bytes"
    assert JobLog.objects.count() == 0


def test_a_line_without_an_end_is_cut_not_held(org: Organisation) -> None:
    row = services.log_create(
        organisation=org, user=None, name="one.log", chunks=[b"x" * 200_000, SORT.encode()]
    )
    assert row.step_count == 1


def test_attaching_compares_the_options_with_the_assessment(
    api: APIClient, lemans: dict[str, Any]
) -> None:
    assessment = api.post("/api/v1/assessments/", lemans, format="json").json()
    log_id = post_log(api, SORT).json()["id"]
    attached = api.patch(f"/api/v1/logs/{log_id}/", {"assessment": assessment["id"]},
                         format="json")  # fmt: skip
    assert attached.status_code == 200, attached.content
    rows = {row["option"]: row for row in attached.json()["analysis"]["options"]}
    assert rows["MEMSIZE"]["echoed"] == "2G" and rows["MEMSIZE"]["line"] == 1
    assert rows["MEMSIZE"]["differs"] is (rows["MEMSIZE"]["recommended"] != "2G")
    assert attached.json()["assessment"] == assessment["id"]
    assert api.patch(f"/api/v1/logs/{log_id}/", {}, format="json").status_code == 400


def test_another_organisation_finds_nothing(api: APIClient, outsider_api: APIClient) -> None:
    log_id = post_log(api, SORT).json()["id"]
    assert outsider_api.get(f"/api/v1/logs/{log_id}/").status_code == 404
    assert outsider_api.patch(f"/api/v1/logs/{log_id}/", {"assessment": None},
                              format="json").status_code == 404  # fmt: skip
    assert outsider_api.get("/api/v1/logs/").json()["results"] == []


def test_a_real_log_through_the_api(api: APIClient) -> None:
    text = (LOGS / "unix94_fullstimer_wrapped_sspkmnd.log").read_text()
    body = post_log(api, text).json()
    assert body["step_count"] == 3 and body["analysis"]["problems"] == []


def test_nul_characters_inside_a_log_are_dropped_not_stored(api: APIClient) -> None:
    text = "x\n" * 5000 + "NOTE: This session is executing on the Li\x00nux platform.\n" + SORT
    response = post_log(api, text, name="n%00ul.log")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "nul.log"
    assert body["analysis"]["header"]["platform"] == "Linux"


@pytest.mark.parametrize(
    ("sent", "stored"),
    [("%0a%0aERROR:%20forged%0d.log", "ERROR: forged.log"), ("a%09b%1b[31m.log", "ab[31m.log"),
     ("%0a%0d%7f", "pasted log")],
)  # fmt: skip
def test_control_characters_are_dropped_from_a_log_name(
    api: APIClient, sent: str, stored: str
) -> None:
    response = post_log(api, SORT, name=sent)
    assert response.status_code == 201, response.content
    assert response.json()["name"] == stored
    assert JobLog.objects.get().name == stored


def test_an_uploaded_file_name_loses_its_control_characters_too(org: Organisation) -> None:
    row = services.log_create(
        organisation=org, user=None, name="night\nly\r\x1b.log", chunks=[SORT.encode()]
    )
    assert row.name == "nightly.log"
