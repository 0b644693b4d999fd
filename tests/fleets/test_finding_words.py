"""A finding shared by servers with different figures is named by its rule, never by one
server's figures; a fleet server's problem is numbered as the page numbers it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User

from advisor.fleets import findings
from advisor.templatetags.words import fleet_problem
from rules.catalog import BY_ID
from tests.conftest import example
from tests.fleets.test_estate import upload

pytestmark = pytest.mark.django_db


def test_a_warning_with_each_servers_own_figures_is_named_by_its_rule(
    user: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    big, small = example("linux-128cpu-multiuser"), copy.deepcopy(example("linux-128cpu-multiuser"))
    small["server"] |= {"hostname": "small01", "cpus": 16, "cores": 8, "smt_threads": 2}
    fleet = upload(user, [big, small], django_capture_on_commit_callbacks)
    (throughput,) = [f for f in findings.compute(fleet) if f["rule"] == "throughput.estimate"]
    assert throughput["count"] == 2
    assert throughput["title"] == (
        f"{BY_ID['throughput.estimate'].title} (the figures differ by server)"
    )
    assert throughput["action"].startswith("On the first of them: Estimated ")


def test_setting_findings_name_the_setting_as_an_admin_writes_it(
    user: User, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    fleet = upload(user, [example("linux-rhel9-sas94")], django_capture_on_commit_callbacks)
    titles = [f["title"] for f in findings.compute(fleet) if f["kind"] == "setting"]
    assert titles and not any(":mount" in t or ":disk" in t for t in titles), titles


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("servers[13].server.hostname: must be 1-64 characters of [A-Za-z0-9_.-]",
         "Server 14 · Host name: must be 1-64 characters of letters, digits, '_', '.' and '-'"),
        ("servers[2].storage[1].mount: duplicates storage[0].mount",
         "Server 3 · Storage 2 · Mount point: duplicates Storage 1 · Mount point"),
        ("servers[0]: timed out", "Server 1: timed out"),
    ],
)  # fmt: skip
def test_a_fleet_servers_problem_is_numbered_as_the_page_numbers_it(
    stored: str, shown: str
) -> None:
    assert fleet_problem(stored) == shown
