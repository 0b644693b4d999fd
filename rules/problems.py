"""What a bad document gets back: every problem by JSON path, reported together."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    path: str  # 'storage[3].mount'; '$' is the document itself
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
