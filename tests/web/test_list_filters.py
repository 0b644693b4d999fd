"""The assessment list filtered by source (typed, read from a server, fleet) and by fleet,
in the address; fleet servers left out by default with a count and a link; a bad value is
a message naming the parameter, never a 500; the queries stay bounded with 2,000 fleet
servers."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from advisor.assessments.services import assessment_create
from advisor.fleets import services
from advisor.fleets.reading import read_fleet
from advisor.models import Fleet
from tests.fleets.conftest import fleet, ndjson

Capture = Callable[..., Any]
HTMX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


def upload(user: User, count: int, capture: Capture, prefix: str = "sas") -> Fleet:
    documents = fleet(count)
    for n, document in enumerate(documents):
        document["server"]["hostname"] = f"{prefix}{n:04d}"
    with capture(execute=True):
        created, _ = services.fleet_create(
            user=user, entries=read_fleet(ndjson(documents), "application/x-ndjson")
        )
    return created


@pytest.fixture
def estate(
    user: User, lemans: dict[str, Any], django_capture_on_commit_callbacks: Capture
) -> dict[str, Any]:
    typed, _ = assessment_create(
        user=user, document={**lemans, "server": {**lemans["server"], "hostname": "typedhost"}}
    )
    read_doc = copy.deepcopy(lemans)
    read_doc["server"]["hostname"] = "readhost"
    read_doc["current"] = {}
    read, _ = assessment_create(user=user, document=read_doc)
    first = upload(user, 6, django_capture_on_commit_callbacks, "fleeta")
    second = upload(user, 3, django_capture_on_commit_callbacks, "fleetb")
    return {"typed": typed, "read": read, "first": first, "second": second}


def hosts(html: str) -> list[str]:
    return re.findall(r'<td data-label="Host name"><a href="[^"]+">([^<]+)</a>', html)


def test_fleet_servers_are_left_out_by_default_with_a_count_and_a_link(
    client_in: Client, estate: dict[str, Any]
) -> None:
    html = client_in.get(reverse("web:list")).content.decode()
    assert sorted(hosts(html)) == ["readhost", "typedhost"]
    assert "9 fleet servers not listed here" in html
    assert 'href="?source=fleet"' in html


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"source": "typed"}, ["typedhost"]),
        ({"source": "read"}, ["readhost"]),
        (
            {"source": "fleet"},
            [f"fleeta{n:04d}" for n in range(6)] + [f"fleetb{n:04d}" for n in range(3)],
        ),
        ({"source": "all", "q": "fleetb"}, ["fleetb0000", "fleetb0001", "fleetb0002"]),
        ({"source": "fleet", "q": "host"}, []),
    ],
)
def test_the_list_filters_by_source(
    client_in: Client, estate: dict[str, Any], params: dict[str, str], expected: list[str]
) -> None:
    html = client_in.get(reverse("web:list"), params).content.decode()
    assert sorted(hosts(html)) == sorted(expected)
    assert "not listed here" not in html


def test_the_list_filters_by_fleet_and_keeps_the_filters_in_its_links(
    client_in: Client, user: User, estate: dict[str, Any]
) -> None:
    second = estate["second"]
    html = client_in.get(reverse("web:list"), {"fleet": second.pk}).content.decode()
    assert sorted(hosts(html)) == ["fleetb0000", "fleetb0001", "fleetb0002"]
    assert f'<option value="{second.pk}" selected>' in html
    fragment = client_in.get(reverse("web:list"), {"fleet": second.pk}, **HTMX).content.decode()
    assert "<html" not in fragment and sorted(hosts(fragment)) == [
        "fleetb0000",
        "fleetb0001",
        "fleetb0002",
    ]
    picked = re.findall(r'name="(source|fleet)" value="([^"]+)"', fragment)
    assert ("fleet", str(second.pk)) in picked  # the compare form keeps the filter


@pytest.mark.parametrize(
    ("params", "message"),
    [
        (
            {"source": "robots"},
            "source: choose one of typed, read, fleet, all (not &#x27;robots&#x27;).",
        ),
        ({"fleet": "abc"}, "fleet: a fleet&#x27;s number, like 12 (not &#x27;abc&#x27;)."),
        ({"fleet": "9" * 30}, "fleet: a fleet&#x27;s number, like 12"),
        ({"fleet": "999999"}, "fleet: your organisation has no fleet #999999."),
        ({"source": "x\x00y"}, "A query parameter holds a NUL character: source."),
        (
            {"source": "fleet" * 100},
            "source: choose one of typed, read, fleet, all (not &#x27;fleetfleet",
        ),
    ],
)
def test_a_bad_filter_is_a_message_naming_it_not_a_500(
    client_in: Client, estate: dict[str, Any], params: dict[str, str], message: str
) -> None:
    response = client_in.get(reverse("web:list"), params)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert hosts(response.content.decode()) == []


def test_another_organisations_fleet_is_no_filter(
    outsider_client: Client, estate: dict[str, Any]
) -> None:
    response = outsider_client.get(reverse("web:list"), {"fleet": estate["first"].pk})
    assert response.status_code == 400 and "has no fleet" in response.content.decode()


@pytest.mark.slow
def test_the_list_reads_a_bounded_number_of_queries_beside_2000_fleet_servers(
    client_in: Client, user: User, estate: dict[str, Any],
    django_capture_on_commit_callbacks: Capture, django_assert_max_num_queries: Any,
) -> None:  # fmt: skip
    big = upload(user, 2000, django_capture_on_commit_callbacks, "big")
    for params in (
        {},
        {"source": "fleet"},
        {"fleet": big.pk, "page": 40},
        {"source": "all", "q": "big1"},
    ):
        with django_assert_max_num_queries(10):
            response = client_in.get(reverse("web:list"), params)
        assert response.status_code == 200
    html = client_in.get(reverse("web:list")).content.decode()
    assert "2009 fleet servers not listed here" in html
    last = client_in.get(reverse("web:list"), {"fleet": big.pk, "page": 80}).content.decode()
    assert "Page 80 of 80" in last and f"fleet={big.pk}&amp;page=79" in last


def test_the_compare_picker_suggests_and_reads_a_label_a_number_or_a_host(
    client_in: Client, estate: dict[str, Any]
) -> None:
    typed, read = estate["typed"], estate["read"]
    html = client_in.get(reverse("web:compare", args=[typed.pk, read.pk])).content.decode()
    assert 'list="compare-again-options"' in html and '<label for="compare-again">' in html
    options = re.findall(r'<option value="([^"]+)">', html)
    assert any(
        o.startswith("typedhost ") and " — 20" in o and o.endswith(f"(#{typed.pk})")
        for o in options
    )
    assert any(" · fleet #" in o for o in options)  # a fleet's server says so
    assert not any(o.endswith(f"(#{read.pk})") for o in options)  # not itself
    pick = reverse("web:compare-pick", args=[read.pk])
    label = next(o for o in options if o.endswith(f"(#{typed.pk})"))
    for text in (label, str(typed.pk), f"#{typed.pk}", "TYPEDHOST"):
        response = client_in.get(pick, {"other": text})
        assert response["Location"] == reverse("web:compare", args=[read.pk, typed.pk]), text
    missed = client_in.get(pick, {"other": "nohost"}, follow=True)
    assert "Compare with: no assessment is “nohost”" in missed.content.decode()


def test_another_organisations_assessment_is_never_picked(
    outsider_client: Client, client_in: Client, estate: dict[str, Any], outsider: User,
    lemans: dict[str, Any],
) -> None:  # fmt: skip
    theirs, _ = assessment_create(user=outsider, document=lemans)
    pick = reverse("web:compare-pick", args=[theirs.pk])
    response = outsider_client.get(pick, {"other": str(estate["typed"].pk)})
    assert response["Location"] == reverse("web:assessment", args=[theirs.pk])


def test_the_list_names_each_os_as_its_vendor_does(
    client_in: Client, estate: dict[str, Any]
) -> None:
    html = client_in.get(reverse("web:list"), {"source": "fleet"}).content.decode()
    shown = set(re.findall(r'<td data-label="OS">([^<]+)</td>', html))
    assert {"AIX 5.3", "RHEL 9.4", "Windows 10.0 (Server 2016-2025)"} <= shown, shown
