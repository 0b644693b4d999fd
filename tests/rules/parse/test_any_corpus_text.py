"""Real command output, cut and shuffled: still facts or a line-numbered problem.

test_any_text.py feeds the parsers random text, which most give up on at the first line.
Here the texts are made of the corpus's real sections (tests/fixtures/parse), damaged the
way pastes are (a line cut short, lost or doubled, a garbage line, the output cut off),
pasted behind any prompt shape with LF or CRLF: the fuzzer reaches the code past the
header, where a real table's odd row sits.
"""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.parse.registry import Garbled, Section, find
from rules.parse.sections import argv_of
from tests.rules.parse.fixtures import corpus_names, header_and_output
from tests.rules.parse.test_any_text import assert_drafts_with_problems_by_line

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
OUTPUTS = [header_and_output(name) for name in corpus_names()]
SECTIONS = [(h["command"], tuple(lines)) for h, lines in OUTPUTS]
READ = [(c, lines) for c, lines in SECTIONS if find(argv_of(c)) is not None]
PROMPTS = (
    "# ", "$ ", "[root@rhel9 ~]# ", "aix01:/> ", "bash-5.1$ ", "root@sles ~ # ", "sh-4.2# ",
    "kb@ubuntu:~$ ", "\x1b[01;32m[root@h ~]#\x1b[0m ", "PS C:\\> ", "", "## ", "> ",
)  # fmt: skip
GARBAGE = st.text(string.printable + "\x00\x1b└─é\u00a0", max_size=120)


@st.composite
def damaged(draw: st.DrawFn, lines: tuple[str, ...]) -> list[str]:
    """The lines as a bad paste leaves them."""
    out = list(lines)
    for _ in range(draw(st.integers(0, 4))):
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        kind = draw(st.sampled_from(["cut", "drop", "double", "garbage", "end"]))
        if kind == "cut":
            out[i] = out[i][: draw(st.integers(0, len(out[i])))]
        elif kind == "drop":
            del out[i]
        elif kind == "double":
            out.insert(i, out[i])
        elif kind == "garbage":
            out.insert(i, draw(GARBAGE))
        else:
            out = out[:i]
    return out


@st.composite
def pastes(draw: st.DrawFn) -> str:
    parts = []
    for command, lines in draw(st.lists(st.sampled_from(SECTIONS), min_size=1, max_size=8)):
        parts.append(draw(st.sampled_from(PROMPTS)) + command)
        parts.extend(draw(damaged(lines)))
    if draw(st.booleans()):
        parts.append(draw(st.sampled_from(PROMPTS)))  # a bare prompt trails
    return draw(st.sampled_from(["\n", "\r\n"])).join(parts)


@SETTINGS
@given(text=pastes())
def test_real_sections_damaged_give_a_draft_with_problems_by_line(text: str) -> None:
    assert_drafts_with_problems_by_line(text)


@st.composite
def read_sections(draw: st.DrawFn) -> Section:
    command, lines = draw(st.sampled_from(READ))
    return Section(command, argv_of(command), tuple(draw(damaged(lines))), 1)


@SETTINGS
@given(section=read_sections())
def test_each_parser_on_its_own_damaged_output_gives_a_value_or_garbled(section: Section) -> None:
    parser = find(section.argv)
    assert parser is not None
    try:
        parser.fn(section)
    except Garbled as exc:
        assert exc.message
        assert 0 <= exc.offset <= max(0, len(section.lines) - 1)
