"""The worst fleet uploads through the real views, API and web: each answers 4xx naming
the member, line, field or parameter, stores nothing, and costs the process under
WORST_CASE_BYTES (tracemalloc's peak over the request, less the test client's own copy
of the body, which on a server is a socket)."""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from rest_framework.test import APIClient

from advisor.models import Assessment, Fleet, FleetItem
from tests.fleets.bombs import deflate_bomb, empty_objects, gigabyte_bomb
from tests.fleets.conftest import fleet, ndjson

FLEETS_API = "/api/v1/fleets/"
FLEETS_PAGE = "/fleets/"
WORST_CASE_BYTES = 100 * 2**20
SIXTY_MB = 60 * 10**6
HUGE = b"1" + b"0" * 5000


def measured(call: Callable[[], Any], wire: int) -> tuple[Any, int]:
    tracemalloc.start()
    try:
        response = call()
        return response, tracemalloc.get_traced_memory()[1] - wire
    finally:
        tracemalloc.stop()


def api_upload(api: APIClient, body: bytes, kind: str) -> tuple[Any, int]:
    return measured(lambda: api.generic("POST", FLEETS_API, body, kind), len(body))


def page_upload(client: Client, body: bytes, name: str, kind: str) -> tuple[Any, int]:
    upload = _File(body, name, kind)
    form = encode_multipart(BOUNDARY, {"file": upload, "name": "night"})
    return measured(lambda: client.generic("POST", FLEETS_PAGE, form, MULTIPART_CONTENT), len(form))


class _File:
    """What encode_multipart takes as a file: a name, a content type and read()."""

    def __init__(self, body: bytes, name: str, kind: str) -> None:
        self.body, self.name, self.content_type = body, name, kind

    def read(self) -> bytes:
        return self.body


def nothing_stored() -> bool:
    return not (Fleet.objects.exists() or FleetItem.objects.exists() or Assessment.objects.exists())


WORST = {
    "bzip2 bomb": (lambda: gigabyte_bomb(40), "bombs.zip", "application/zip", 400,
                   "bomb00.json is compressed with method 12"),
    "deflate bomb": (lambda: deflate_bomb(4), "bombs.zip", "application/zip", 413,
                     "bomb00.json is over 4.0 MiB"),
    "60 MB array": (lambda: empty_objects(SIXTY_MB), "fleet.json", "application/json", 413,
                    "send NDJSON (one inventory a line) or a zip"),
    "60 MB line": (lambda: b'{"x": "' + b"y" * SIXTY_MB + b'"}\n', "fleet.ndjson",
                   "application/x-ndjson", 413, "line 1 is over 4.0 MiB"),
}  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("case", list(WORST))
def test_the_worst_uploads_are_refused_by_the_api_in_bounded_memory(
    api: APIClient, case: str
) -> None:
    make, _, kind, status, message = WORST[case]

    response, peak = api_upload(api, make(), kind)

    assert response.status_code == status, response.content
    assert message in json.dumps(response.json())
    assert peak < WORST_CASE_BYTES, f"{case}: {peak / 2**20:.1f} MiB"
    assert nothing_stored()


@pytest.mark.slow
@pytest.mark.parametrize("case", list(WORST))
def test_the_worst_uploads_are_refused_by_the_page_in_bounded_memory(
    client_in: Client, case: str
) -> None:
    make, name, kind, status, message = WORST[case]

    response, peak = page_upload(client_in, make(), name, kind)

    assert response.status_code == status
    assert message in response.content.decode()
    assert peak < WORST_CASE_BYTES, f"{case}: {peak / 2**20:.1f} MiB"
    assert nothing_stored()


NUMBERS = [(HUGE, "an integer of 5,001 digits"), (b"NaN", "NaN is not a number JSON allows"),
           (b"99999999999999999999999", "an integer of 23 digits")]  # fmt: skip


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_an_array_with_a_number_no_column_stores_is_a_400_naming_its_path(
    api: APIClient, client_in: Client, number: bytes, message: str
) -> None:
    good = json.dumps(fleet(1)).encode()
    body = good[:-1] + b', {"server": {"cpus": ' + number + b"}}]"

    answer, _ = api_upload(api, body, "application/json")
    page, _ = page_upload(client_in, body, "fleet.json", "application/json")

    assert answer.status_code == 400
    [(path, [said])] = answer.json()["errors"].items()
    assert path == "servers[1].server.cpus" and said.startswith(message)
    assert page.status_code == 400
    assert f"fleet.json: servers[1].server.cpus: {message}" in page.content.decode()
    assert nothing_stored()


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_an_ndjson_line_with_such_a_number_fails_alone_naming_line_and_path(
    api: APIClient, number: bytes, message: str, django_capture_on_commit_callbacks: Any
) -> None:
    body = ndjson(fleet(1)) + b'{"server": {"hostname": "h", "cpus": ' + number + b"}}\n"

    with django_capture_on_commit_callbacks(execute=True):
        answer, _ = api_upload(api, body, "application/x-ndjson")

    assert answer.status_code == 202
    failed = FleetItem.objects.get(position=1)
    assert (failed.label, failed.status, failed.document) == ("line 2", "failed", None)
    assert failed.problems[0].startswith(f"servers[1]: server.cpus: {message}")
    assert Assessment.objects.count() == 1  # the good line only


@pytest.mark.parametrize("value", ["%00", "a%00b", "%01", "x%0Ay"])
def test_a_control_character_in_a_fleet_filter_is_a_400_naming_it_in_the_api(
    api: APIClient, value: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        url = api.generic("POST", FLEETS_API, ndjson(fleet(2)), "application/x-ndjson")
    servers = url.json()["servers_url"]

    for target in (servers, servers.replace("servers/", "servers.csv")):
        response = api.get(f"{target}?q={value}&group=ok")
        assert response.status_code == 400, target
        assert list(response.json()["errors"]) == ["q"]
    assert api.get(f"{servers}?q=sas0001").json()["count"] == 1


def test_a_control_character_in_a_fleet_filter_on_the_page(
    client_in: Client, api: APIClient, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.generic("POST", FLEETS_API, ndjson(fleet(2)), "application/x-ndjson")
    page = f"/fleets/{answer.json()['id']}/"
    client_in.raise_request_exception = False

    assert client_in.get(page + "?q=%00").status_code == 400
    assert client_in.get(page + "servers.csv?q=a%00").status_code == 400
    stripped = client_in.get(page + "?q=sas%010001")  # the control character dropped
    assert stripped.status_code == 200 and b"sas0001" in stripped.content
