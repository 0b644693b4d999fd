"""The measured-throughput chart partial for both shapes of a bar: read and write measured
apart with the tool and date (storage[].measured_read_mb_s …), and only the lower of the
two (storage[].measured_mb_s); a cluster's total is said to be one, and a read that may be
the page cache's is drawn but not judged."""

from __future__ import annotations

import html
import re
from dataclasses import replace

from django.template.loader import render_to_string

from advisor.assessments.measured import chart_of
from rules.measured import CACHE_WORDS, Bar, Direction, verdict

CORES = 16


def direction(mb_s: float) -> Direction:
    return Direction(mb_s, round(mb_s / CORES, 1), verdict(mb_s / CORES))


def bar(name: str, mount: str, read: float | None, write: float | None, lower: float,
        **more: object) -> Bar:  # fmt: skip
    given: dict[str, object] = {"tool": None, "date": None, "cluster_total": False, **more}
    return Bar(
        name=name, mount=mount, role="work",
        read=direction(read) if read is not None else None,
        write=direction(write) if write is not None else None,
        lower=direction(lower), cores=CORES, band=(100, 150),
        **given,  # type: ignore[arg-type]
    )  # fmt: skip


APART = bar("saswork", "/saswork", 2600.0, 1200.0, 1200.0, tool="fio", date="2026-11-20")
LOWER = bar("sasdata", "/gpfs/sasdata", None, None, 3000.0, cluster_total=True)


def rendered() -> str:
    found = chart_of([APART, LOWER])
    assert found is not None
    page = render_to_string("assessments/_measured_chart.html", {"measured": found, "mid": "m"})
    return html.unescape(page)


def td_texts(page: str) -> list[str]:
    return re.findall(r"<td[^>]*>(.*?)</td>", page, re.S)


def test_each_direction_has_its_bar_figures_and_verdict() -> None:
    page = rendered()
    # 2600 / 16 = 162.5 above band; 1200 / 16 = 75 short; 3000 / 16 = 187.5 above band
    for label, per_core, said in (("read", "162.5", "above band"), ("write", "75", "short")):
        assert f">{label}</text>" in page
        assert f"{per_core} MB/s per core · {said}" in page
    assert ">lower</text>" in page and "187.5 MB/s per core · above band" in page
    assert page.count('class="mc-bar ') == 3
    assert 'class="mc-bar mc-short"' in page and 'class="mc-bar mc-above-band"' in page
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in td_texts(page)]
    assert cells[:8] == ["saswork /saswork", "read", "2600", "16", "162.5", "above band",
                         "fio", "2026-11-20"]  # fmt: skip
    assert cells[8:16] == ["saswork /saswork", "write", "1200", "16", "75", "short", "fio",
                           "2026-11-20"]  # fmt: skip
    assert cells[16:] == ["sasdata /gpfs/sasdata (cluster total)", "lower of read and write",
                          "3000", "16", "187.5", "above band", "not recorded",
                          "not recorded"]  # fmt: skip


def test_the_text_alternative_and_notes_say_the_same() -> None:
    page = rendered()
    assert 'role="img" aria-labelledby="m-title m-desc"' in page
    desc = page.split('<desc id="m-desc">', 1)[1].split("</desc>", 1)[0]
    assert desc == (
        "saswork (/saswork): read 162.5 MB/s per core, above band; write 75 MB/s per core, "
        "short. sasdata (/gpfs/sasdata): lower of read and write 187.5 MB/s per core, above "
        "band (the whole cluster's total). 16 cores in use."
    )
    assert "saswork: measured by fio, 2026-11-20." in page
    assert "sasdata: tool not recorded; read and write not measured apart" in page
    assert "the whole cluster's total, shared by every node, not this host's" in page
    assert "style=" not in page and "<script" not in page  # the CSP: classes only


def test_a_read_that_may_be_the_page_caches_is_drawn_but_not_judged() -> None:
    cached = Direction(256000.0, 16000.0, "may be cache")
    written = bar("saswork", "/saswork", None, 900.0, 900.0, tool="dd")
    found = chart_of([replace(written, read=cached, read_cached=True)])
    assert found is not None
    page = html.unescape(
        render_to_string("assessments/_measured_chart.html", {"measured": found, "mid": "m"})
    )
    # Beside the bar (the SVG's width): "not judged", the name line saying why.
    assert "16000 MB/s per core · not judged" in page
    assert "saswork (/saswork) · read may be the page cache</text>" in page
    assert f"read 16000 MB/s per core, {CACHE_WORDS}; write 56.2 MB/s per core, short" in page
    assert 'class="mc-bar mc-may-be-cache"' in page and "above band" not in page
    cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in td_texts(page)]
    assert cells[:6] == ["saswork /saswork", "read", "256000", "16", "16000", CACHE_WORDS]
    assert "the read may be the page cache's (files smaller than the RAM" in page
