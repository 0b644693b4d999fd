"""Report content: ranking by measured gain, charts, and the sections of the HTML."""

from __future__ import annotations

from advisor.core.results import result_of
from advisor.models import Assessment, Organisation
from advisor.reports import charts, svg
from advisor.reports.content import ranked_changes, report_context
from advisor.reports.services import render_report_html
from tests.stored_results import LEMANS_2026_11_0, RHEL9_2026_11_1, save_stored, stored


def test_results_stored_before_the_measured_gain_rank_by_the_figures_their_rules_gave(
    org: Organisation,
) -> None:
    # Rules 2026.11.0 stored no measured_gain_pct; the figures its effect texts reported
    # (pohl2007's 87.2 % of the 1-CPU time, bartucca2005's −25.8/−12.8/−7.2 %, xu's 2.8×
    # faster) come from the reader, and the report ranks by them.
    then = save_stored(org, LEMANS_2026_11_0)
    stored_recs = stored(LEMANS_2026_11_0)["recommendations"]
    assert all("measured_gain_pct" not in r for r in stored_recs)
    ranked = [
        (r["setting"], r["gain"]) for r in ranked_changes(report_context(then)["recommendations"])
    ]
    assert ranked == [
        ("WORK", 64.3), ("BUFSIZE", 25.8), ("THREADS", 12.8), ("CPUCOUNT", 12.8),
        ("PROC SORT PAGESIZE", 12.8), ("BUFNO", 7.2),
    ]  # fmt: skip


def test_memory_budget_chart_states_commitment_and_colours_overcommit() -> None:
    fits = charts.memory_budget(sessions=1, memsize_mb=8192, ram_mb=16384)
    assert "50 % of RAM committed" in fits and svg.BLUE in fits
    over = charts.memory_budget(sessions=50, memsize_mb=1024, ram_mb=16384)
    assert "312 % of RAM committed" in over and svg.RED in over


def test_threads_chart_uses_run_queue_zones() -> None:
    assert "0.2 threads per CPU: green" in charts.threads_vs_cpus(sessions=1, cpucount=2, cpus=8)
    assert "25.0 threads per CPU: red" in charts.threads_vs_cpus(sessions=25, cpucount=48, cpus=48)
    assert "3.0 threads per CPU: amber" in charts.threads_vs_cpus(sessions=12, cpucount=2, cpus=8)


def test_data_paths_chart_has_a_bar_per_entry_and_escapes_labels() -> None:
    svg = charts.data_paths(
        [
            {"mount": "/raid0", "role": "work", "raid": "0", "disks": 2, "size_gb": 998.5},
            {"mount": "/a<b", "role": "data", "raid": "5", "disks": 5, "size_gb": 100},
        ]
    )
    assert svg.count("<rect") == 2 and "998.5 GB" in svg
    assert "/a&lt;b" in svg and "/a<b" not in svg


def test_capacity_curve_draws_line_and_measured_dots() -> None:
    svg = charts.capacity_curve([(1, 4.0), (2, 6.8), (8, 23.5)], measured=[(2, 6.78)])
    assert svg.count("<polyline") == 1 and svg.count("<circle") == 1
    assert "concurrent jobs" in svg


def test_context_orders_warnings_by_severity_and_ranks_changes(assessment: Assessment) -> None:
    ctx = report_context(assessment)
    assert ctx["os_label"] == "AIX"
    severities = [w["severity"] for w in ctx["warnings"]]
    assert severities == sorted(severities, key={"high": 0, "medium": 1, "low": 2}.get)
    gains = [r["gain"] for r in ctx["top_changes"]]
    assert gains == sorted(gains, reverse=True) and all(g > 0 for g in gains)
    assert [name for name, _ in ctx["artifacts"]] == sorted(assessment.result["artifacts"])


def test_html_holds_every_section(assessment: Assessment) -> None:
    html = render_report_html(assessment)
    for heading in (
        "Executive summary",
        "The server",
        "Charts",
        "Recommendations",
        "Warnings and what to do",
        "Appendix: generated files",
    ):
        assert heading in html
    assert html.count("<svg") == 4
    assert "Acme Analytics" in html and assessment.rules_version in html
    cpucount = result_of(assessment).value_of("CPUCOUNT")
    assert cpucount and f"CPUCOUNT = {cpucount}" in html
    for name in assessment.result["artifacts"]:
        assert f"<h3>{name}</h3>" in html


def test_ranking_reads_the_measured_gain_as_stored(org: Organisation) -> None:
    recs = stored(RHEL9_2026_11_1)["recommendations"]
    given = {(r["setting"], r["measured_gain_pct"]) for r in recs if r["measured_gain_pct"]}
    ctx = report_context(save_stored(org, RHEL9_2026_11_1))
    assert {(r["setting"], r["gain"]) for r in ranked_changes(ctx["recommendations"])} == given


def test_attached_logs_have_their_section(assessment: Assessment) -> None:
    from advisor.logs import services

    assert "Jobs diagnosed from their SAS logs" not in render_report_html(assessment)
    sort = (
        "NOTE: PROCEDURE SORT used (Total process time):\n      real time   52:32.08\n"
        "      user cpu time       24:41.30\n      system cpu time     8:29.05\n"
    )
    services.log_create(
        organisation=assessment.organisation,
        user=None,
        name="nightly.log",
        chunks=[sort.encode()],
        assessment=assessment,
    )
    html = render_report_html(assessment)
    assert "Jobs diagnosed from their SAS logs" in html
    assert "nightly.log: 1 steps" in html and "PROC SORT sorted on disk" in html
