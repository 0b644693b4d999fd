"""memory.memsize, memory.sortsize and memory.realmemsize (bartucca2005 'Setup', chew)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Result
from rules.catalog import memory
from rules.units import parse_size_mb
from tests.conftest import example
from tests.rules.conftest import advise
from tests.rules.conftest import only as rec


def box(ram_gb: float = 16, sessions: int = 1) -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"]["ram_gb"] = ram_gb
    doc["workload"]["concurrent_sessions"] = sessions
    return doc


def values(result: Result) -> dict[str, str]:
    return {r.setting: r.value for r in result.recommendations if r.rule.startswith("memory.")}


def memory_warnings(result: Result) -> list[str]:
    return [w.message for w in result.warnings if w.rule.startswith("memory.")]


def test_lemans_is_the_papers_own_setup() -> None:
    # bartucca2005 "Setup": 16 GB RAM, one 60 GB sort, SORTSIZE 4G and MEMSIZE 8G.
    result = advise(example("lemans-aix53-etl"))
    assert values(result) == {"MEMSIZE": "8G", "SORTSIZE": "4G"}
    assert rec(result, "MEMSIZE").target == "sasv9_append.cfg"
    assert rec(result, "MEMSIZE").rationale == (
        "16 GB RAM × 0.5 (the rest for the OS and file cache) / 1 session = 8 GB → 8G. "
        "(sas94-config: SAS 9.4 documentation; 9.1.3 behaves the same: unconfirmed)"
    )
    assert "chew" in rec(result, "SORTSIZE").rationale
    assert memory_warnings(result) == []


def test_prime_budgets_spd_server_first_and_warns_over_ram() -> None:
    # bogacz2012 l.207-211: SPD Server's sort memory 50 × 1024M = 50 GB of 64 GB; the SAS
    # sessions on the same box (l.26) share half of the 14 GB left (bartucca2005 l.269).
    result = advise(example("prime-spds-aix"))
    assert values(result) == {"MEMSIZE": "512M", "SORTSIZE": "64M", "REALMEMSIZE": "128M"}
    memsize = rec(result, "MEMSIZE").rationale
    assert "(64 GB RAM − SPD Server's sort memory 50 × 1024M = 14 GB) × 0.5" in memsize
    assert "/ 50 sessions = 143 MB, below the 512M floor → 512M" in memsize
    [warning] = [w for w in result.warnings if w.rule == "memory.memsize"]
    assert warning.message.startswith(
        "Memory budget over RAM: 50 sessions × MEMSIZE 512M = 25 GB + SPD Server 50 × 1024M "
        "= 50 GB + OS and file cache 7 GB = 82 GB on 64 GB of RAM, over by 18 GB"
    )
    assert warning.severity == "medium"  # ceilings; bogacz2012 l.254 ran it two years
    assert "vmstat" in warning.action and "grow RAM to at least 100 GB" in warning.action


def test_lone_session_rounds_to_whole_gigabytes() -> None:
    assert values(advise(box(ram_gb=24))) == {"MEMSIZE": "12G", "SORTSIZE": "4G"}
    assert values(advise(box(ram_gb=1.5))) == {"MEMSIZE": "768M", "SORTSIZE": "384M"}


def test_huge_ram_does_not_crash() -> None:
    # SORTSIZE stops at bartucca2005's 4G (l.269): chew l.63-69, bigger is not always faster.
    huge = advise(box(ram_gb=65536))
    assert values(huge) == {"MEMSIZE": "32768G", "SORTSIZE": "4G"}
    assert "capped at 4G" in rec(huge, "SORTSIZE").rationale
    assert "bogacz2012 (l.211)" in rec(huge, "SORTSIZE").rationale
    shared = values(advise(box(ram_gb=65536, sessions=3)))
    assert shared["MEMSIZE"] == "8192G"  # 65536 × 0.5 / 3 = 10923 GB → 8 TB, a power of two


def test_tiny_ram_gets_the_floor_a_real_share_and_a_warning() -> None:
    result = advise(box(ram_gb=0.5))
    assert values(result) == {"MEMSIZE": "512M", "SORTSIZE": "128M", "REALMEMSIZE": "256M"}
    assert "below the 512M floor" in rec(result, "MEMSIZE").rationale
    (message,) = memory_warnings(result)
    assert "1 session × MEMSIZE 512M = 512 MB + OS and file cache 256 MB = 768 MB on 0.5 GB" in (
        message
    )
    assert "over by 256 MB" in message
    (warning,) = [w for w in result.warnings if w.rule == "memory.memsize"]
    assert warning.severity == "high"
    assert "grow RAM to at least 1 GB" in warning.action


def test_overcommit_warning_says_by_how_much_and_what_to_do() -> None:
    # 8 GB RAM × 0.5 / 100 sessions = 41 MB each; 100 × 512M = 50 GB.
    result = advise(box(ram_gb=8, sessions=100))
    (message,) = memory_warnings(result)
    assert "100 sessions × MEMSIZE 512M = 50 GB + OS and file cache 4 GB = 54 GB on 8 GB" in (
        message
    )
    assert "over by 46 GB" in message
    (warning,) = [w for w in result.warnings if w.rule == "memory.memsize"]
    assert "cut peak sessions to 8" in warning.action
    assert "grow RAM to at least 100 GB" in warning.action
    assert values(result)["REALMEMSIZE"] == "32M"
    assert values(result)["SORTSIZE"] == "16M"
    assert rec(result, "SORTSIZE").rationale.startswith(
        "Half of the session's 32M real share of RAM (REALMEMSIZE) → 16M"
    )


def test_realmemsize_only_where_it_helps() -> None:
    assert "REALMEMSIZE" not in values(advise(box(ram_gb=64)))
    assert values(advise(box(ram_gb=64, sessions=4)))["REALMEMSIZE"] == "8G"


@pytest.mark.parametrize("name", ["lemans-aix53-etl", "prime-spds-aix"])
def test_no_input_is_missing_so_nothing_is_skipped(name: str) -> None:
    assert [s for s in advise(example(name)).skipped if s.rule.startswith("memory.")] == []


@settings(max_examples=200, deadline=None)
@given(
    ram_gb=st.one_of(st.sampled_from([0.5, 16, 65536]), st.floats(0.01, 65536)),
    sessions=st.one_of(st.sampled_from([1, 50]), st.integers(1, 100000)),
)
def test_invariants_over_a_sweep(ram_gb: float, sessions: int) -> None:
    result = advise(box(ram_gb=ram_gb, sessions=sessions))
    got = {k: parse_size_mb(v) for k, v in values(result).items()}
    assert got["SORTSIZE"] < got["MEMSIZE"]
    assert got["SORTSIZE"] >= 1
    assert got["MEMSIZE"] >= memory.MEMSIZE_FLOOR_MB
    assert got.get("REALMEMSIZE", 0) <= got["MEMSIZE"]
    assert got["SORTSIZE"] <= memory.SORTSIZE_CAP_MB
    ram_mb = ram_gb * 1024
    # sessions × MEMSIZE + OS reserve (half of RAM without SPD Server) ≤ RAM, or warned
    if sessions * got["MEMSIZE"] + ram_mb * (1 - memory.SAS_RAM_SHARE) > ram_mb:
        (message,) = memory_warnings(result)
        assert "Memory budget over RAM" in message
    elif memory_warnings(result) == []:
        assert sessions * got["MEMSIZE"] <= ram_mb * memory.SAS_RAM_SHARE
