"""Every regular expression in rules/ runs in time linear in its input.

rules/ reads untrusted text (bundles, transcripts, SAS logs up to many MB), so no pattern
may backtrack more than a bounded amount per character. Two checks:

- static: the parse tree of each pattern has no unbounded repeat inside another one that
  can match the same characters, no two unbounded repeats that can share characters with
  nothing mandatory and disjoint between them, and, for a pattern used with `search` (or
  sub, findall, finditer, split), no unbounded repeat that can run over the pattern's own
  first characters before something it may then fail on (each of the search's starting
  points would scan the same run again);
- measured: each pattern, used as rules/ uses it, on 1 MB adversarial strings built from
  its own literals and classes, runs within RATIO times a linear reference scan of the
  same length timed in the same test, both in the CPU time of the test's own thread (so
  other processes, a parallel run's other workers among them, count for neither).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from re import _constants as sre_c  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

import pytest

import rules

RULES = Path(rules.__file__).resolve().parent
SEARCHING = frozenset({"search", "sub", "subn", "findall", "finditer", "split"})
ANCHORED = frozenset({"match", "fullmatch"})
SIZES = (512, 16 * 1024, 1024 * 1024)  # a quadratic pattern fails cheaply on a small one
RATIO = 50.0  # the budget: this many reference scans of the same string
GATE = 10  # on the small sizes, where a timer tick weighs, RATIO times this
TRIES = 3  # the best of three: a slice lost to another process fails nothing
ALPHABET = frozenset(map(chr, range(128))) | frozenset("\u00a0é│─\u2028\U0001f600")
# Reviewed: safe as rules/ uses them though the static check cannot tell. One reason each.
ALLOWED = {
    "rules.parse.linux_system._RELEASE": "fullmatch of one line: the closing .* takes the rest "
    "of a line, which has no newline, so it never fails and the name is tried once",
    "rules.parse.linux_storage._TREE_ROW": "match: the "
    "closing (.*) never fails, so \\S+ gives back at most once per character of the indent",
}


@dataclass(frozen=True)
class Found:
    where: str
    pattern: re.Pattern[str]
    searched: bool  # used with search & co. (or not known): every start position counts


# ---- finding the patterns -------------------------------------------------------------


def _modules() -> list[str]:
    found = [rules.__name__]
    for info in pkgutil.walk_packages([str(RULES)], prefix="rules."):
        if not info.name.endswith("__main__"):
            found.append(info.name)
    return found


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(RULES.parent)): ast.parse(p.read_text()) for p in RULES.rglob("*.py")}


def _uses(trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """{name: methods}: how each named pattern is used (`NAME.match(…)`, `map(m.NAME.search,
    …)`); a name used more than one way counts every way."""
    uses: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or node.attr not in SEARCHING | ANCHORED:
                continue
            owner = node.value
            name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", None)
            if name:
                uses.setdefault(name, set()).add(node.attr)
    return uses


def _searched(methods: set[str] | None) -> bool:
    return not methods or not methods <= ANCHORED


def compiled_patterns() -> Iterator[Found]:
    uses = _uses(_trees())
    for name in _modules():
        module = importlib.import_module(name)
        scopes = [(name, vars(module))]
        scopes += [(f"{name}.{k}", vars(v)) for k, v in vars(module).items() if isinstance(v, type)]
        for prefix, scope in scopes:
            for key, value in scope.items():
                values = value.values() if isinstance(value, dict) else [value]
                values = value if isinstance(value, list | tuple) else values
                for item in values:
                    if isinstance(item, re.Pattern) and isinstance(item.pattern, str):
                        yield Found(f"{prefix}.{key}", item, _searched(uses.get(key)))


def inline_patterns() -> Iterator[Found]:
    """`re.search(r"…", text)` and the like, written where they are used."""
    for path, tree in _trees().items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            func, args = node.func, node.args
            if not (isinstance(func.value, ast.Name) and func.value.id == "re" and args):
                continue
            if func.attr not in SEARCHING | ANCHORED:
                continue
            if not (isinstance(args[0], ast.Constant) and isinstance(args[0].value, str)):
                continue
            flags = re.IGNORECASE if "re.I" in ast.unparse(node) else 0
            pattern = re.compile(args[0].value, flags)
            # Named by file and text, not line: an edit above it keeps its allowlist entry.
            yield Found(f"{path}:{args[0].value}", pattern, func.attr not in ANCHORED)


ALL = sorted(
    {f.where: f for f in [*compiled_patterns(), *inline_patterns()]}.values(),
    key=lambda f: f.where,
)


# ---- the static check -----------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """One element of a sequence: how short it can be, the characters it can start with
    and consume, and whether it holds an unbounded repeat (that backtracks, or at all)."""

    minw: int
    first: frozenset[str]
    chars: frozenset[str]
    backtracks: bool = False
    unbounded: bool = False
    head: frozenset[str] = frozenset()  # what an unbounded repeat it may open with takes
    tail: frozenset[str] = frozenset()  # what a backtracking repeat it may end with gives back


def _leaf(op: object, av: object, flags: int) -> frozenset[str]:
    matcher = re.compile(_source(op, av), flags & (re.IGNORECASE | re.DOTALL))
    return frozenset(c for c in ALPHABET if matcher.fullmatch(c))


CATEGORIES = {
    sre_c.CATEGORY_DIGIT: r"\d", sre_c.CATEGORY_NOT_DIGIT: r"\D",
    sre_c.CATEGORY_SPACE: r"\s", sre_c.CATEGORY_NOT_SPACE: r"\S",
    sre_c.CATEGORY_WORD: r"\w", sre_c.CATEGORY_NOT_WORD: r"\W",
}  # fmt: skip


def _source(op: object, av: object) -> str:
    if op is sre_c.LITERAL:
        return re.escape(chr(av))  # type: ignore[arg-type]
    if op is sre_c.NOT_LITERAL:
        return f"[^{re.escape(chr(av))}]"  # type: ignore[arg-type]
    if op is sre_c.ANY:
        return "."
    if op is sre_c.CATEGORY:
        return CATEGORIES[av]
    parts = []  # IN
    for kind, value in av:  # type: ignore[attr-defined]
        if kind is sre_c.NEGATE:
            parts.insert(0, "^")
        elif kind is sre_c.LITERAL:
            parts.append(re.escape(chr(value)))
        elif kind is sre_c.RANGE:
            parts.append(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
        else:
            parts.append(CATEGORIES[value])
    return f"[{''.join(parts)}]"


LEAVES = (sre_c.LITERAL, sre_c.NOT_LITERAL, sre_c.ANY, sre_c.IN, sre_c.CATEGORY)
REPEATS = (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, sre_c.POSSESSIVE_REPEAT)


def units(seq: list[tuple[object, object]], flags: int, problems: list[str]) -> list[Unit]:
    """The sequence's units (groups spliced in), checking every nested sequence on the way."""
    out: list[Unit] = []
    for op, av in seq:
        if op in LEAVES:
            chars = _leaf(op, av, flags)
            out.append(Unit(1, chars, chars))
        elif op is sre_c.SUBPATTERN:
            out += units(list(av[3]), flags | av[1], problems)  # type: ignore[index]
        elif op is sre_c.ATOMIC_GROUP:
            inner = units(list(av), flags, problems)  # type: ignore[call-overload]
            out.append(_joined(inner, backtracks=False))
        elif op is sre_c.BRANCH:
            alts = [_joined(units(list(a), flags, problems)) for a in av[1]]  # type: ignore[index]
            out.append(_either(alts))
        elif op in REPEATS:
            out.append(_repeat(op, av, flags, problems))
        elif op in (sre_c.ASSERT, sre_c.ASSERT_NOT):
            units(list(av[1]), flags, problems)  # type: ignore[index]
    _adjacent(out, problems)
    return out


