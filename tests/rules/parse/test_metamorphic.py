"""The same server pasted otherwise gives the same draft (relations: metamorphic.py).

Over every whole transcript of tests/fixtures/transcripts: sections reordered (reversed,
rotated), `uname` removed from an AIX or Solaris paste (the OS must still be read), a
filtered duplicate first (`df -h | grep /dev/`, `mount | grep /dev/`, `lsblk -d`), a bare
prompt trailing, CRLF line ends, ANSI colours, 80-column wrapping (held to "the same facts
or a named problem"). What breaks today is KNOWN_METAMORPHIC_GAPS in corpus_gaps.py; a
break not listed there fails, and so does a listed one that holds now.
"""

from __future__ import annotations

import pytest

from rules.parse import draft
from tests.rules.parse.corpus_gaps import KNOWN_METAMORPHIC_GAPS
from tests.rules.parse.fixtures import transcript_file, transcript_names
from tests.rules.parse.metamorphic import RELATIONS, applies, chunks, failure

REPORT = "uv run python -m tests.rules.parse.gaps_report --write"
CASES = [(n, r) for n in transcript_names() for r in RELATIONS if applies(n, r)]


@pytest.mark.parametrize(("name", "relation"), CASES)
def test_the_same_server_pasted_otherwise_gives_the_same_facts(name: str, relation: str) -> None:
    broken = failure(name, relation)
    known = KNOWN_METAMORPHIC_GAPS.get(name, {}).get(relation)
    if known is None:
        assert broken is None, f"{name}, {relation}: {broken}\n(if it is to stay: {REPORT})"
    else:
        assert broken is not None, (
            f"{name}, {relation}: holds now, remove from corpus_gaps ({REPORT})"
        )


def test_the_gaps_name_only_relations_that_apply() -> None:
    stale = [
        f"{name}: {relation}"
        for name, relations in KNOWN_METAMORPHIC_GAPS.items()
        for relation in relations
        if (name, relation) not in CASES
    ]
    assert not stale, f"remove from corpus_gaps ({REPORT}): {stale}"


def test_every_transcript_is_held_to_most_relations() -> None:
    """At least ten whole transcripts of real output, each under the relations that need
    no particular command (reordering where it has two sections, prompt, CRLF, colours)."""
    assert len(transcript_names()) >= 10
    for name in transcript_names():
        mine = {r for n, r in CASES if n == name}
        assert {"trailing_prompt", "crlf", "ansi"} <= mine, name
        if len(chunks(transcript_file(name)[2])[1]) > 1:
            assert {"reversed", "rotated"} <= mine, name


def test_the_relations_change_the_text_and_keep_its_sections() -> None:
    """The transforms themselves, on a real transcript: the same commands, pasted otherwise."""
    _, _, text = transcript_file("ubuntu_jc.txt")
    commands = sorted(s["command"] for s in draft(text).to_dict()["unknown_commands"])
    for relation in ("reversed", "rotated", "trailing_prompt", "crlf", "ansi"):
        changed = RELATIONS[relation](text)
        assert changed is not None and changed != text, relation
        again = sorted(s["command"] for s in draft(changed).to_dict()["unknown_commands"])
        assert again == commands, relation
    duplicated = RELATIONS["filtered_duplicate"](text) or ""
    assert "$ df -h | grep /dev/\n" in duplicated and "$ lsblk -d\n" in duplicated
    wrapped = (RELATIONS["wrapped_80"](text) or "").split("\n")
    output = [line for line in wrapped if not line.startswith("kbrazil@kbrazil-ubuntu:~$ ")]
    assert len(wrapped) > len(text.split("\n")) and max(map(len, output)) <= 80
