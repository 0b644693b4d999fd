"""The hand-written SVG charts: whole-number job ticks, legends in words, the server's
own session count marked where it belongs, no exponent notation, and readable colours."""

from __future__ import annotations

import re

import pytest

from advisor.reports import charts, curve
from advisor.reports.charts import job_ticks, tick_label

CURVE = [(1, 4.0), (2, 6.8), (3, 9.6), (8, 23.5)]


def _x_tick_labels(svg: str) -> list[str]:
    ticks = svg.split("<g class='x-ticks'>")[1].split("</g>")[0]
    return re.findall(r">([^<]+)</text>", ticks)


def _numbers(svg: str) -> list[str]:
    return re.findall(r"(?<![\w.#])-?\d[\d,]*\.?\d*(?:[eE][+-]?\d+)?", svg)


@pytest.mark.parametrize("x_max", range(2, 201))
def test_job_ticks_are_whole_numbers_from_1_for_every_axis_length(x_max: int) -> None:
    ticks = job_ticks(x_max)
    assert ticks[0] == 1 and ticks == sorted(set(ticks)) and ticks[-1] <= x_max
    assert all(isinstance(t, int) for t in ticks) and 2 <= len(ticks) <= 10
    svg = charts.capacity_curve([(n, 2.0 * n) for n in range(1, x_max + 1)])
    labels = _x_tick_labels(svg)
    assert labels == [f"{t:,}" for t in ticks]
    assert all(re.fullmatch(r"[\d,]+", label) for label in labels), labels


def test_job_ticks_stay_whole_and_few_on_very_long_axes() -> None:
    for x_max in (1_000, 10_000, 100_000):
        ticks = job_ticks(x_max)
        assert all(isinstance(t, int) for t in ticks) and len(ticks) <= 10


@pytest.mark.parametrize("value", [1.25e6, 0.00001, 123456789.0, 0.25, 2.5])
def test_tick_labels_never_use_exponents(value: float) -> None:
    assert "e" not in tick_label(value).lower()


def test_no_chart_prints_an_exponent() -> None:
    svgs = [
        charts.capacity_curve([(1, 0.001), (8, 1e6)], measured=[(3, 5e5)], sessions_mark=7),
        charts.capacity_curve([(n, 1e-5 * n) for n in range(1, 9)]),
        charts.memory_budget(sessions=100_000, memsize_mb=1e6, ram_mb=1024),
        charts.threads_vs_cpus(sessions=100_000, cpucount=4096, cpus=1),
    ]
    for svg in svgs:
        assert not [n for n in _numbers(svg) if "e" in n.lower()]
        assert "nan" not in svg and "inf" not in svg


def test_the_sessions_marker_stands_at_its_job_count_and_says_what_it_is() -> None:
    svg = charts.capacity_curve(CURVE, sessions_mark=5)
    mark = svg.split("<g class='sessions-mark' data-sessions='5'>")[1].split("</g>")[0]
    x = float(re.search(r"x1='([\d.]+)'", mark)[1])  # type: ignore[index]
    left, right = curve._Plot(x_max=8, y_max=25).left, curve._Plot(x_max=8, y_max=25).right
    assert x == pytest.approx(left + (5 - 1) / (8 - 1) * (right - left), abs=0.1)
    assert ">this server: 5 sessions</text>" in mark
    assert "this server&#x27;s peak SAS sessions" in svg  # and named in the legend
    # Beyond the curve, the axis grows to show it.
    far = charts.capacity_curve(CURVE, sessions_mark=40)
    assert "data-sessions='40'" in far and _x_tick_labels(far)[-1] == "40"
    assert "sessions-mark" not in charts.capacity_curve(CURVE)


def test_one_session_is_singular() -> None:
    assert "this server: 1 session<" in charts.capacity_curve(CURVE, sessions_mark=1)


def test_measured_runs_are_dots_labelled_with_jobs_and_minutes() -> None:
    svg = charts.capacity_curve(CURVE, measured=[(2, 6.78), (3, 9.63)])
    assert svg.count("<circle class='measured'") == 2
    assert ">2 jobs: 6.8 min</text>" in svg and ">3 jobs: 9.6 min</text>" in svg
    assert "Measured: 2 jobs 6.8 min, 3 jobs 9.6 min." in svg  # in <desc> for screen readers
    crowded = charts.capacity_curve(CURVE, measured=[(n, 2.0 * n) for n in range(1, 21)])
    assert crowded.count("<circle class='measured'") == 20 and " jobs: " not in crowded


def test_the_curve_is_dashed_past_the_measured_range_and_the_legend_says_so() -> None:
    svg = charts.capacity_curve(CURVE, measured=[(2, 6.78), (3, 9.63)], measured_up_to=3)
    assert svg.count("<polyline") == 1 and svg.count("class='extrapolated'") == 1
    assert ">extrapolated past 3 jobs</text>" in svg and ">measured run</text>" in svg
    whole = charts.capacity_curve(CURVE, measured_up_to=8)
    assert "extrapolated" not in whole


def _legend(svg: str) -> str:
    return svg.split("<g class='legend'>")[1].split("</g>")[0]


def test_every_chart_with_more_than_one_colour_has_a_legend_in_words() -> None:
    memory = _legend(charts.memory_budget(sessions=12, memsize_mb=4096, ram_mb=32768))
    assert ">RAM</text>" in memory and "over RAM" in memory and "RAM limit" in memory
    threads = _legend(charts.threads_vs_cpus(sessions=12, cpucount=2, cpus=8))
    for words in ("green zone: ≤ 2 threads per CPU", "amber: ≤ 5", "red: &gt; 5", "CPUs"):
        assert words in threads
    paths = charts.data_paths(
        [
            {"mount": "/d", "role": "data", "raid": "5", "disks": 4, "size_gb": 10},
            {"mount": "/w", "role": "spds_work", "raid": "0", "disks": 2, "size_gb": 5},
        ]
    )
    assert ">data</text>" in _legend(paths) and ">spds work</text>" in _legend(paths)
    curve = _legend(charts.capacity_curve(CURVE, measured=[(2, 6.8)], sessions_mark=4))
    assert ">predicted</text>" in curve and ">measured run</text>" in curve


def test_a_single_series_needs_no_legend() -> None:
    assert "class='legend'" not in charts.capacity_curve(CURVE)
    one_role = charts.data_paths(
        [{"mount": "/d", "role": "data", "raid": "5", "disks": 4, "size_gb": 10}]
    )
    assert "class='legend'" not in one_role


def test_text_and_axes_follow_the_page_colour_and_each_chart_is_described() -> None:
    for svg in (
        charts.capacity_curve(CURVE, measured=[(2, 6.8)], sessions_mark=4),
        charts.memory_budget(sessions=2, memsize_mb=1024, ram_mb=8192),
        charts.threads_vs_cpus(sessions=2, cpucount=2, cpus=8),
    ):
        assert "role='img'" in svg and "<title>" in svg and "<desc>" in svg
        texts = re.findall(r"<text [^>]*>", svg)
        # Only labels inside a coloured bar carry their own colour.
        assert all("fill='currentColor'" in t or "fill='white'" in t for t in texts), texts
        assert "stroke='black'" not in svg and "fill='black'" not in svg


def test_labels_are_escaped() -> None:
    svg = charts.capacity_curve(CURVE, y_label="<b>minutes</b>")
    assert "&lt;b&gt;minutes" in svg and "<b>" not in svg
