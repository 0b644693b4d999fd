"""Numbers no column can store in the JSON the pages read (the inventory file loaded
into the form, an inventory pasted on "Start from your server"): a 400 naming the
value's JSON path, never a 500, and nothing stored."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from advisor.models import Assessment

NUMBERS = [
    ("1" + "0" * 5000, "an integer of 5,001 digits; numbers must fit in 64 bits"),
    ("123456789012345678901234", "an integer of 24 digits; numbers must fit in 64 bits"),
    ("NaN", "NaN is not a number JSON allows"),
    ("-Infinity", "-Infinity is not a number JSON allows"),
]


def with_number(document: dict[str, Any], number: str) -> str:
    document["storage"][1]["size_gb"] = "NUMBER"
    return json.dumps(document).replace('"NUMBER"', number)


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_an_inventory_file_with_such_a_number_is_a_400_naming_the_path(
    client_in: Client, lemans: dict[str, Any], number: str, message: str
) -> None:
    text = with_number(lemans, number).encode()
    upload = SimpleUploadedFile("inv.json", text, content_type="application/json")

    response = client_in.post(reverse("web:new-upload"), {"inventory": upload})

    assert response.status_code == 400
    assert f"storage[1].size_gb: {message}" in response.content.decode()
    assert Assessment.objects.count() == 0


@pytest.mark.parametrize(("number", "message"), NUMBERS)
def test_an_inventory_pasted_with_such_a_number_is_a_400_naming_the_path(
    client_in: Client, lemans: dict[str, Any], number: str, message: str
) -> None:
    response = client_in.post(reverse("web:from-server"), {"text": with_number(lemans, number)})

    assert response.status_code == 400
    assert f"storage[1].size_gb: {message}" in response.content.decode()
    assert Assessment.objects.count() == 0


def test_an_inventory_file_that_would_parse_into_too_much_is_a_400(client_in: Client) -> None:
    body = b'{"storage": [' + b"{}," * 300_000 + b"{}]}"  # 900 kB: 19 MB of dicts
    upload = SimpleUploadedFile("inv.json", body, content_type="application/json")

    response = client_in.post(reverse("web:new-upload"), {"inventory": upload})

    assert response.status_code == 400
    assert "far more values than an inventory" in response.content.decode()
