"""The measured chart's axis labels never overlap: over every axis end from 150 to 600 MB/s
per core, the band's edges are labelled, the labels' x-positions stand apart, and each
label ends before the next begins (a 200 axis once printed "20015MB/s per core")."""

from __future__ import annotations

import html
import itertools
import re

from django.template.loader import render_to_string

from advisor.assessments.measured import FIGURE_X, LABEL_W, PLOT_W, chart_of
from advisor.assessments.measured_axis import GAP, UNIT, apart, ticks
from tests.web.test_measured_chart import bar

BAND = (100, 150)
MIN_APART = 24  # SVG units between two labels' middles


def test_labels_stand_apart_for_every_axis_end_from_150_to_600() -> None:
    for scale in range(150, 601):
        found = ticks(LABEL_W, PLOT_W, scale, BAND, FIGURE_X)
        texts = [t.text for t in found]
        assert texts[:2] == ["100", "150"], scale
        assert apart(found), (scale, found)
        # Where each label stands (its middle, whatever its anchor): far enough apart.
        xs = [(t.left + t.right) / 2 for t in found]
        assert all(b - a >= MIN_APART for a, b in itertools.pairwise(xs)), (scale, xs)
        assert UNIT in texts and all(UNIT not in t.text or t.text == UNIT for t in found)


def test_the_axis_end_is_labelled_only_clear_of_the_bands_top() -> None:
    assert [t.text for t in ticks(LABEL_W, PLOT_W, 150, BAND, FIGURE_X)] == ["100", "150", UNIT]
    found = ticks(LABEL_W, PLOT_W, 200, BAND, FIGURE_X)
    assert [t.text for t in found] == ["100", "150", "200", UNIT]
    end, top = found[2], found[1]
    assert end.x == LABEL_W + PLOT_W and end.left >= top.right + GAP
    # Squeezed (a narrow plot), the end's number gives way rather than overlap the 150.
    narrow = ticks(LABEL_W, 120, 170, BAND, LABEL_W + 134)
    assert "170" not in [t.text for t in narrow] and apart(narrow)


def test_the_chart_draws_the_labels_apart() -> None:
    found = chart_of([bar("saswork", "/saswork", 95.0 * 16, 120.0 * 16, 95.0 * 16)])
    assert found is not None and found.scale == 200
    page = html.unescape(
        render_to_string("assessments/_measured_chart.html", {"measured": found, "mid": "m"})
    )
    axis = re.findall(r'<text class="mc-axis" x="([\d.]+)"[^>]*>([^<]*)</text>', page)
    assert [text for _, text in axis] == ["100", "150", "200", UNIT]
    assert "200 MB/s per core" not in page.split("<desc", 1)[0]
