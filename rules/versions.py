"""Version numbers as the contract compares them: dotted numbers, never strings."""

from __future__ import annotations


def version_tuple(text: str) -> tuple[int, ...]:
    """'7.2' -> (7, 2); '9.1.3' -> (9, 1, 3). The contract holds versions to dotted digits."""
    return tuple(int(part) for part in text.split("."))
