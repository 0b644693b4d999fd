"""Small text helpers shared by the Linux and cross-Unix parsers.

The pair syntax (`KEY="value"`, with `\\xNN` escapes for unsafe bytes) is the one
util-linux's libsmartcols prints for `lsblk -P` and `findmnt -P`; the octal escapes
(`\\040`) are the kernel's in /proc/mounts (fs/proc_namespace.c, `mangle()`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from rules.parse.registry import Garbled, Section

# Sizes past 2**63 bytes are not a real disk; they come from a garbled number.
MAX_BYTES = 2**63
_PAIR = re.compile(r'([A-Za-z][A-Za-z0-9_:%.-]{0,40})="((?:[^"\\]|\\.){0,4096})"')
_HEX = re.compile(r"\\x([0-9a-fA-F]{2})")
_OCTAL = re.compile(r"\\([0-7]{3})")
_HUMAN = re.compile(r"(\d{1,20}(?:[.,]\d{1,6})?)\s?([KMGTPE]?)(i?B?)", re.IGNORECASE)
_POWERS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}


def unhex(text: str) -> str:
    """`\\x20` escapes (libsmartcols) decoded."""
    return _HEX.sub(lambda m: chr(int(m.group(1), 16)), text) if "\\x" in text else text


def unoctal(text: str) -> str:
    """`\\040` escapes (the kernel's mount tables) decoded."""
    return _OCTAL.sub(lambda m: chr(int(m.group(1), 8)), text) if "\\" in text else text


def pairs(line: str) -> dict[str, str]:
    """The `KEY="value"` pairs of one `-P` output line, escapes decoded."""
    return {key: unhex(value.replace('\\"', '"')) for key, value in _PAIR.findall(line)}


def number(text: str | None, limit: int = MAX_BYTES) -> int | None:
    """A non-negative decimal integer, or None for '-', '', or an absurd value."""
    if text is None:
        return None
    text = text.strip()
    if not text.isdigit() or len(text) > 20 or not text.isascii():
        return None
    value = int(text)
    return value if value <= limit else None


@functools.lru_cache(maxsize=4096)  # a listing repeats its sizes: '500M', '1.8T', '0'
def human_bytes(text: str | None) -> int | None:
    """'1.8T', '500M', '64.3M', '0B' (lsblk's binary units) or plain bytes, in bytes."""
    if text is None:
        return None
    text = text.strip()
    plain = number(text)
    if plain is not None:
        return plain
    found = _HUMAN.fullmatch(text)
    if found is None:
        return None
    value = float(found.group(1).replace(",", ".")) * 1024 ** _POWERS[found.group(2).upper()]
    return int(value) if value <= MAX_BYTES else None


def meaningful(section: Section) -> list[tuple[int, str]]:
    """The non-blank output lines with their offsets."""
    return [(i, line) for i, line in enumerate(section.lines) if line.strip()]


def require(rows: Iterable[object], section: Section, what: str) -> None:
    """Garbled when nothing at all was read from a section that has text."""
    if not list(rows):
        lines = meaningful(section)
        offset = lines[0][0] if lines else 0
        raise Garbled(f"no {what} found in this output", offset)


def first_value_line(section: Section) -> tuple[int, str]:
    """The first non-blank line, or Garbled on empty output."""
    for offset, line in meaningful(section):
        return offset, line.strip()
    raise Garbled("the output is empty", 0)
