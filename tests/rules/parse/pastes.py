"""Pieces of real pasted sessions, as admins paste them (tests/fixtures/pastes/).

Each file opens with `## source:` lines naming where its lines were published; the rest
is the paste, prompts and all. Unlike the corpus (one command's output a file) and the
whole-server transcripts, a piece is kept for the shape of its prompts and repeats.
"""

from __future__ import annotations

from tests.rules.parse.fixtures import ROOT

PASTES = ROOT.parent / "pastes"


def paste(name: str) -> str:
    """The paste's text, its `## source:` lines left out."""
    lines = (PASTES / name).read_text(encoding="utf-8").split("\n")
    sources = [line for line in lines if line.startswith("## source: ")]
    assert sources, f"{name}: no '## source:' line"
    return "\n".join(lines[len(sources) :])


def line_of(text: str, line: str) -> int:
    """The 1-based number of the paste's first line that is exactly `line`."""
    return text.split("\n").index(line) + 1