def _either(alts: list[Unit]) -> Unit:
    def union(attr: str) -> frozenset[str]:
        return _union([getattr(a, attr) for a in alts])

    return Unit(
        min(a.minw for a in alts), union("first"), union("chars"),
        any(a.backtracks for a in alts), any(a.unbounded for a in alts),
        union("head"), union("tail"),
    )  # fmt: skip


def _repeat(op: object, av: object, flags: int, problems: list[str]) -> Unit:
    lo, hi, body = av  # type: ignore[misc]
    inner = units(list(body), flags, problems)
    whole = _joined(inner)
    endless = hi == sre_c.MAXREPEAT
    gives_back = endless and op is not sre_c.POSSESSIVE_REPEAT
    if gives_back:
        fences = [u for u in inner if u.minw and not u.unbounded]
        for u in inner:
            if u.backtracks and not any(not (f.first & u.chars) for f in fences):
                problems.append("an unbounded repeat inside an unbounded repeat, undelimited")
    if op is sre_c.POSSESSIVE_REPEAT:
        return Unit(lo * whole.minw, whole.first, whole.chars, False, True, whole.chars)
    head = whole.chars if endless else whole.head
    tail = whole.chars if endless else whole.tail
    return Unit(lo * whole.minw, whole.first, whole.chars, whole.backtracks or gives_back,
                whole.unbounded or endless, head, tail)  # fmt: skip


def _union(sets: Iterator[frozenset[str]] | list[frozenset[str]]) -> frozenset[str]:
    return frozenset().union(*sets)


