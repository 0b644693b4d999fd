"""The renderers' text helpers: whatever a reason holds, it stays on one line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.render._common import one_line, wrap


@given(st.text())
def test_one_line_folds_every_whitespace_run_to_one_space(text: str) -> None:
    assert one_line(text) == " ".join(text.split())


@given(st.text(), st.integers(min_value=8, max_value=120))
def test_wrap_never_breaks_inside_a_line_and_loses_no_word(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert all("\n" not in line and "\r" not in line for line in lines)
    assert " ".join(lines).split() == text.split()
