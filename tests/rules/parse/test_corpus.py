"""The corpus acceptance: enough real outputs of every command family, each giving its facts.

A family is a registered parser (tests/rules/parse/corpus.py). Each needs at least
MIN_FILES fixtures from MIN_SOURCES independent sources; the families short of that today
are KNOWN_SHORT, and an entry there fails once it is met or if its family loses fixtures.

Each fixture is pasted as a one-command transcript and each whole-server transcript as it
is, and every `## expect:` line is checked against the draft (tests/rules/parse/facts.py).
The facts that fail today are in corpus_gaps.py, written by
`uv run python -m tests.rules.parse.gaps_report --write`: a failure not listed there fails,
and so does a listed one that holds now, so the list only shrinks.
"""

from __future__ import annotations

import pytest

from tests.rules.parse.corpus import (
    MIN_FILES,
    MIN_SOURCES,
    family_table,
    fixture_failures,
    render_table,
    short,
    source_key,
    transcript_failures,
)
from tests.rules.parse.corpus_gaps import KNOWN_GAPS, KNOWN_TRANSCRIPT_GAPS
from tests.rules.parse.facts import BAD, Verdict
from tests.rules.parse.fixtures import corpus_names, expects, transcript_names

REPORT = "uv run python -m tests.rules.parse.gaps_report --write"
# family → (files, sources) today, and why it is short.
KNOWN_SHORT: dict[str, tuple[int, int, str]] = {
    "aix_smtctl": (
        4,
        4,
        "smtctl is printed in few public posts; no fifth capture found yet (talkwithtrend's "
        "and cnblogs' posts carry chinaunix's same test_db output, not another)",
    ),
    "sasiotest": (
        3,
        1,
        "the SAS 9.4 Companion for Windows' three examples are the only sasiotest output "
        "found published, and the utility runs only on Windows with SAS installed",
    ),
}


def test_every_command_family_has_enough_real_outputs() -> None:
    table = family_table()
    problems = []
    for family, (files, sources) in table.items():
        known, have = KNOWN_SHORT.get(family), f"{files} files from {len(sources)} sources"
        if known is None and short(files, sources):
            problems.append(f"{family}: {have}; needs {MIN_FILES} from {MIN_SOURCES}")
        elif known is not None and not short(files, sources):
            problems.append(f"{family}: {have} now: remove it from KNOWN_SHORT")
        elif known is not None and (files < known[0] or len(sources) < known[1]):
            problems.append(f"{family}: {have}, fewer than KNOWN_SHORT's {known[:2]}")
    gone = KNOWN_SHORT.keys() - table.keys()
    problems += [f"{f}: no longer a parser: remove it from KNOWN_SHORT" for f in sorted(gone)]
    assert not problems, "\n".join(problems) + "\n\n" + render_table(table)


@pytest.mark.parametrize(
    ("source", "key"),
    [
        ("https://github.com/chef/ohai/blob/abc/spec/x.rb (@mount)", "github.com/chef"),
        (
            "https://github.com/fusioninventory/fusioninventory-agent/issues/1",
            "github.com/glpi-project",
        ),
        ("https://www.ibm.com/docs/en/aix/7.2?topic=x", "ibm.com"),
        (
            "RedHatInsights/insights-core insights/tests/parsers/test_uname.py (UNAME1)",
            "github.com/RedHatInsights",
        ),
        (
            "captured on the CI build machine (Debian 12 container), 2026-11-23",
            "this project's CI machine",
        ),
        ("http://ahix.fr/tous-les-articles/docaix/39", "ahix.fr"),
    ],
)
def test_a_source_is_its_owner(source: str, key: str) -> None:
    assert source_key(source) == key


def _compare(failing: dict[str, Verdict], known: dict[str, str], where: str) -> list[str]:
    """What differs from the recorded gaps, one line each."""
    out = []
    for line, v in failing.items():
        if v.category == BAD:  # a corpus error is never a gap
            out.append(f"{where}: {v.message}")
        elif line not in known:
            out.append(f"{where}: [{v.category}] {v.message}")
    fixed = [line for line in known if line not in failing]
    return out + [f"{where}: holds now, remove from corpus_gaps: {line}" for line in fixed]


WITH_FACTS = [name for name in corpus_names() if expects(name)]


@pytest.mark.parametrize("name", WITH_FACTS)
def test_each_fixture_gives_its_facts(name: str) -> None:
    problems = _compare(fixture_failures(name), KNOWN_GAPS.get(name, {}), name)
    assert not problems, "\n".join(problems) + f"\n(after a fix: {REPORT})"


@pytest.mark.parametrize("name", transcript_names())
def test_each_whole_transcript_gives_its_facts(name: str) -> None:
    problems = _compare(transcript_failures(name), KNOWN_TRANSCRIPT_GAPS.get(name, {}), name)
    assert not problems, "\n".join(problems) + f"\n(after a fix: {REPORT})"


def test_the_gaps_name_only_fixtures_and_facts_there_are() -> None:
    stale = [n for n in KNOWN_GAPS if n not in WITH_FACTS]
    stale += [n for n in KNOWN_TRANSCRIPT_GAPS if n not in transcript_names()]
    for name, gaps in KNOWN_GAPS.items():
        if name in WITH_FACTS:
            stale += [f"{name}: {line}" for line in gaps if line not in expects(name)]
    assert not stale, f"remove from corpus_gaps ({REPORT}): {stale}"


def test_the_corpus_is_a_corpus() -> None:
    """The acceptance's scale: several hundred captures, ten whole transcripts."""
    assert len(corpus_names()) >= 300
    assert len(transcript_names()) >= 10