def _first(seq: list[Unit], attr: str = "first") -> frozenset[str]:
    """What the sequence may start with (attr="first"), or what the unbounded repeats it
    may start with take ("head"): every unit up to the first mandatory one counts."""
    found: set[str] = set()
    for u in seq:
        found |= getattr(u, attr)
        if u.minw:
            break
    return frozenset(found)


def _joined(seq: list[Unit], backtracks: bool | None = None) -> Unit:
    back = any(u.backtracks for u in seq) if backtracks is None else backtracks
    chars = _union([u.chars for u in seq])
    unbounded = any(u.unbounded for u in seq)
    if not back:  # an atomic group gives nothing back
        return Unit(sum(u.minw for u in seq), _first(seq), chars, False, unbounded)
    tail = _first(list(reversed(seq)), "tail")
    return Unit(sum(u.minw for u in seq), _first(seq), chars, back, unbounded,
                _first(seq, "head"), tail)  # fmt: skip


def _adjacent(seq: list[Unit], problems: list[str]) -> None:
    """A repeat that can give back what the next repeat takes, with nothing mandatory
    between them that either cannot take: each split of a run between the two is tried."""
    for i, u in enumerate(seq):
        if not u.tail:
            continue
        between: list[Unit] = []
        for v in seq[i + 1 :]:
            if v.head & u.tail and all(w.chars & v.head for w in between):
                problems.append("two unbounded repeats over the same characters, side by side")
                break
            if v.minw and not v.first & u.tail:
                break  # a mandatory character the first repeat cannot take ends it
            if v.minw:
                between.append(v)


def _anchored(seq: list[tuple[object, object]], flags: int) -> bool:
    if not seq or seq[0][0] is not sre_c.AT:
        return False
    return seq[0][1] is sre_c.AT_BEGINNING_STRING or (
        seq[0][1] is sre_c.AT_BEGINNING and not flags & re.MULTILINE
    )


def _restarts(seq: list[Unit], problems: list[str]) -> None:
    """A search tries every start: a repeat that can run over the whole of what comes
    before it, and then fail, rescans the same run from each start inside it."""
    first = _first(seq)
    for i, u in enumerate(seq):
        if not (u.unbounded and u.chars & first and any(v.minw for v in seq[i + 1 :])):
            continue
        if all(v.chars & u.chars for v in seq[:i] if v.minw):
            problems.append("searched, and a repeat runs over the pattern's own first characters")
            return


def shape_problems(found: Found) -> list[str]:
    tree = sre_parse.parse(found.pattern.pattern, found.pattern.flags)
    problems: list[str] = []
    seq = units(list(tree), tree.state.flags, problems)
    if found.searched and not _anchored(list(tree), tree.state.flags):
        top = list(tree)
        if len(top) == 1 and top[0][0] is sre_c.BRANCH:
            for alt in top[0][1][1]:
                _restarts(units(list(alt), tree.state.flags, []), problems)
        else:
            _restarts(seq, problems)
    return sorted(set(problems))


@pytest.mark.parametrize("found", ALL, ids=lambda f: f.where)
def test_no_pattern_can_backtrack_without_bound(found: Found) -> None:
    problems = shape_problems(found)
    if found.where in ALLOWED:
        assert problems, f"{found.where} is allowed but needs it no longer"
        return
    assert problems == [], f"{found.where}: {found.pattern.pattern!r}"


def test_the_scan_finds_the_parsers_patterns() -> None:
    names = {f.where for f in ALL}
    assert {"rules.parse.sections._ANSI", "rules.parse.saslog_lines.RELEASE"} <= names
    assert len(ALL) > 100
    assert set(ALLOWED) <= names


def test_the_static_check_catches_the_known_shapes() -> None:
    def check(pattern: str, searched: bool = True) -> list[str]:
        return shape_problems(Found("x", re.compile(pattern), searched))

    assert check(r"(a+)+b") and check(r"\s*\s*x") and check(r"(?P<v>\S.*?)\s*$")
    assert check(r"\x1b\][^\x07]*\x07") and check(r"\(([A-Z0-9]+)[^)]*\)")
    assert not check(r"\x1b\][^\x07\x1b]*\x07") and not check(r"^(\d+)\s++(.*)$")
    assert not check(r"(?:,\d+)*") and not check(r"\(([A-Z0-9]++)[^)]*\)", searched=False)
    assert not check(r"^(?P<p>.*?\S)\s+platform") and not check(r"D=\(([^()]*)\)")
    assert not check(r"\s+\S", searched=False) and check(r"\s+\S")


# ---- the measured check ---------------------------------------------------------------


