"""Verify holds a server against the advice its assessment gave, as stored: results of older
rules are read as they were stored, and checked against their own settings, never against
a new run of today's rules; a reading of another host or OS is refused."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.verify import AdviceError, ReadingMismatch, read_advice, verify
from rules.verify_host import same_host
from tests.stored_results import (
    LEMANS_2026_11_0,
    RHEL9_2026_11_1,
    lemans_reading,
    rhel9_reading,
    stored,
)

GOLDEN = Path(__file__).parents[1] / "golden"


def settings(rows: Any) -> list[tuple[str, str]]:
    return [(r.target, r.setting) for r in rows]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/recommendations.json")), ids=str)
def test_every_result_stored_today_reads_whole(path: Path) -> None:
    result = json.loads(path.read_text("utf-8"))
    advice = read_advice(result)
    assert settings(advice.recommendations) == [
        (r["target"], r["setting"]) for r in result["recommendations"]
    ]
    assert (advice.rules_version, advice.hostname) == (
        result["rules_version"], result["inventory"]["server"]["hostname"],
    )  # fmt: skip


def test_an_assessment_of_rules_2026_11_1_verifies_against_its_own_advice() -> None:
    result = stored(RHEL9_2026_11_1)
    advice = read_advice(result)
    checked = verify(advice, rhel9_reading())
    # The rows are the advice it gave, in its order: -BUFSIZE 1M in sasv9_local.cfg, and
    # no tuned.conf setting, though today's rules give both otherwise for this inventory.
    given = [(r["target"], r["setting"]) for r in result["recommendations"]]
    assert settings(checked.rows) == given
    today = rules.advise(result["inventory"])["recommendations"]
    assert ("tuned.conf", "vm.swappiness") in [(r["target"], r["setting"]) for r in today]
    assert ("sasv9_local.cfg", "BUFSIZE") not in [(r["target"], r["setting"]) for r in today]
    by_setting = {r.setting: r for r in checked.rows}
    assert (by_setting["BUFSIZE"].recommended, by_setting["BUFSIZE"].current) == ("1M", "1M")
    assert not checked.non_compliant and not checked.unread
    assert checked.to_dict()["compliant"] == 9 and checked.rules_version == "2026.11.1"


def test_drift_from_older_advice_names_the_setting_that_moved() -> None:
    applied = stored(RHEL9_2026_11_1)["artifacts"]["sasv9_local.cfg"]
    raised = applied.replace("\n-MEMSIZE 4G\n", "\n-MEMSIZE 8G\n").replace("-BUFSIZE 1M", "")
    checked = verify(read_advice(stored(RHEL9_2026_11_1)), rhel9_reading(config=raised))
    drift = {r.setting: (r.recommended, r.current) for r in checked.non_compliant}
    assert drift == {"MEMSIZE": ("4G", "8G"), "BUFSIZE": ("1M", "(not set)")}


def test_rules_2026_11_0_advice_is_read_under_the_file_it_named() -> None:
    advice = read_advice(stored(LEMANS_2026_11_0))
    assert (advice.rules_version, advice.config_file, advice.result_version) == (
        "2026.11.0", "sasv9.cfg", 1,
    )  # fmt: skip
    checked = verify(advice, lemans_reading())
    rows = {r.setting: r for r in checked.rows}
    assert {s: (rows[s].current, rows[s].status) for s in ("MEMSIZE", "BUFSIZE", "WORK")} == {
        "MEMSIZE": ("8G", "keep"), "BUFSIZE": ("256K", "keep"), "WORK": ("/raid0", "keep"),
    }  # fmt: skip
    # ioo -a of that AIX 6.1 box runs the defaults bartucca2005 raised: drift, read as such.
    assert {r.setting: r.current for r in checked.non_compliant} == {
        "j2_minPageReadAhead": "2", "j2_nPagesPerWriteBehindCluster": "32",
        "sync_release_ilock": "0",
    }  # fmt: skip
    # vmo -a of that page shows no maxperm%: not read, which is not drift.
    assert (rows["maxperm%"].status, rows["maxperm%"].compliant) == ("unknown", None)


def test_a_result_version_is_read_where_the_result_declares_one() -> None:
    assert read_advice({**stored(LEMANS_2026_11_0), "result_version": 2}).result_version == 2


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.pop("recommendations"), "recommendations"),
        (lambda d: d.__setitem__("recommendations", {}), "recommendations"),
        (lambda d: d["recommendations"][2].__setitem__("kind", "maybe"), "recommendations[2].kind"),
        (lambda d: d["recommendations"][0].pop("setting"), "recommendations[0].setting"),
        (lambda d: d["recommendations"][1].__setitem__("value", 4), "recommendations[1].value"),
        (lambda d: d["recommendations"][12]["extra"].pop("default"),
         "recommendations[12].extra.default"),
        (lambda d: d["recommendations"][12]["extra"].__setitem__("default", "a b"),
         "recommendations[12].extra"),
        (lambda d: d.__setitem__("result_version", "1"), "result_version"),
    ],
)  # fmt: skip
def test_a_document_that_is_no_stored_result_is_refused_by_path(change: Any, path: str) -> None:
    document = copy.deepcopy(stored(LEMANS_2026_11_0))
    assert document["recommendations"][12]["extra"]["command"] == "vmo"
    change(document)
    with pytest.raises(AdviceError) as caught:
        read_advice(document)
    assert path in [p.path for p in caught.value.problems], caught.value.problems


def test_a_list_is_not_a_result() -> None:
    with pytest.raises(AdviceError, match=r"\$: must be a result"):
        read_advice([1, 2])


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("lemans", "LEMANS", True),
        ("lemans", "lemans.example.com.", True),  # hostname -s against the FQDN
        ("sasgrid01.example.com", "sasgrid01", True),
        ("sasgrid01.example.com", "sasgrid01.other.org", False),
        ("sasgrid01", "sasgrid02", False),
        ("10.0.0.1", "10", False),
    ],
)
def test_one_host_by_its_names(a: str, b: str, same: bool) -> None:
    assert same_host(a, b) is same


def test_a_reading_of_another_host_is_refused_naming_both() -> None:
    advice = read_advice(stored(RHEL9_2026_11_1))
    with pytest.raises(ReadingMismatch) as caught:
        verify(advice, rhel9_reading(host="web07"))
    (problem,) = caught.value.problems
    assert problem.path == "server.hostname" and caught.value.renamable
    assert problem.message == (
        "the reading is of host web07 (from `hostname`, line 6), the assessment of "
        "sasgrid01.example.com"
    )
    renamed = verify(advice, rhel9_reading(host="web07"), allow_renamed_host=True)
    assert renamed.host.renamed and renamed.host.read_hostname == "web07"
    assert "verified as the same server renamed" in renamed.host.notes[0]
    assert not renamed.non_compliant


def test_a_reading_of_another_os_is_refused_whatever_the_caller_says() -> None:
    advice = read_advice(stored(LEMANS_2026_11_0))
    for allow in (False, True):
        with pytest.raises(ReadingMismatch) as caught:
            verify(advice, rhel9_reading(host="lemans"), allow_renamed_host=allow)
        assert not caught.value.renamable
        assert [p.path for p in caught.value.problems] == ["server.os"]
        assert caught.value.problems[0].message == (
            "the reading is of Linux (from `uname -a`, line 3), the assessment of AIX: a "
            "reading of another OS cannot verify this advice"
        )


def test_a_reading_that_names_no_host_is_verified_and_says_so() -> None:
    advice = read_advice(stored(LEMANS_2026_11_0))
    text = "# cat /usr/lpp/SAS/SASFoundation/9.1/sasv9.cfg\n-MEMSIZE 2G\n"
    checked = verify(advice, text)
    assert (checked.host.read_hostname, checked.host.read_os) == (None, None)
    assert checked.host.notes == [
        "The reading names no host, so it could not be checked that it is lemans.",
        "The reading does not tell its OS, so it could not be checked that it is AIX.",
    ]
    assert checked.to_dict()["host"]["notes"] == checked.host.notes
    memsize = next(r for r in checked.non_compliant if r.setting == "MEMSIZE")
    assert (memsize.recommended, memsize.current) == ("8G", "2G")
