"""JSON from outside, parsed so that no number in it can crash what comes after.

The standard parser turns `NaN`, `Infinity` and `1e999` into floats PostgreSQL's jsonb
refuses, and an integer of any length into an int: past 4,300 digits Python refuses to
convert it (a ValueError no caller expected), and past 64 bits orjson cannot write it
when the document is stored. `loads` refuses all of them with `UnsafeJSON`, naming the
value's JSON path (`storage[1].size_gb`), the way the contract names its problems.

It also refuses, before parsing, a text whose parsed form would not fit in memory:
`parsed_bytes` bounds what the Python objects of a JSON text can take (an empty object,
three bytes of text, is a 64-byte dict), so a caller can judge an upload before it costs
anything.
"""

from __future__ import annotations

import json
import math
from typing import Any

from advisor.core.text import storable

ROOT = "$"  # the document itself, as rules.validate names it
MAX_INT_DIGITS = 20  # 2**64 - 1 has 20 digits: a longer integer cannot be stored anyway
INT_MIN, INT_MAX = -(2**63), 2**64 - 1  # what orjson (and so the JSON columns) can write
# Per `{`, `[`, `,` or `:` of the text, the most one value or member costs once parsed:
# a 64-byte empty dict, a 56-byte list, or a short string or float plus the 8-byte slot
# that holds it (measured with tracemalloc on CPython 3.11: "{}," costs 72 bytes).
BYTES_PER_TOKEN = 48
# A text that is not all ASCII may become a str of four bytes a character.
WIDEST_CHAR = 4
MAX_KEY_SHOWN = 64  # characters of an object key shown in a path


class UnsafeJSON(ValueError):
    """A number the application cannot carry, at `path`."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class TooLarge(ValueError):
    """A JSON text whose parsed form could take more than the caller allows."""

    def __init__(self, estimate: int, limit: int) -> None:
        super().__init__(f"would take up to {mib(estimate)} once read; the limit is {mib(limit)}")
        self.estimate = estimate
        self.limit = limit


def mib(size: int) -> str:
    return f"{size / 2**20:,.1f} MiB"


def parsed_bytes(data: bytes) -> int:
    """An upper bound of the memory json.loads(data) can take (the text decoded, its
    values built): counted in C over the bytes, never by parsing them."""
    tokens = sum(data.count(c) for c in (b"{", b"[", b",", b":"))
    width = 1 if data.isascii() else WIDEST_CHAR
    return width * len(data) + BYTES_PER_TOKEN * (tokens + 1)


class _Refused:
    """Stands in the parsed document where a refused number was, so its path is found."""

    __slots__ = ("message",)

    def __init__(self, message: str) -> None:
        self.message = message


def loads(data: bytes | str, *, max_parsed_bytes: int | None = None) -> Any:
    """The parsed JSON. Raises UnsafeJSON for a number it refuses, TooLarge before parsing
    a text over `max_parsed_bytes`, and what json.loads raises for text that is no JSON
    (ValueError, UnicodeDecodeError, RecursionError)."""
    if max_parsed_bytes is not None:
        raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
        estimate = parsed_bytes(raw)
        if estimate > max_parsed_bytes:
            raise TooLarge(estimate, max_parsed_bytes)
    refused: list[_Refused] = []

    def refuse(message: str) -> _Refused:
        marker = _Refused(message)
        refused.append(marker)
        return marker

    def parse_int(text: str) -> int | _Refused:
        digits = len(text.lstrip("-"))
        if digits > MAX_INT_DIGITS:
            return refuse(f"an integer of {digits:,} digits; numbers must fit in 64 bits")
        value = int(text)
        if not INT_MIN <= value <= INT_MAX:
            return refuse(f"{text} does not fit in 64 bits")
        return value

    def parse_float(text: str) -> float | _Refused:
        value = float(text)
        if math.isfinite(value):
            return value
        return refuse(f"{text[:40]} is too large for a number")

    def parse_constant(text: str) -> _Refused:
        return refuse(f"{text} is not a number JSON allows")

    document = json.loads(
        data, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant
    )
    if refused:
        first = refused[0]
        raise UnsafeJSON(path_of(document, first), first.message)
    return document


def path_of(document: Any, target: object) -> str:
    """The JSON path of `target` within the document (`servers[2].cpus`), depth first in
    document order; walked with a stack, so no depth the parser took can overflow it."""
    stack: list[tuple[Any, str]] = [(document, ROOT)]
    while stack:
        value, path = stack.pop()
        if value is target:
            return path
        if isinstance(value, dict):
            members = [(v, _member(path, str(k))) for k, v in value.items()]
            stack.extend(reversed(members))
        elif isinstance(value, list):
            items = [(v, f"{'' if path == ROOT else path}[{n}]") for n, v in enumerate(value)]
            stack.extend(reversed(items))
    return ROOT


def _member(path: str, key: str) -> str:
    shown = storable(key if len(key) <= MAX_KEY_SHOWN else key[:MAX_KEY_SHOWN] + "…")
    return shown if path == ROOT else f"{path}.{shown}"
