"""Text from outside made storable: PostgreSQL refuses NUL in text and JSON, and UTF-8
cannot encode a lone surrogate (which JSON's \\ud800 escapes can produce)."""

from __future__ import annotations

import re
from typing import Any

MAX_DEPTH = 200
CONTROL = re.compile(r"[\x00-\x1f\x7f]")
CONTROL_MESSAGE = "must not contain control characters (NUL, tab, line breaks …)"


def storable(text: str) -> str:
    """The text without NUL characters, lone surrogates replaced by U+FFFD."""
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text


def _clean(value: Any, depth: int = 0) -> bool:
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, str):
        return storable(value) == value
    if isinstance(value, dict):
        return all(_clean(k, depth + 1) and _clean(v, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return all(_clean(v, depth + 1) for v in value)
    return True


def is_storable(value: Any) -> bool:
    """Whether every string in a parsed JSON value (keys too) can be stored as it is."""
    return _clean(value)


def has_control(text: str) -> bool:
    """Whether the text holds a control character: no search term or filter value does."""
    return CONTROL.search(text) is not None


def without_control(text: str) -> str:
    """The text with its control characters removed (a search term from a query string)."""
    return CONTROL.sub("", text) if has_control(text) else text
