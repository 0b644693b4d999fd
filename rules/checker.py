"""The checker behind `rules.validate`: problems by JSON path, collected, never raised one by one.

`_Checker` holds one method per kind of field (object with known keys, choice, integer,
number, text, pattern); each records a `Problem` and returns None when the value is bad,
so a whole document is checked in one pass and every problem is reported together.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class InventoryError(ValueError):
    """A document that breaks the contract; `problems` lists every one by path."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))

    def as_dict(self) -> dict[str, list[str]]:
        """Problems grouped by path, as the API returns them."""
        out: dict[str, list[str]] = {}
        for p in self.problems:
            out.setdefault(p.path, []).append(p.message)
        return out


class _Checker:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def obj(self, value: Any, path: str, keys: tuple[str, ...], required: tuple[str, ...]) -> bool:
        if not isinstance(value, Mapping):
            self.fail(path or "$", "must be an object")
            return False
        for key in value:
            if key not in keys:
                self.fail(_join(path, str(key)), "unknown field")
        for key in required:
            if key not in value:
                self.fail(_join(path, key), "is required")
        return True

    def choice(self, value: Any, path: str, options: tuple[str, ...]) -> str | None:
        if not isinstance(value, str) or value not in options:
            self.fail(path, "must be one of " + ", ".join(repr(o) for o in options))
            return None
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, "must be an integer")
            return None
        if not lo <= value <= hi:
            self.fail(path, f"must be between {lo} and {hi}")
            return None
        return value

    def number(
        self, value: Any, path: str, lo: float, hi: float, *, exclusive_lo: bool = False
    ) -> float | None:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            self.fail(path, "must be a number")
            return None
        if (value <= lo if exclusive_lo else value < lo) or value > hi:
            low = f"greater than {lo:g}" if exclusive_lo else f"at least {lo:g}"
            self.fail(path, f"must be {low} and at most {hi:g}")
            return None
        return float(value)

    def text(self, value: Any, path: str, max_len: int) -> str | None:
        if not isinstance(value, str):
            self.fail(path, "must be a string")
            return None
        if len(value) > max_len:
            self.fail(path, f"must be at most {max_len} characters")
            return None
        if _CONTROL.search(value):
            self.fail(path, "must not contain control characters")
            return None
        return value

    def pattern(self, value: Any, path: str, regex: re.Pattern[str], message: str) -> str | None:
        if not isinstance(value, str) or not regex.fullmatch(value):
            self.fail(path, message)
            return None
        return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