def _sample(seq: list[tuple[object, object]]) -> str:
    """A short string the sequence could match (lookarounds aside)."""
    out = []
    for op, av in seq:
        if op in LEAVES:
            chars = sorted(_leaf(op, av, 0)) or ["a"]
            out.append(chars[0] if op is not sre_c.ANY else "a")
        elif op is sre_c.SUBPATTERN:
            out.append(_sample(list(av[3])))  # type: ignore[index]
        elif op is sre_c.ATOMIC_GROUP:
            out.append(_sample(list(av)))  # type: ignore[call-overload]
        elif op is sre_c.BRANCH:
            out.append(_sample(list(av[1][0])))  # type: ignore[index]
        elif op in REPEATS:
            out.append(_sample(list(av[2])) * av[0])  # type: ignore[index]
    return "".join(out)


def hostile(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    """(head, unit) pairs: the text is the head once and the unit repeated to size. The
    pattern's own characters, the text before each repeat (nested ones too) followed by a
    run of that repeat's characters or by the two again and again, the usual suspects."""
    seq = list(sre_parse.parse(pattern.pattern, pattern.flags))
    units = {"\x1b[1;", "\x1b]", " ", "\t", "0", "#", "# ", "a", "A", "a ", "@", ":", "/"}
    units |= {chr(av) for op, av in _walk(seq) if op is sre_c.LITERAL}  # type: ignore[arg-type]
    found = {("", u) for u in units}
    for before, body in _openings(seq, ""):
        for c in sorted(_leaf_chars(body))[:4]:
            found |= {(before, c), ("", before + c), ("", before or c)}
    return sorted(found)


def _openings(seq: list[tuple[object, object]], head: str) -> Iterator[tuple[str, list[Any]]]:
    """(a text that leads up to it, its body) for each repeat, nested ones included."""
    for i, (op, av) in enumerate(seq):
        before = head + _sample(seq[:i])
        if op in REPEATS:
            yield before, list(av[2])  # type: ignore[index]
            yield from _openings(list(av[2]), before)  # type: ignore[index]
        elif op is sre_c.SUBPATTERN:
            yield from _openings(list(av[3]), before)  # type: ignore[index]
        elif op is sre_c.ATOMIC_GROUP:
            yield from _openings(list(av), before)  # type: ignore[call-overload]
        elif op is sre_c.BRANCH:
            for alt in av[1]:  # type: ignore[index]
                yield from _openings(list(alt), before)


def _walk(seq: list[tuple[object, object]]) -> Iterator[tuple[object, object]]:
    for op, av in seq:
        yield op, av
        if op is sre_c.SUBPATTERN:
            yield from _walk(list(av[3]))  # type: ignore[index]
        elif op in REPEATS:
            yield from _walk(list(av[2]))  # type: ignore[index]
        elif op is sre_c.BRANCH:
            for alt in av[1]:  # type: ignore[index]
                yield from _walk(list(alt))


def _leaf_chars(seq: list[tuple[object, object]]) -> frozenset[str]:
    return _union([_leaf(op, av, 0) for op, av in _walk(seq) if op in LEAVES])


# The reference: one attempt of the engine at every position, and none succeeds (the
# lookbehind always holds, the empty negative lookahead always fails): what any pattern
# that is linear pays per character, whatever the text holds.
REFERENCE = re.compile(r"(?<=[\s\S])(?!)")


def _seconds(run: Callable[[str], object], text: str) -> float:
    """CPU seconds of this thread: time the machine gave other processes is not counted."""
    start = time.thread_time()
    run(text)
    return time.thread_time() - start


def _ratio(run: Callable[[str], object], text: str, reference: float, budget: float) -> float:
    """The best of TRIES runs over the reference scan's time, or the first within `budget`:
    the best of all would be no higher, so the verdict is the same either way."""
    best = float("inf")
    for _ in range(TRIES):
        best = min(best, _seconds(run, text) / max(reference, 1e-6))
        if best <= budget:
            break
    return best


@pytest.mark.slow
@pytest.mark.parametrize("found", ALL, ids=lambda f: f.where)
def test_every_pattern_runs_in_linear_time_on_hostile_text(found: Found) -> None:
    run = found.pattern.search if found.searched else found.pattern.match
    references = {n: min(_seconds(REFERENCE.search, "a" * n) for _ in range(TRIES)) for n in SIZES}
    slow = []
    for head, unit in hostile(found.pattern):
        for size in SIZES:
            text = head + (unit * (size // len(unit) + 1))[: max(size - len(head), 0)]
            # The small sizes only stop a quadratic pattern early; 1 MB sets the budget.
            budget = RATIO if size == SIZES[-1] else RATIO * GATE
            ratio = _ratio(run, text, references[size], budget)
            if ratio > budget:
                slow.append(f"{head[:20]!r} + {unit[:20]!r}… × {size}: {ratio:.0f}× the scan")
                break
    assert slow == [], f"{found.where} {found.pattern.pattern!r}"
