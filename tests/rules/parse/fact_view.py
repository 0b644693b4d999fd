"""The draft as the expect checks read it: a field by path, with where it came from.

`View.compare` gives the verdict on one field (missing, only guessed, another value);
`View.parsers` hands a parser's own fact to `parser_facts` where readings are given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.parse.draft import Draft
from tests.rules.parse import parser_facts
from tests.rules.parse.parser_facts import BAD, MISSING, WRONG, Readings

GUESSED, LEFT_OUT, UNREPRESENTABLE = "guessed", "left out", "not representable"


@dataclass(frozen=True)
class Verdict:
    category: str
    message: str


class View:
    """The draft, read by path, with where each value came from."""

    def __init__(self, draft: Draft, line: str, readings: Readings | None) -> None:
        self.doc = draft.document
        self.draft = draft
        self.line = line
        self.readings = readings
        self.guesses = {m.path: m.reason for m in draft.missing}

    def where(self, path: str) -> str:
        if path in self.guesses:
            return f" (a guess: {self.guesses[path]})"
        p = self.draft.provenance.get(path)
        if p is None:
            return ""
        return f" (from `{p.command}` line {p.line})" if p.line else f" (from `{p.command}`)"

    def fail(self, category: str, what: str) -> Verdict:
        return Verdict(category, f"expected {self.line}, {what}")

    def nowhere(self, key: str, why: str) -> Verdict:
        return Verdict(
            UNREPRESENTABLE, f"{self.line}: not representable in the draft: {key} ({why})"
        )

    def parsers(self, pairs: list[tuple[str, str]]) -> Verdict | None:
        """The fact checked against the parsers' own values (`parser_facts`)."""
        assert self.readings is not None
        miss = parser_facts.check(pairs, self.readings)
        if miss is None:
            return None
        category, what = miss
        if category == BAD:
            return Verdict(BAD, f"{what}: {self.line!r}")
        return self.fail(category, f"{what} (the parser's own reading)")

    def compare(self, path: str, name: str, same: bool, have: Any) -> Verdict | None:
        """The verdict on one field already read: None when it holds."""
        if have is None:
            return self.fail(MISSING, f"draft has no {name} ({path})")
        if path in self.guesses:
            return self.fail(GUESSED, f"draft only guesses {name}={have}{self.where(path)}")
        if not same:
            return self.fail(WRONG, f"draft has {name}={have}{self.where(path)}")
        return None


def close(have: Any, want: float, relative: float, absolute: float) -> bool:
    if isinstance(have, bool) or not isinstance(have, int | float):
        return False
    return abs(have - want) <= max(relative * want, absolute)


def storage_entry(view: View, test: Any) -> tuple[int, dict[str, Any]] | None:
    storage = view.doc.get("storage") or []
    return next(((i, e) for i, e in enumerate(storage) if test(e)), None)


def bare(device: str) -> str:
    """'/dev/mapper/centos-root' → 'centos-root', '/dev/hd2' → 'hd2'."""
    return device.rstrip("/").rsplit("/", 1)[-1] if device.startswith("/dev/") else device
