"""cpu.threads and cpu.cpucount_cap against the papers' figures (chew, pohl2007, bartucca2005)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Result
from rules.derive import cpu
from tests.conftest import example
from tests.rules.conftest import advise
from tests.rules.conftest import only as setting


def box(
    cpus: int = 8, sessions: int = 1, mix: dict[str, float] | None = None, sas: str = "9.1.3"
) -> dict[str, Any]:
    doc = example("lemans-aix53-etl")
    doc["server"]["cpus"] = cpus
    doc["sas"]["version"] = sas
    doc["workload"]["concurrent_sessions"] = sessions
    doc["workload"]["mix"] = mix or {"etl": 1.0}
    return doc


def cpu_warnings(result: Result) -> list[str]:
    return [w.message for w in result.warnings if w.rule.startswith("cpu.")]


def test_threads_is_a_flag_in_the_site_config() -> None:
    rec = setting(advise(box()), "THREADS")
    assert (rec.rule, rec.target, rec.value, rec.kind) == ("cpu.threads", "sasv9.cfg", "", "change")
    assert "AIX supports threads" in rec.rationale


def test_lemans_single_etl_job_gets_two_cpus() -> None:
    # bartucca2005 first run: user 24:43 in 33:35 real — under one CPU's worth on average.
    assert (24 * 60 + 43) / (33 * 60 + 35) < 1 < cpu.ETL_USEFUL_CPUS
    result = advise(example("lemans-aix53-etl"))
    rec = setting(result, "CPUCOUNT")
    assert rec.value == "2"
    assert "ETL 100% × 2 (bartucca2005)" in rec.rationale
    assert "1 session × 2 = 2 threads" in rec.rationale
    assert cpu_warnings(result) == []


def test_prime_fifty_sessions_on_eight_cpus_gets_one_and_a_red_run_queue_warning() -> None:
    result = advise(example("prime-spds-aix"))
    rec = setting(result, "CPUCOUNT")
    assert rec.value == "1"
    assert "50 sessions × 1 = 50 threads on 8 CPUs" in rec.rationale
    assert "50 × 8 = 400 at the SAS default" in rec.rationale
    assert "= 1.3 CPUs → 1" in rec.rationale
    assert "24 threads / 50 sessions = 0 each, at least 1" in rec.rationale
    (message,) = cpu_warnings(result)
    assert "run queue of 5.2 per CPU" in message
    assert "red above 5" in message
    (warning,) = [w for w in result.warnings if w.rule == "cpu.cpucount_cap"]
    assert "about 17 in all keep this load green" in warning.action  # 50 / 3, rounded up
    assert warning.sources == ("chew",)


def test_chew_25_users_on_48_cpus_are_capped_at_four_to_six() -> None:
    # chew, "Attention Systems Managers": 25 × 48 = 1200 LWPs unless capped at 4 or 6.
    rec = setting(advise(box(cpus=48, sessions=25, mix={"analytics": 1.0})), "CPUCOUNT")
    assert 4 <= int(rec.value) <= 6
    assert rec.value == "5"  # 3 × 48 = 144 green threads / 25 sessions
    assert "25 × 48 = 1200" in rec.rationale
    assert "48 running + 96 queued = 144 threads / 25 sessions = 5 each" in rec.rationale
    assert "25 sessions × 5 = 125 threads on 48 CPUs" in rec.rationale


def test_sas_92_default_is_four_on_large_boxes() -> None:
    rec = setting(advise(box(cpus=48, sessions=25, mix={"analytics": 1.0}, sas="9.4")), "CPUCOUNT")
    assert rec.target == "sasv9_local.cfg"
    assert "25 × 4 = 100 at the SAS default" in rec.rationale


def test_summary_only_job_gains_nothing_past_two_cpus() -> None:
    # pohl2007 Table 3 (Unix), % of the 1-CPU run time: 87.2 at 2 CPUs, 86.4 at 4, 85.5 at 8.
    table3 = {1: 100.0, 2: 87.2, 4: 86.4, 8: 85.5}
    assert table3[1] - table3[2] > 10 > table3[2] - table3[8]
    assert cpu.SUMMARY_USEFUL_CPUS == 2
    rec = setting(advise(box(mix={"summary": 1.0})), "CPUCOUNT")
    assert rec.value == "2"
    assert "summary 100% × 2 (pohl2007)" in rec.rationale


def test_analytics_only_job_scales_to_eight() -> None:
    # chew LOESS table: 21:31, 12:16, 6:34, 5:06, 4:04 at 1, 2, 4, 6, 8 CPUs.
    loess_s = [21 * 60 + 31, 12 * 60 + 16, 6 * 60 + 34, 5 * 60 + 6, 4 * 60 + 4]
    assert all(a > b for a, b in itertools.pairwise(loess_s))
    assert setting(advise(box(mix={"analytics": 1.0})), "CPUCOUNT").value == "8"


@pytest.mark.parametrize(("cpus", "expected"), [(1, "1"), (4, "4"), (64, "8")])
def test_analytics_never_above_cpus_nor_past_the_measured_eight(cpus: int, expected: str) -> None:
    assert setting(advise(box(cpus=cpus, mix={"analytics": 1.0})), "CPUCOUNT").value == expected


def test_mixed_workload_is_weighted() -> None:
    rec = setting(advise(box(mix={"analytics": 0.5, "summary": 0.5})), "CPUCOUNT")
    assert rec.value == "5"
    assert "= 5 CPUs" in rec.rationale


def test_green_load_gets_no_warning() -> None:
    # 8 sessions × 3 = 24 threads on 8 CPUs: run queue 2 per CPU, still green.
    result = advise(box(sessions=8, mix={"analytics": 1.0}))
    assert setting(result, "CPUCOUNT").value == "3"
    assert cpu_warnings(result) == []


def test_chews_linear_degradation_prediction() -> None:
    # chew: 6:47 at 2 jobs + 3 min per extra job; 63 jobs predicted and measured at 3 h 09.
    predicted_min = (6 * 60 + 47) / 60 + 3 * (63 - 2)
    assert int(predicted_min) == 3 * 60 + 9  # 189.8 min; chew: "~189 min or 3 hours, 9 minutes"
    message = cpu_warnings(advise(example("prime-spds-aix")))[0]
    assert "3 h 09 min" in message


def test_run_queue_arithmetic_matches_chew() -> None:
    # chew: 8 jobs × CPUCOUNT 4 = 32 LWPs on 4 CPUs gave a run queue of 28 (7 per CPU).
    assert cpu.runq_per_cpu(32, 4) == 28 / 4
    assert cpu.runq_per_cpu(4, 8) == 0


def test_no_input_is_missing_so_nothing_is_skipped() -> None:
    for name in ("lemans-aix53-etl", "prime-spds-aix"):
        assert [s for s in advise(example(name)).skipped if s.rule.startswith("cpu.")] == []


MIXES = st.sampled_from(
    [{"etl": 1.0}, {"summary": 1.0}, {"analytics": 1.0}, {"spds_query": 1.0},
     {"analytics": 0.3, "summary": 0.3, "etl": 0.4}]
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    cpus=st.integers(1, 4096),
    sessions=st.integers(1, 100000),
    mix=MIXES,
)
def test_cpucount_is_between_one_and_cpus(cpus: int, sessions: int, mix: dict[str, float]) -> None:
    result = advise(box(cpus=cpus, sessions=sessions, mix=mix))
    value = int(setting(result, "CPUCOUNT").value)
    assert 1 <= value <= min(cpus, cpu.ANALYTICS_USEFUL_CPUS)
    overloaded = cpu.runq_per_cpu(sessions * value, cpus) > cpu.RUNQ_AMBER_PER_CPU
    assert bool(cpu_warnings(result)) == overloaded
