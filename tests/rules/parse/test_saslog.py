"""SAS logs read into steps: real logs and SAS documentation examples (each fixture names
its source), UNIX and Windows layouts, SAS 8.2, 9.1.3, 9.2, 9.3 and 9.4; and any text at
all gives steps or a line-numbered problem, never an exception."""

from __future__ import annotations

import string
from datetime import datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.parse.saslog import DataSet, LogReader, Problem, iter_steps, read_log

LOGS = Path(__file__).resolve().parents[2] / "fixtures" / "parse" / "saslog"


def log_lines(name: str) -> list[str]:
    """The fixture's log, without its '## source:' header lines."""
    text = (LOGS / name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if not line.startswith("## ")]


def test_sas94_on_linux_fullstimer_with_notes_wrapped_at_linesize_64() -> None:
    log = read_log(log_lines("unix94_fullstimer_wrapped_sspkmnd.log"))
    assert [s.name for s in log.steps] == ["DATA step", "PROC PRINT", "DATA step"]
    data, proc, loop = log.steps
    assert data.reads == (DataSet("SASHELP.CLASS", 19),)
    assert proc.reads == (DataSet("SASHELP.CARS", 428),)
    assert (proc.real, proc.user_cpu, proc.system_cpu) == (1.91, 1.90, 0.01)
    assert proc.memory_kb == 12237.03 and proc.os_memory_kb == 42916.0
    assert proc.page_reclaims == 2601 and proc.block_output == 896
    assert proc.involuntary_switches == 2
    assert proc.timestamp == datetime(2018, 3, 8, 0, 10, 5)
    assert len(loop.reads) == 50
    assert loop.writes == (DataSet("WORK.CLASS50", 950, 5),)
    assert log.fullstimer and log.problems == []
    assert ("LS", "64") in [(name, value) for _, name, value in log.options]


def test_the_sas92_unix_documentation_example() -> None:
    (step,) = read_log(log_lines("unix92_fullstimer_doc.log")).steps
    assert step.name == "DATA step"
    assert (step.memory_kb, step.os_memory_kb) == (236.0, 5672.0)
    assert step.timestamp == datetime(2006, 3, 16, 9, 13, 39)
    assert (step.page_faults, step.page_reclaims, step.voluntary_switches) == (3, 24, 11)
    assert (step.block_input, step.block_output) == (2, 0)


def test_the_sas93_windows_documentation_example_has_no_unix_counters() -> None:
    (step,) = read_log(log_lines("win93_fullstimer_doc.log")).steps
    assert step.name == "PROC PRINT"
    assert step.reads == (DataSet("MYSAS.DEPART1", 5),)
    assert step.cpu is not None and abs(step.cpu - 0.16) < 1e-9
    assert step.page_faults is None and step.memory_kb == 83.0


def test_sas913_on_aix_session_totals_in_minutes() -> None:
    log = read_log(log_lines("aix913_sort_bartucca2005.log"))
    assert log.header.version == "9.1.3" and log.header.os == "unix"
    assert log.steps == [] and log.session is not None
    assert log.session.real == 33 * 60 + 35.62
    assert log.session.user_cpu == 24 * 60 + 43.67
    assert log.session.memory_kb == 4212800.0
    assert log.session.page_faults == 738014
    assert [(n, v) for _, n, v in log.options] == [("FULLSTIMER", "yes"), ("COMPRESS", "yes")]
    assert log.problems == []


def test_a_proc_sql_table_and_the_session_totals_bogacz2012() -> None:
    log = read_log(log_lines("unix_sql_bogacz2012.log"))
    assert log.session is not None and log.session.real == 300.0
    assert log.session.involuntary_switches == 11797


def test_sas82_on_windows_without_step_timing_is_a_problem_with_its_advice() -> None:
    log = read_log(log_lines("win82_no_step_timing_bheckel.log"))
    assert (log.header.release, log.header.build, log.header.os) == ("8.2", "TS2M0", "windows")
    assert log.steps == [] and not log.fullstimer
    assert log.initialization is not None and log.initialization.stimer_cpu == 0.40
    assert "FULLSTIMER" in log.problems[-1].message
    assert [(n, v) for _, n, v in log.options] == [
        ("NOTES", "yes"),
        ("SOURCE", "yes"),
        ("CENTER", "no"),
    ]


