"""Current → recommended: a value read and different is a change, a value read and equal is a
keep, a value not read is unknown (never a guessed change), and a value read as absent from
its file ("(not set)") is a change: the product's default then gives way to the file."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules.compare import NOT_SET, rows, status_of
from rules.current import Current
from rules.engine import run
from rules.model import Recommendation
from rules.validate import parse as inventory_from
from rules.verify import read_advice, verify
from tests.conftest import example

MEMSIZE = Recommendation("memory.memsize", "sasv9_local.cfg", "MEMSIZE", "8G", "why", ("chew",))


@pytest.mark.parametrize(
    ("current", "status"),
    [
        ("2G", "change"),  # read, and different
        ("8G", "keep"),  # read, and the same
        ("8192M", "keep"),  # the same size written another way
        (None, "unknown"),  # not read: the file sets it whatever the server runs
        (NOT_SET, "change"),  # read, and absent: the default gives way to 8G
    ],
)
def test_the_status_says_what_was_read(current: str | None, status: str) -> None:
    assert status_of(MEMSIZE, current) == status


def test_checks_and_advice_are_checks_whatever_was_read() -> None:
    for kind in ("check", "advice"):
        rec = MEMSIZE._replace(kind=kind)
        assert {status_of(rec, v) for v in ("2G", "8G", None, NOT_SET)} == {"check"}


def _lemans(current: dict[str, Any] | None) -> dict[str, Any]:
    document = example("lemans-aix53-etl")
    return document if current is None else {**document, "current": current}


def test_a_partial_reading_gives_all_three_statuses() -> None:
    # SAS options read (MEMSIZE as recommended, CPUCOUNT not, the rest absent), one ioo
    # tunable read, vmo not read at all.
    current = {"sas_options": {"MEMSIZE": "8G", "CPUCOUNT": "4"},
               "aix_ioo": {"j2_minPageReadAhead": "2"}}  # fmt: skip
    result = rules.advise(_lemans(current))
    by_setting = {(r["target"], r["setting"]): r for r in result["recommendations"]}
    assert by_setting["sasv9_append.cfg", "MEMSIZE"]["status"] == "keep"
    assert by_setting["sasv9_append.cfg", "CPUCOUNT"]["status"] == "change"
    sortsize = by_setting["sasv9_append.cfg", "SORTSIZE"]
    assert (sortsize["current"], sortsize["status"]) == (NOT_SET, "change")
    assert by_setting["aix_tuning.sh", "j2_minPageReadAhead"]["status"] == "change"
    maxclient = by_setting["aix_tuning.sh", "maxclient%"]
    assert (maxclient["current"], maxclient["status"]) == (None, "unknown")
    # In recommendations.json an unread value is unknown, a read one never is.
    for rec in result["recommendations"]:
        if rec["kind"] == "change":
            assert (rec["status"] == "unknown") == (rec["current"] is None), rec["setting"]


def test_nothing_read_is_unknown_everywhere() -> None:
    result = rules.advise(_lemans(None))
    statuses = {r["status"] for r in result["recommendations"] if r["kind"] == "change"}
    assert statuses == {"unknown"}


def test_an_unread_value_is_neither_compliant_nor_not() -> None:
    inventory = inventory_from(_lemans(None))
    found = rows(inventory, run(inventory).recommendations, Current())
    unread = [r for r in found if r.status == "unknown"]
    assert unread and {(r.current, r.compliant) for r in unread} == {(None, None)}


def test_verify_holds_unread_values_apart_from_drift() -> None:
    # A newer reading that shows only the SAS options: MEMSIZE drifted to 2G, the AIX
    # tunables were not read, so they are unknown and not verified, not non-compliant.
    text = "# cat /usr/lpp/SAS/SASFoundation/9.1/sasv9.cfg\n-MEMSIZE 2G\n-CPUCOUNT 8\n"
    checked = verify(read_advice(rules.advise(_lemans(None))), text)
    by_setting = {r.setting: r for r in checked.rows}
    if by_setting["MEMSIZE"].current is None:
        pytest.fail(f"the reading was not understood: {checked.draft.problems}")
    assert (by_setting["MEMSIZE"].status, by_setting["MEMSIZE"].compliant) == ("change", False)
    assert (by_setting["CPUCOUNT"].status, by_setting["CPUCOUNT"].compliant) == ("keep", True)
    maxclient = by_setting["maxclient%"]
    assert (maxclient.current, maxclient.status, maxclient.compliant) == (None, "unknown", None)
    counts = checked.to_dict()
    unread = sum(1 for r in checked.rows if r.status == "unknown")
    assert counts["not_verified"] >= unread > 0
    assert counts["non_compliant"] == sum(1 for r in checked.rows if r.compliant is False)


def _aws_scheduler(devices: dict[str, dict[str, str]]) -> Any:
    """The NVMe scheduler recommendation of the AWS example against these device readings."""
    inventory = inventory_from(example("aws-i4i-rhel9-sas94m8"))
    found = rows(inventory, run(inventory).recommendations, Current(devices=devices))
    (row,) = [r for r in found if r.rule == "linux.scheduler"]
    return row


@pytest.mark.parametrize(
    ("devices", "current", "status"),
    [
        ({"nvme0n1": {"scheduler": "none"}, "nvme1n1": {"scheduler": "none"}}, "none", "keep"),
        # the namespace that falls short speaks for the set
        ({"nvme0n1": {"scheduler": "none"}, "nvme1n1": {"scheduler": "mq-deadline"}},
         "mq-deadline", "change"),
        # a namespace read without its scheduler: the set is not read
        ({"nvme0n1": {"scheduler": "none"}, "nvme1n1": {"rotational": "0"}}, None, "unknown"),
        # no NVMe disk read at all, or only a partition (which has no queue): not read
        ({"sda": {"scheduler": "none"}}, None, "unknown"),
        ({"nvme0n1p1": {"scheduler": "none"}}, None, "unknown"),
    ],
)  # fmt: skip
def test_a_setting_on_every_nvme_namespace_is_judged_on_each_one_read(
    devices: dict[str, dict[str, str]], current: str | None, status: str
) -> None:
    row = _aws_scheduler(devices)
    assert (row.current, row.status) == (current, status)
