"""Which parsers each combiner reads: declared on it, and held to (insights-core's
`@combiner([...])`, stricter).

    @reads("df", "mount", "aix_lsfs", "aix_lsvg_lvs")
    def aix_storage(parsed: Parsed, b: Builder) -> None: ...

The decorated function is handed the parse as it may see it (`Parsed.only`): `first`,
`all` and `found` answer for the declared parsers and raise `UndeclaredRead` naming the
combiner and the parser for any other, so the declaration cannot drift from the code.
The helpers it calls with that view are covered by its declaration; another declared
combiner it calls reads through its own. `DECLARED` maps each combiner to its names:
tests/rules/parse/test_wiring.py fails on a registered parser no combiner declares
(its value would be read for nothing) and on a declared name no parser registers.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import update_wrapper
from typing import Concatenate, ParamSpec, TypeVar

from rules.parse import Parsed

P = ParamSpec("P")
R = TypeVar("R")

# 'rules.parse.combine_aix.aix_server' → the parsers it reads.
DECLARED: dict[str, frozenset[str]] = {}


def reads(
    *names: str,
) -> Callable[[Callable[Concatenate[Parsed, P], R]], Callable[Concatenate[Parsed, P], R]]:
    """Declare the parsers `fn(parsed, …)` reads; it is handed a view answering for them."""
    declared = frozenset(names)

    def wrap(fn: Callable[Concatenate[Parsed, P], R]) -> Callable[Concatenate[Parsed, P], R]:
        reader = f"{fn.__module__}.{fn.__qualname__}"
        if reader in DECLARED:
            raise ValueError(f"{reader} declared twice")
        DECLARED[reader] = declared

        def combiner(parsed: Parsed, /, *args: P.args, **kwargs: P.kwargs) -> R:
            return fn(parsed.only(declared, reader), *args, **kwargs)

        update_wrapper(combiner, fn)
        return combiner

    return wrap


def declared() -> frozenset[str]:
    """Every parser some combiner declares."""
    return frozenset().union(*DECLARED.values())
