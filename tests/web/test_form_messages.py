"""The form's error messages are the contract's own, said in words: no character class or
other regular-expression syntax reaches a reader (the API keeps the exact message)."""

from __future__ import annotations

import re

import pytest

import rules.current
import rules.kinds
import rules.kinds_estate
from advisor.assessments.inventory_form import friendly

REGEX_SYNTAX = re.compile(r"\[[^\]]*[A-Za-z]-[A-Za-z][^\]]*\]|\\[dsw](?![a-z])|\{\d+,\d*\}|\(\?:")


def _pattern_messages() -> list[str]:
    found = []
    for module in (rules.kinds, rules.kinds_estate, rules.current):
        for value in vars(module).values():
            message = getattr(value, "message", None)
            if isinstance(message, str) and getattr(value, "regex", None) is not None:
                found.append(message)
            elif isinstance(value, str) and value.startswith("must ") and "[" in value:
                found.append(value)
    return found


def test_the_contract_has_messages_with_character_classes() -> None:
    assert sum(bool(REGEX_SYNTAX.search(m)) for m in _pattern_messages()) >= 3


@pytest.mark.parametrize("message", _pattern_messages())
def test_a_pattern_message_reads_without_regex(message: str) -> None:
    said = friendly(message)
    assert not REGEX_SYNTAX.search(said), said
