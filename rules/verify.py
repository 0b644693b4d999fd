"""Verify (drift): hold the advice an assessment gave against a newer reading of its server.

The advice is the stored one (`rules.verify_advice`), never a new run of today's rules: an
assessment made on older rules is checked against the settings it gave. The newer reading
is a collector bundle or a transcript (`rules.parse`); its `current` block is what the
server runs now, and it must be of the same server (`rules.verify_host`). Each
recommendation becomes a row — setting, recommended, actual, compliant — where compliant
is None for checks and advice and for settings the reading did not cover (unknown: not
read, which is not drift).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.compare import Row, status_of, value_read
from rules.current import Current
from rules.parse import draft
from rules.parse.draft import Draft
from rules.validate import parse_part
from rules.verify_advice import Advice, AdviceError, read_advice
from rules.verify_host import HostCheck, ReadingMismatch, check_host
from rules.verify_how import how_to_verify

__all__ = [
    "Advice",
    "AdviceError",
    "ReadingMismatch",
    "Verification",
    "read_advice",
    "unjudgeable",
    "verify",
]


@dataclass(frozen=True)
class Verification:
    rows: list[Row]
    draft: Draft
    host: HostCheck
    rules_version: str  # the rules the verified advice was given by

    @property
    def non_compliant(self) -> list[Row]:
        return [r for r in self.rows if r.compliant is False]

    @property
    def unread(self) -> list[Row]:
        """Settings the reading did not cover: unknown, neither compliant nor drift."""
        return [r for r in self.rows if r.status == "unknown"]

    def to_dict(self) -> dict[str, Any]:
        counted = [r for r in self.rows if r.compliant is not None]
        return {
            "rules_version": self.rules_version,
            "host": self.host.to_dict(),
            "rows": [r.to_dict() for r in self.rows],
            "compliant": sum(1 for r in counted if r.compliant),
            "non_compliant": len(self.non_compliant),
            "not_verified": len(self.rows) - len(counted),
            "not_read": len(self.unread),
            "problems": self.draft.problems,
            "unknown_commands": self.draft.unknown,
        }


def current_of(found: Draft) -> Current | None:
    """The `current` block a reading gives, validated by the contract."""
    block = found.document.get("current")
    if not isinstance(block, dict):
        return None
    current: Current = parse_part(Current, block, "current")
    return current


def rows_of(advice: Advice, current: Current) -> list[Row]:
    """One row per recommendation the advice gave, against what the server runs now; a
    row not verified says how it could be."""
    config_file = advice.config_file
    out = []
    for rec in advice.recommendations:
        value = value_read(config_file, rec, current)
        status = status_of(rec, value)
        how = how_to_verify(rec, config_file) if status in ("check", "unknown") else None
        out.append(Row(rec.rule, rec.target, rec.setting, rec.value, value, status, how))
    return out


def verify(advice: Advice, text: str, *, allow_renamed_host: bool = False) -> Verification:
    """Raises TooLarge (the text), ReadingMismatch (another host or OS) and InventoryError
    (a reading whose current block breaks the contract)."""
    found = draft(text)
    host = check_host(advice, found, allow_renamed_host=allow_renamed_host)
    # A reading with no current block verifies nothing: never fall back to a stored one.
    now = current_of(found) or Current()
    return Verification(rows_of(advice, now), found, host, advice.rules_version)


def unjudgeable(checked: Verification) -> list[str]:
    """Why `checked` verifies nothing (empty when it can be judged): a reading in which
    nothing was recognised as a command's output (binary, prose, an inventory's JSON), or
    one that holds none of the advice's settings. A passing CI gate must mean something:
    the command line exits 2 on these, the API answers 400 naming the bundle."""
    if not checked.draft.provenance:
        return ["nothing in it was recognised as the output of a command the advisor reads: "
                "give the collector's bundle"]  # fmt: skip
    settings = [r for r in checked.rows if r.status != "check"]
    if settings and len(checked.unread) == len(settings):
        return [f"none of the {len(settings)} settings of the advice was read: nothing "
                "verified (give the collector's whole bundle)"]  # fmt: skip
    return []
