"""Artifacts and bundle.zip: byte for byte what `manage.py advise --out DIR` writes."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.api.conftest import ASSESSMENTS, detail_url
from tests.conftest import EXAMPLES


def cli_files(document: dict[str, Any], out: Path) -> dict[str, bytes]:
    source = out / "inventory.json"
    source.write_text(json.dumps(document))
    call_command("advise", str(source), "--out", str(out / "out"))
    return {p.name: p.read_bytes() for p in (out / "out").iterdir()}


EXAMPLE_NAMES = sorted(p.stem for p in EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_file_equals_the_cli_output(api: APIClient, tmp_path: Path, name: str) -> None:
    document = json.loads((EXAMPLES / f"{name}.json").read_text())
    expected = cli_files(document, tmp_path)
    pk = api.post(ASSESSMENTS, document, format="json").json()["id"]

    for filename, data in expected.items():
        response = api.get(f"{detail_url(pk)}artifacts/{filename}")
        assert response.status_code == 200, filename
        assert response.content == data, filename
        assert response["Content-Disposition"] == f'attachment; filename="{filename}"'


def test_artifacts_are_text_plain_and_the_result_is_json(
    api: APIClient, stored: dict[str, Any]
) -> None:
    base = detail_url(stored["id"]) + "artifacts/"

    assert api.get(base + "sasv9_append.cfg")["Content-Type"] == "text/plain; charset=utf-8"
    assert api.get(base + "aix_tuning.sh")["Content-Type"] == "text/plain; charset=utf-8"
    assert api.get(base + "recommendations.json")["Content-Type"] == "application/json"


def test_files_ignore_the_accept_header(api: APIClient, stored: dict[str, Any]) -> None:
    url = detail_url(stored["id"]) + "artifacts/sasv9_append.cfg"

    response = api.get(url, HTTP_ACCEPT="text/plain")

    assert response.status_code == 200
    assert response.content.decode() == stored["artifacts"]["sasv9_append.cfg"]


def test_an_unknown_file_is_404(api: APIClient, stored: dict[str, Any]) -> None:
    for name in ("spdsserv.parm", "settings.py", "SASV9.CFG", ".sasv9.cfg.tmp"):
        response = api.get(detail_url(stored["id"]) + "artifacts/" + name)
        assert response.status_code == 404, name
        assert response.json()["code"] == "not_found"


def test_the_bundle_holds_the_cli_files(
    api: APIClient, stored: dict[str, Any], lemans: dict[str, Any], tmp_path: Path
) -> None:
    expected = cli_files(lemans, tmp_path)

    response = api.get(detail_url(stored["id"]) + "bundle.zip")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == (
        f'attachment; filename="lemans-assessment-{stored["id"]}.zip"'
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == sorted(expected)
    assert {n: archive.read(n) for n in archive.namelist()} == expected
    modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
    assert modes["aix_tuning.sh"] == 0o100755
    assert modes["sasv9_append.cfg"] == 0o100644


def test_the_bundle_is_the_same_bytes_every_time(api: APIClient, stored: dict[str, Any]) -> None:
    url = detail_url(stored["id"]) + "bundle.zip"

    assert api.get(url).content == api.get(url).content


def test_a_linux_bundle_holds_the_profile_the_script_and_the_playbook(
    api: APIClient, tmp_path: Path
) -> None:
    document = json.loads((EXAMPLES / "linux-rhel9-sas94.json").read_text())
    pk = api.post(ASSESSMENTS, document, format="json").json()["id"]
    archive = zipfile.ZipFile(io.BytesIO(api.get(detail_url(pk) + "bundle.zip").content))
    assert sorted(archive.namelist()) == [
        "ansible_linux.yml", "linux_tuning.sh", "recommendations.json", "sasv9_local.cfg",
        "tuned.conf",
    ]  # fmt: skip
    modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
    assert modes["linux_tuning.sh"] == 0o100755 and modes["tuned.conf"] == 0o100644
    assert archive.read("tuned.conf") == cli_files(document, tmp_path)["tuned.conf"]