def test_sas94_windows_header_and_a_statement_over_two_lines() -> None:
    log = read_log(log_lines("win94_header_doc.log"))
    assert (log.header.version, log.header.platform) == ("9.4", "W32_7PRO")
    assert log.header.os == "windows"
    assert ("LINESIZE", "64") in [(n, v) for _, n, v in log.options]


def test_hours_and_unparsable_figures() -> None:
    text = [
        "NOTE: PROCEDURE SORT used (Total process time):",
        "      real time           1:02:03.50",
        "      user cpu time       lots",
        "      cpu time            4.00 seconds",
        "",
    ]
    log = read_log(text)
    (step,) = log.steps
    assert step.real == 3723.5 and step.user_cpu is None and step.cpu == 4.0
    assert log.problems[0].line == 3 and "user cpu time" in log.problems[0].message


def test_steps_stream_without_being_kept() -> None:
    block = ["NOTE: DATA statement used:", "      real time   0.01 seconds", ""]
    reader = LogReader()
    steps = iter_steps((line for _ in range(10_000) for line in block), reader)
    assert sum(1 for _ in steps) == 10_000
    assert reader.steps == 10_000 and reader.line == 30_000


def test_overlong_lines_are_cut_and_said() -> None:
    log = read_log(["x" * 100_000, "NOTE: DATA statement used:", "  real time 1.00 seconds"])
    assert log.steps[0].real == 1.0
    assert log.problems[0].line == 1 and "100000 characters" in log.problems[0].message


def test_read_log_keeps_a_bounded_list_and_counts_the_rest() -> None:
    block = ["NOTE: DATA statement used:", "      real time   0.01 seconds", ""]
    log = read_log([line for _ in range(250) for line in block], keep=100)
    assert len(log.steps) == 100 and log.step_count == 250
    assert log.problems[-1] == Problem(
        301, "250 steps: the first 100 are kept, the rest only counted"
    )


def test_names_values_and_figures_are_cut_to_what_sas_prints() -> None:
    long = "X" * 3000
    log = read_log(
        [
            f"NOTE: This session is executing on the {long} platform.",
            f"1    options memsize={long[:1000]} {long[:1000]}=1;",
            f"NOTE: There were 5 observations read from the data set WORK.{long}.",
            f"NOTE: PROCEDURE {long} used (Total process time):",
            "      real time           1e999 seconds",
            "      user cpu time       2.00 seconds",
            f"      Page Faults         {'9' * 400}",
        ]
    )
    (step,) = log.steps
    assert step.name == "PROC " + "X" * 32 and step.reads == (DataSet("WORK." + "X" * 36, 5),)
    assert step.real is None and step.page_faults is None and step.user_cpu == 2.0
    assert log.header.platform is not None and len(log.header.platform) == 200
    assert [(len(n), len(v)) for _, n, v in log.options] == [(7, 200), (32, 1)]
    assert [p.line for p in log.problems] == [5, 7]


def test_the_options_kept_are_the_last_ones() -> None:
    lines = [f"{n}    options memsize={n}M;" for n in range(1, 1_202)]
    log = read_log(lines)
    assert len(log.options) == 1_000 and log.options[-1] == (1_201, "MEMSIZE", "1201M")
    assert log.problems[0].message == "over 1,000 options: the last kept"


ALPHABET = string.ascii_letters + string.digits + " \t:.,()/=;!+-\x00\x0c\r\x1bé"
LOG_LINES = st.lists(
    st.one_of(
        st.text(ALPHABET, max_size=60),
        st.sampled_from(
            [
                "NOTE: DATA statement used (Total process time):",
                "NOTE: PROCEDURE SORT used:",
                "NOTE: The SAS System used:",
                "      real time           0.01 seconds",
                "      user cpu time       1:00.00",
                "      memory              12.5k",
                "      Timestamp           13/45/2020 99:99:99 PM",
                "NOTE: There were 19 observations read from the data set ",
                "      SASHELP.CLASS.",
                "1          options fullstimer memsize=",
                "NOTE: SAS (r) Proprietary Software 9.4 (",
            ]
        ),
    ),
    max_size=40,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOG_LINES)
def test_any_text_gives_steps_or_line_numbered_problems(text: list[str]) -> None:
    log = read_log(text)
    assert log.lines == len(text)
    for problem in log.problems:
        assert 1 <= problem.line <= max(1, len(text))
    assert log.steps or log.session or log.problems
