"""One test per diagnosis rule, on a log excerpt laid out as SAS prints it with the
figures of the paper line it cites."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.logs import analyse, diagnose
from rules.logs.findings import CHEW_PARALLEL_FRACTION, POHL_PIPED_SHARE, step_findings
from rules.parse.saslog import read_log

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "parse" / "saslog"


def step(name: str, real: str, user: str, system: str = "0.00 seconds", *extra: str) -> str:
    footer = "DATA statement" if name == "DATA" else f"PROCEDURE {name}"
    lines = [
        f"NOTE: {footer} used (Total process time):",
        f"      real time           {real}",
        f"      user cpu time       {user}",
        f"      system cpu time     {system}",
        *extra,
        "",
    ]
    return "\n".join(lines)


def rules_of(text: str, cpus: int = 8) -> dict[str, list[tuple[int, float]]]:
    found: dict[str, list[tuple[int, float]]] = {}
    for finding in diagnose(read_log(text).steps, cpus):
        found.setdefault(finding.rule, []).append((finding.step, finding.saving))
    return found


def test_io_bound_data_step_xu_table_1() -> None:
    # xu Table 1 (l.70-71): setup 1 ran 39.50 min, 6.47 of them CPU.
    found = rules_of(step("DATA", "39:30.00", "6:28.20"))
    ((number, saving),) = found["log.io_bound"]
    assert number == 1
    assert saving == pytest.approx((2370.0 - 388.2) * 0.5)


def test_sort_on_disk_bartucca2005_direct_io_run() -> None:
    # bartucca2005 l.425-429: PROC SORT 52:32.08 real, 24:41.30 user, 8:29.05 system.
    found = rules_of(step("SORT", "52:32.08", "24:41.30", "8:29.05"))
    ((_, saving),) = found["log.sort_spill"]
    assert saving == pytest.approx((3152.08 - 1481.30 - 509.05) * 0.5)
    assert "log.io_bound" not in found  # a sort is the sort rule's


def test_single_threaded_threaded_proc_chew_loess_table() -> None:
    # chew l.578: PROC LOESS 21:31 on one CPU; CPU-bound and not threaded.
    found = rules_of(step("LOESS", "21:31.00", "21:20.00", "0.50 seconds"), cpus=8)
    ((_, saving),) = found["log.would_thread"]
    p = CHEW_PARALLEL_FRACTION
    assert saving == pytest.approx(1291 - 1291 * ((1 - p) + p / 4))


def test_tabulate_gains_only_to_two_cpus_pohl2007() -> None:
    # pohl2007 Table 1 (l.270-271): TABULATE 1:24:24 on one CPU, 1:14:52 on two.
    found = rules_of(step("TABULATE", "1:24:24.00", "1:23:00.00"))
    ((_, saving),) = found["log.would_thread"]
    assert saving == pytest.approx(5064 - 4492)


def test_a_proc_that_scales_chew() -> None:
    # chew l.105-107: real 4:14.61, user 23:36.91, system 0.34 seconds.
    found = rules_of(step("LOESS", "4:14.61", "23:36.91", "0.34 seconds"))
    assert found == {"log.scales": [(1, 0.0)]}


def test_a_cpu_bound_data_step_gains_nothing_from_threads_chew() -> None:
    found = rules_of(step("DATA", "10:00.00", "9:50.00"))
    assert found == {"log.single_threaded": [(1, 0.0)]}


def test_paging_bartucca2005_first_run() -> None:
    # bartucca2005 l.290-296: 738,014 page faults in 33:35.62.
    lines = [ln for ln in (LOGS / "aix913_sort_bartucca2005.log").read_text().splitlines()]
    analysis = analyse(read_log([ln for ln in lines if not ln.startswith("## ")]))
    (paging,) = [f for f in analysis["findings"] if f["rule"] == "log.paging"]
    assert paging["step"] == 0 and "366/s" in paging["title"]


def test_cpu_contention_bogacz2012_second_run() -> None:
    # bogacz2012 l.124-131: 20,769 involuntary context switches in 5:09.00.
    text = step("SQL", "5:09.00", "1:46.46", "3:11.00", "      Involuntary Context Switches 20769")
    assert [s for s, _ in rules_of(text)["log.cpu_contention"]] == [1]


def test_a_data_step_feeding_the_next_proc_would_pipe_pohl2007() -> None:
    # pohl2007 Table 1 (l.270, l.274): the piped pair ran in 67 % of the time.
    text = "\n".join(
        [
            "NOTE: The data set WORK.Q has 322000000 observations and 6 variables.",
            step("DATA", "40:00.00", "38:00.00"),
            "NOTE: There were 322000000 observations read from the data set WORK.Q.",
            step("TABULATE", "44:24.00", "10:00.00"),
        ]
    )
    found = rules_of(text)
    ((number, saving),) = found["log.pipeline"]
    assert number == 2
    assert saving == pytest.approx((2400 + 2664) * (1 - POHL_PIPED_SHARE))


def test_no_fullstimer_is_advice_sas_doc() -> None:
    lines = (LOGS / "win82_no_step_timing_bheckel.log").read_text().splitlines()
    analysis = analyse(read_log(lines))
    assert analysis["findings"][0]["rule"] == "log.no_fullstimer"
    assert analysis["findings"][0]["setting"] == "-FULLSTIMER in the SAS configuration file"


def test_short_steps_are_not_judged() -> None:
    assert rules_of(step("SORT", "5.00 seconds", "0.10 seconds")) == {}


def test_the_what_if_counts_one_saving_per_step_and_compares_options() -> None:
    text = "1    options memsize=2G cpucount=8;\n" + step("SORT", "52:32.08", "24:41.30")
    analysis = analyse(read_log(text), recommended={"MEMSIZE": "4G", "CPUCOUNT": "8"})
    what = analysis["what_if"]
    assert what["saving_seconds"] == pytest.approx(what["io_striped_seconds"])
    assert what["estimated_job_seconds"] < what["job_seconds"]
    rows = {row["option"]: row for row in analysis["options"]}
    assert rows["MEMSIZE"]["differs"] and rows["MEMSIZE"]["echoed"] == "2G"
    assert not rows["CPUCOUNT"]["differs"]


def test_a_step_at_a_time_gives_what_the_whole_list_gives() -> None:
    text = "\n".join(
        [
            "NOTE: The data set WORK.Q has 322000000 observations and 6 variables.",
            step("DATA", "40:00.00", "38:00.00"),
            "NOTE: There were 322000000 observations read from the data set WORK.Q.",
            step("TABULATE", "44:24.00", "10:00.00"),
            step("SORT", "52:32.08", "24:41.30", "8:29.05"),
        ]
    )
    steps = read_log(text).steps
    one_by_one = [
        f for at, s in enumerate(steps) for f in step_findings(s, steps[at - 1] if at else None, 8)
    ]
    assert one_by_one == diagnose(steps, 8)
    assert [f.rule for f in step_findings(steps[1], steps[0], 8)] == [
        "log.io_bound",
        "log.pipeline",
    ]
